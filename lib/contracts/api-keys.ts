import { cursorQuery, listEnvelope } from "@/lib/schemas/pagination";
import { apiKey, createApiKeyInput, createdApiKey } from "@/lib/schemas/api-keys";
import { idParams, successResponse } from "@/lib/schemas/common";
import { defineContract } from "@/lib/contracts/contract";

const tag = "API keys";

export const createApiKeyContract = defineContract({
  method: "POST",
  path: "/v1/api-keys",
  tag,
  summary: "Create an API key",
  description: "The key acts as the caller, with the caller's role. Its token is in this answer only.",
  auth: "member",
  body: createApiKeyInput,
  status: 201,
  response: createdApiKey,
});

export const listApiKeysContract = defineContract({
  method: "GET",
  path: "/v1/api-keys",
  tag,
  summary: "List API keys",
  description: "Never shows tokens. Paginated when `limit` is given; otherwise every key.",
  auth: "member",
  pageQuery: cursorQuery,
  response: listEnvelope(apiKey),
});

export const revokeApiKeyContract = defineContract({
  method: "DELETE",
  path: "/v1/api-keys/{id}",
  operationId: "revokeApiKey",
  tag,
  summary: "Revoke an API key",
  description: "The key is refused from its next request on. Owners and admins may revoke any key of the organization; members only their own.",
  auth: "member",
  params: idParams,
  response: successResponse,
  errors: ["NOT_FOUND", "FORBIDDEN"],
});
