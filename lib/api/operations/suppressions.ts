import { defineOperation } from "@/lib/api/operation";
import { cursorQuery, listEnvelope, parseCursorParams } from "@/lib/api/pagination";
import { successResponse } from "@/lib/schemas/common";
import {
  addedSuppressions,
  addSuppressionsInput,
  listSuppressionsQuery,
  MAX_SUPPRESSIONS_PER_REQUEST,
  suppression,
  suppressionParams,
} from "@/lib/schemas/suppressions";
import { addSuppressions, listSuppressions, removeSuppression } from "@/lib/services/suppressions";

const tag = "Suppressions";

export const listSuppressionsOperation = defineOperation({
  method: "GET",
  path: "/v1/suppressions",
  tag,
  summary: "List suppressed addresses",
  description:
    "Addresses the organization sends nothing to, newest first, always paginated (20 a page unless `limit` says " +
    "otherwise). Hard bounces, three soft bounces in a row and complaints add them by themselves, with the email that caused it.",
  auth: "member",
  query: listSuppressionsQuery,
  page: (search) => parseCursorParams(search),
  pageQuery: cursorQuery,
  response: listEnvelope(suppression),
  handler: (ctx, { query, page }) => listSuppressions(ctx, query, page),
});

export const addSuppressionsOperation = defineOperation({
  method: "POST",
  path: "/v1/suppressions",
  tag,
  summary: "Suppress addresses",
  description: `Adds up to ${MAX_SUPPRESSIONS_PER_REQUEST} addresses with reason \`manual\`. Broadcasts, sequences and single emails skip them from then on.`,
  auth: "member",
  body: addSuppressionsInput,
  response: addedSuppressions,
  errors: ["VALIDATION_ERROR"],
  handler: (ctx, { body }) => addSuppressions(ctx, body),
});

export const removeSuppressionOperation = defineOperation({
  method: "DELETE",
  path: "/v1/suppressions/{email}",
  tag,
  summary: "Remove a suppression",
  description:
    "The address can receive mail again (its run of soft bounces starts over). A contact who unsubscribed stays " +
    "unsubscribed. Remove a hard bounce only when you know the address works now: mailing dead addresses harms every sender's reputation.",
  auth: "member",
  params: suppressionParams,
  response: successResponse,
  errors: ["NOT_FOUND"],
  handler: (ctx, { params }) => removeSuppression(ctx, params.email),
});

export const suppressionsOperations = [listSuppressionsOperation, addSuppressionsOperation, removeSuppressionOperation];
