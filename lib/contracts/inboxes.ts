import { cursorQuery, listEnvelope } from "@/lib/schemas/pagination";
import { idParams, successResponse } from "@/lib/schemas/common";
import { createInboxInput, inbox, updateInboxInput } from "@/lib/schemas/inboxes";
import { defineContract } from "@/lib/contracts/contract";

const tag = "Inboxes";

export const createInboxContract = defineContract({
  method: "POST",
  path: "/v1/inboxes",
  tag,
  summary: "Connect an inbox",
  description:
    "A sender identity with its SMTP server, and optionally IMAP for reading replies. Passwords are stored encrypted and never returned. " +
    "Servers must be public: a host that is or resolves to a loopback, private, link-local, CGNAT, metadata or reserved address, or the " +
    "platform's own relay, is refused (400 naming `smtp.host` / `imap.host`) unless the operator admits it (ALLOWED_PRIVATE_HOSTS); " +
    "the address is checked again at every connection. The inbox sends only once its from address is verified (`verification`): at " +
    "once when it is at a verified domain of the organization, otherwise after the link POST /v1/inboxes/{id}/send-confirmation mails to it is followed.",
  auth: "member",
  body: createInboxInput,
  status: 201,
  response: inbox,
  errors: ["VALIDATION_ERROR"],
});

export const listInboxesContract = defineContract({
  method: "GET",
  path: "/v1/inboxes",
  tag,
  summary: "List inboxes",
  description: "Newest first. Paginated when `limit` is given; otherwise every inbox.",
  auth: "member",
  pageQuery: cursorQuery,
  response: listEnvelope(inbox),
});

export const getInboxContract = defineContract({
  method: "GET",
  path: "/v1/inboxes/{id}",
  tag,
  summary: "Retrieve an inbox",
  auth: "member",
  params: idParams,
  response: inbox,
  errors: ["NOT_FOUND"],
});

export const updateInboxContract = defineContract({
  method: "PUT",
  path: "/v1/inboxes/{id}",
  tag,
  summary: "Update an inbox",
  description:
    "Partial: fields not given are kept. A password given replaces the stored one, an omitted one is kept. " +
    "`imap: null` removes IMAP; adding IMAP needs all its fields. Servers pass the same address policy as on creation. " +
    "A new from address, SMTP host, port or username makes the inbox unverified again unless the address is at a verified domain. " +
    "`paused: false` on an inbox the bounce-rate breaker paused (`paused_reason` `bounce_rate`) needs the admin or owner role: " +
    "a member gets 403 FORBIDDEN and nothing changes.",
  auth: "member",
  params: idParams,
  body: updateInboxInput,
  response: inbox,
  errors: ["NOT_FOUND", "VALIDATION_ERROR", "FORBIDDEN"],
});

export const deleteInboxContract = defineContract({
  method: "DELETE",
  path: "/v1/inboxes/{id}",
  tag,
  summary: "Delete an inbox",
  description: "Broadcasts, templates and threads that used it no longer name it; sent emails keep their history.",
  auth: "member",
  params: idParams,
  response: successResponse,
  errors: ["NOT_FOUND"],
});

export const sendInboxConfirmationContract = defineContract({
  method: "POST",
  path: "/v1/inboxes/{id}/send-confirmation",
  operationId: "sendInboxConfirmation",
  tag,
  summary: "Mail a confirmation link to the inbox's from address",
  description:
    "Proves the from address of an inbox that is not at a verified domain: a link, valid once for 24 hours, is mailed to the address " +
    "through the inbox's own SMTP server; following it (no sign-in needed) verifies the inbox. A new link replaces the previous one, " +
    "at most one a minute (409 CONFLICT). An inbox already verified is answered as it is and nothing is sent. When the server cannot " +
    "take the message: 502 MAIL_DELIVERY_FAILED with a generic reason (could not connect, authentication failed, TLS failed) or the server's answer.",
  auth: "member",
  params: idParams,
  response: inbox,
  errors: ["NOT_FOUND", "CONFLICT", "MAIL_DELIVERY_FAILED"],
});
