import type { Middleware } from "openapi-fetch";

/**
 * The sends, by their OpenAPI path: the server keeps an `Idempotency-Key` for 24 hours and answers a
 * repeat with the first answer, so a retry after a lost answer never sends twice.
 */
const SENDS = new Set(["/v1/emails", "/v1/emails/batch", "/v1/broadcasts/{id}/send"]);

/** Gives every send without one an `Idempotency-Key`, before the retries, so every attempt carries the same. */
export const idempotencyKeys: Middleware = {
  onRequest({ request, schemaPath }) {
    if (request.method !== "POST" || !SENDS.has(schemaPath) || request.headers.has("idempotency-key")) return undefined;
    request.headers.set("idempotency-key", crypto.randomUUID());
    return request;
  },
};
