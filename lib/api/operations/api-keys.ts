import { defineOperation } from "@/lib/api/operation";
import { parseOptionalCursorParams } from "@/lib/api/pagination";
import { createApiKey, listApiKeys, revokeApiKey } from "@/lib/services/api-keys";
import { createApiKeyContract, listApiKeysContract, revokeApiKeyContract } from "@/lib/contracts/api-keys";

export const createApiKeyOperation = defineOperation({
  ...createApiKeyContract,
  handler: (ctx, { body }) => createApiKey(ctx, body),
});

export const listApiKeysOperation = defineOperation({
  ...listApiKeysContract,
  page: (search) => parseOptionalCursorParams(search),
  handler: (ctx, { page }) => listApiKeys(ctx, page),
});

export const revokeApiKeyOperation = defineOperation({
  ...revokeApiKeyContract,
  handler: (ctx, { params }) => revokeApiKey(ctx, params.id),
});

export const apiKeyOperations = [createApiKeyOperation, listApiKeysOperation, revokeApiKeyOperation];
