import { defineOperation } from "@/lib/api/operation";
import { cursorQuery, listEnvelope, parseOptionalCursorParams } from "@/lib/api/pagination";
import { apiKey, createApiKeyInput, createdApiKey } from "@/lib/schemas/api-keys";
import { idParams, successResponse } from "@/lib/schemas/common";
import { createApiKey, listApiKeys, revokeApiKey } from "@/lib/services/api-keys";

const tag = "API keys";

export const createApiKeyOperation = defineOperation({
  method: "POST",
  path: "/v1/api-keys",
  tag,
  summary: "Create an API key",
  description: "The key acts as the caller, with the caller's role. Its token is in this answer only.",
  auth: "member",
  body: createApiKeyInput,
  status: 201,
  response: createdApiKey,
  handler: (ctx, { body }) => createApiKey(ctx, body),
});

export const listApiKeysOperation = defineOperation({
  method: "GET",
  path: "/v1/api-keys",
  tag,
  summary: "List API keys",
  description: "Never shows tokens. Paginated when `limit` is given; otherwise every key.",
  auth: "member",
  page: (search) => parseOptionalCursorParams(search),
  pageQuery: cursorQuery,
  response: listEnvelope(apiKey),
  handler: (ctx, { page }) => listApiKeys(ctx, page),
});

export const revokeApiKeyOperation = defineOperation({
  method: "DELETE",
  path: "/v1/api-keys/{id}",
  tag,
  summary: "Revoke an API key",
  description: "The key is refused from its next request on. Owners and admins may revoke any key of the organization; members only their own.",
  auth: "member",
  params: idParams,
  response: successResponse,
  errors: ["NOT_FOUND", "FORBIDDEN"],
  handler: (ctx, { params }) => revokeApiKey(ctx, params.id),
});

export const apiKeyOperations = [createApiKeyOperation, listApiKeysOperation, revokeApiKeyOperation];
