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
    "A sender identity with its SMTP server, and optionally IMAP for reading replies, signing in with a username and password (Google and Microsoft " +
    "mailboxes connect by OAuth in the dashboard instead). Passwords are stored encrypted and never returned. The servers are tested before the inbox " +
    "is saved: 400 INBOX_CONNECTION_FAILED with the server's words when one cannot be reached or refuses the sign-in. " +
    "Servers must be public: a host that is or resolves to a loopback, private, link-local, CGNAT, metadata or reserved address, or the " +
    "platform's own relay, is refused (400 naming `smtp.host` / `imap.host`) unless the operator admits it (ALLOWED_PRIVATE_HOSTS); " +
    "the address is checked again at every connection. The inbox sends only once its from address is verified (`verification`): at " +
    "once when it is at a verified domain of the organization, otherwise after the link POST /v1/inboxes/{id}/send-confirmation mails to it is followed.",
  auth: "member",
  body: createInboxInput,
  status: 201,
  response: inbox,
  errors: ["VALIDATION_ERROR", "INBOX_CONNECTION_FAILED"],
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
    "a member gets 403 FORBIDDEN and nothing changes. " +
    "New server settings are tested before they are saved (400 INBOX_CONNECTION_FAILED with the server's words) and clear an `error` status. " +
    "An OAuth inbox (`auth.type` `oauth2`) takes new hosts, ports and TLS settings but no usernames or passwords: it is reconnected in the dashboard.",
  auth: "member",
  params: idParams,
  body: updateInboxInput,
  response: inbox,
  errors: ["NOT_FOUND", "VALIDATION_ERROR", "FORBIDDEN", "INBOX_CONNECTION_FAILED"],
});

export const testInboxContract = defineContract({
  method: "POST",
  path: "/v1/inboxes/{id}/test",
  tag,
  summary: "Test an inbox's servers",
  description:
    "Signs in to the inbox's SMTP server (and IMAP server, when it has one) without sending or reading anything. On success the inbox is answered " +
    "`active` (an inbox in `error` is used by rotation and reply polling again); otherwise 400 INBOX_CONNECTION_FAILED names each server that failed " +
    "(`details[].path` `smtp` / `imap`) in the server's words where it refused the sign-in, and the inbox stays as it was.",
  auth: "member",
  params: idParams,
  response: inbox,
  errors: ["NOT_FOUND", "INBOX_CONNECTION_FAILED"],
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
