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
    "Addresses nothing is sent to, newest first, always paginated. Hard bounces, three soft bounces in a row and complaints add them, with the email that caused it.",
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
    "The address can receive mail again (soft bounces count from zero); an unsubscribed contact stays so. Remove a hard bounce only when the address works now. A member removes only `manual` ones; others need an admin or owner (403).",
  auth: "member",
  params: suppressionParams,
  response: successResponse,
  errors: ["NOT_FOUND", "FORBIDDEN"],
});
