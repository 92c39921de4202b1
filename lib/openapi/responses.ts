import { STATUS_CODES } from "node:http";
import { errorStatus, type ErrorCode } from "@/lib/api/errors";
import type { AnyOperation } from "@/lib/api/operation";
import type { JsonSchema } from "./json-schema";

// Every answer, successful or not, says where the caller stands (draft-ietf-httpapi-ratelimit-headers).
const rateLimitHeaderRefs = {
  "RateLimit-Policy": { $ref: "#/components/headers/RateLimit-Policy" },
  RateLimit: { $ref: "#/components/headers/RateLimit" },
};

// 429 and 503 say when to try again.
const retryHeaders = { ...rateLimitHeaderRefs, "Retry-After": { $ref: "#/components/headers/Retry-After" } };

export const responseHeaders = {
  "RateLimit-Policy": {
    description:
      'The limits that apply, e.g. `"key";q=100;w=2, "organization";q=200;w=2`: a burst of `q` requests, refilled ' +
      "evenly over `w` seconds. `key` is per API key (or signed-in user), `organization` for all of an " +
      "organization's keys and users together, `auth-failures` per client address for failed authentications.",
    schema: { type: "string" },
  },
  RateLimit: {
    description: 'Where the caller stands under each policy, e.g. `"key";r=97;t=1`: `r` requests left now, `t` seconds until the bucket is full again.',
    schema: { type: "string" },
  },
  "Retry-After": { description: "Seconds to wait before the next request can succeed.", schema: { type: "integer", minimum: 1 } },
};

/** 404 → `NotFound`: the shared response of an HTTP status, named by its reason phrase. */
const responseName = (status: number) => (STATUS_CODES[status] ?? `Status${status}`).replace(/[^A-Za-z]/g, "");

/** The code a status's shared response names; an operation answering others with that status lists them. */
const defaultCode = (status: number) => (Object.keys(errorStatus) as ErrorCode[]).find((code) => errorStatus[code] === status)!;

const errorResponse = (codes: ErrorCode[], status: number, errorRef: JsonSchema) => ({
  description: `Error: ${codes.join(", ")}`,
  headers: status === 429 || status === 503 ? retryHeaders : rateLimitHeaderRefs,
  content: { "application/json": { schema: errorRef } },
});

/**
 * The responses of the operations. Each error status is written once under `components/responses`
 * (`NotFound`, `TooManyRequests`…) and referenced; an operation whose codes for that status are not
 * just the usual one says which in the reference's own description (OpenAPI 3.1 lets it override).
 * A success answering a named schema is shared the same way (`Broadcast`), so the ~40 operations
 * answering one record of a few kinds do not each repeat the answer.
 */
export function responseWriter(refs: { error: JsonSchema; paginationError: JsonSchema }) {
  const shared: Record<string, unknown> = {};
  const successes: Record<string, unknown> = {};

  /** The success answer; one whose body is a named schema is shared too, under that name. */
  function successResponse(schema: JsonSchema, mediaType = "application/json") {
    const answer = { description: "Success", headers: rateLimitHeaderRefs, content: { [mediaType]: { schema } } };
    const named = typeof schema.$ref === "string" && Object.keys(schema).length === 1 ? schema.$ref.split("/").pop()! : undefined;
    if (!named) return answer;
    successes[named] ??= answer;
    return { $ref: `#/components/responses/${named}` };
  }

  function responses(op: AnyOperation, success: JsonSchema) {
    const result: Record<string, unknown> = { [String(op.status ?? 200)]: successResponse(success, op.mediaType) };
    const codes = new Set<ErrorCode>(["UNAUTHORIZED", "RATE_LIMITED", "INTERNAL_ERROR", "SERVICE_UNAVAILABLE", ...(op.errors ?? [])]);
    if (op.params || op.query || op.body) codes.add("VALIDATION_ERROR");
    if (op.auth === "admin") codes.add("FORBIDDEN");
    if (op.body) codes.add("PAYLOAD_TOO_LARGE");
    // Any body must be declared as JSON; a POST without one needs no Content-Type.
    if (op.body || op.method !== "GET") codes.add("UNSUPPORTED_MEDIA_TYPE");
    const byStatus = new Map<number, ErrorCode[]>();
    for (const code of codes) byStatus.set(errorStatus[code], [...(byStatus.get(errorStatus[code]) ?? []), code]);
    for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
      const name = responseName(status);
      shared[name] ??= errorResponse([defaultCode(status)], status, refs.error);
      const usual = list.length === 1 && list[0] === defaultCode(status);
      result[String(status)] = usual
        ? { $ref: `#/components/responses/${name}` }
        : { $ref: `#/components/responses/${name}`, description: `Error: ${list.join(", ")}` };
    }
    if (op.page) {
      shared.PaginationError ??= {
        description: "Invalid pagination parameters (limit outside 1..100, malformed or unknown cursor, after with before)",
        headers: rateLimitHeaderRefs,
        content: { "application/json": { schema: refs.paginationError } },
      };
      result["422"] = { $ref: "#/components/responses/PaginationError" };
    }
    return result;
  }

  function components() {
    const clash = Object.keys(successes).find((name) => name in shared);
    // The document's test builds this very document: a schema named like an HTTP status fails it, never a deployment.
    if (clash) throw new Error(`The schema ${clash} is named like an error response: give it another id`);
    return Object.fromEntries(Object.entries({ ...shared, ...successes }).sort(([a], [b]) => a.localeCompare(b)));
  }
  return { responses, components };
}
