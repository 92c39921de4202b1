import { cursorQuery, listEnvelope } from "@/lib/schemas/pagination";
import { successResponse } from "@/lib/schemas/common";
import {
  addedSuppressions,
  addSuppressionsInput,
  listSuppressionsQuery,
  MAX_SUPPRESSIONS_PER_REQUEST,
  suppression,
  suppressionParams,
} from "@/lib/schemas/suppressions";
import { defineContract } from "@/lib/contracts/contract";

const tag = "Suppressions";

export const listSuppressionsContract = defineContract({
  method: "GET",
  path: "/v1/suppressions",
  tag,
  summary: "List suppressed addresses",
  description:
    "Addresses the organization sends nothing to, newest first, always paginated (20 a page unless `limit` says " +
    "otherwise). Hard bounces, three soft bounces in a row and complaints add them by themselves, with the email that caused it.",
  auth: "member",
  query: listSuppressionsQuery,
  pageQuery: cursorQuery,
  response: listEnvelope(suppression),
});

export const addSuppressionsContract = defineContract({
  method: "POST",
  path: "/v1/suppressions",
  operationId: "createSuppressions",
  tag,
  summary: "Suppress addresses",
  description: `Adds up to ${MAX_SUPPRESSIONS_PER_REQUEST} addresses with reason \`manual\`. Broadcasts, sequences and single emails skip them from then on.`,
  auth: "member",
  body: addSuppressionsInput,
  response: addedSuppressions,
  errors: ["VALIDATION_ERROR"],
});

export const removeSuppressionContract = defineContract({
  method: "DELETE",
  path: "/v1/suppressions/{email}",
  tag,
  summary: "Remove a suppression",
  description:
    "The address can receive mail again (its run of soft bounces starts over). A contact who unsubscribed stays " +
    "unsubscribed. Remove a hard bounce only when you know the address works now: mailing dead addresses harms every sender's reputation. " +
    "A member may remove only `manual` suppressions; one the platform made (`hard_bounce`, `soft_bounce`, `complaint`, " +
    "`unsubscribe`) needs the admin or owner role, else 403 FORBIDDEN.",
  auth: "member",
  params: suppressionParams,
  response: successResponse,
  errors: ["NOT_FOUND", "FORBIDDEN"],
});
