import { defineOperation } from "@/lib/api/operation";
import { cursorQuery, listEnvelope, parseOptionalCursorParams } from "@/lib/api/pagination";
import { idParams, successResponse } from "@/lib/schemas/common";
import { createInboxInput, inbox, updateInboxInput } from "@/lib/schemas/inboxes";
import { createInbox, deleteInbox, getInbox, listInboxes, updateInbox } from "@/lib/services/inboxes";

const tag = "Inboxes";

export const createInboxOperation = defineOperation({
  method: "POST",
  path: "/v1/inboxes",
  tag,
  summary: "Connect an inbox",
  description: "A sender identity with its SMTP server, and optionally IMAP for reading replies. Passwords are stored encrypted and never returned.",
  auth: "member",
  body: createInboxInput,
  status: 201,
  response: inbox,
  handler: (ctx, { body }) => createInbox(ctx, body),
});

export const listInboxesOperation = defineOperation({
  method: "GET",
  path: "/v1/inboxes",
  tag,
  summary: "List inboxes",
  description: "Newest first. Paginated when `limit` is given; otherwise every inbox.",
  auth: "member",
  page: (search) => parseOptionalCursorParams(search),
  pageQuery: cursorQuery,
  response: listEnvelope(inbox),
  handler: (ctx, { page }) => listInboxes(ctx, page),
});

export const getInboxOperation = defineOperation({
  method: "GET",
  path: "/v1/inboxes/{id}",
  tag,
  summary: "Retrieve an inbox",
  auth: "member",
  params: idParams,
  response: inbox,
  errors: ["NOT_FOUND"],
  handler: (ctx, { params }) => getInbox(ctx, params.id),
});

export const updateInboxOperation = defineOperation({
  method: "PUT",
  path: "/v1/inboxes/{id}",
  tag,
  summary: "Update an inbox",
  description:
    "Partial: fields not given are kept. A password given replaces the stored one, an omitted one is kept. " +
    "`imap: null` removes IMAP; adding IMAP needs all its fields.",
  auth: "member",
  params: idParams,
  body: updateInboxInput,
  response: inbox,
  errors: ["NOT_FOUND"],
  handler: (ctx, { params, body }) => updateInbox(ctx, params.id, body),
});

export const deleteInboxOperation = defineOperation({
  method: "DELETE",
  path: "/v1/inboxes/{id}",
  tag,
  summary: "Delete an inbox",
  description: "Broadcasts, templates and threads that used it no longer name it; sent emails keep their history.",
  auth: "member",
  params: idParams,
  response: successResponse,
  errors: ["NOT_FOUND"],
  handler: (ctx, { params }) => deleteInbox(ctx, params.id),
});

export const inboxesOperations = [createInboxOperation, listInboxesOperation, getInboxOperation, updateInboxOperation, deleteInboxOperation];
