import { defineOperation } from "@/lib/api/operation";
import { parseCursorParams } from "@/lib/api/pagination";
import { addSuppressions, listSuppressions, removeSuppression } from "@/lib/services/suppressions";
import { listSuppressionsContract, addSuppressionsContract, removeSuppressionContract } from "@/lib/contracts/suppressions";

export const listSuppressionsOperation = defineOperation({
  ...listSuppressionsContract,
  page: (search) => parseCursorParams(search),
  handler: (ctx, { query, page }) => listSuppressions(ctx, query, page),
});

export const addSuppressionsOperation = defineOperation({
  ...addSuppressionsContract,
  handler: (ctx, { body }) => addSuppressions(ctx, body),
});

export const removeSuppressionOperation = defineOperation({
  ...removeSuppressionContract,
  handler: (ctx, { params }) => removeSuppression(ctx, params.email),
});

export const suppressionsOperations = [listSuppressionsOperation, addSuppressionsOperation, removeSuppressionOperation];
