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
    "A sender with its SMTP server and, optionally, IMAP to read replies, signing in with a password (Google and Microsoft mailboxes connect by OAuth in the dashboard). The servers are tested first (400 INBOX_CONNECTION_FAILED with the server's words). Hosts must be public: a loopback, private, link-local, CGNAT, metadata or reserved address, or the platform's relay, is 400 unless the operator allows it (ALLOWED_PRIVATE_HOSTS), checked again at every connection. It sends once its from address is verified: at once at a verified domain, else by the link `POST /v1/inboxes/{id}/send-confirmation` mails.",
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
    "Fields not given, passwords included, are kept; `imap: null` removes IMAP, adding it needs all its fields. New server settings pass the host policy, are tested (400 INBOX_CONNECTION_FAILED) and clear an `error` status; a new from address, SMTP host, port or username unverifies the inbox unless at a verified domain. Unpausing a breaker's pause (`bounce_rate`) needs an admin or owner (403). An OAuth inbox takes hosts, ports and TLS but no credentials.",
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
    "Signs in to its SMTP and IMAP servers, sending and reading nothing. Success answers it `active` (rotation and polling use it again); otherwise 400 INBOX_CONNECTION_FAILED names each server that failed (`details[].path`) in its words, and nothing changes.",
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
    "Mails the inbox's from address, through its own SMTP server, a link valid once for 24 hours that verifies the inbox (no sign-in needed); a new link replaces the last, at most one a minute (409). A verified inbox is answered as it is. 502 when the server refuses the message.",
  auth: "member",
  params: idParams,
  response: inbox,
  errors: ["NOT_FOUND", "CONFLICT", "MAIL_DELIVERY_FAILED"],
});
