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
      'The limits that apply, e.g. `"key";q=100;w=2`: bursts of `q` requests refilled over `w` seconds; `key` per API key (or user), ' +
      "`organization` for all its keys and users, `auth-failures` per client address.",
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
 * Every operation may answer 500 INTERNAL_ERROR or 503 SERVICE_UNAVAILABLE: one `5XX` response
 * (OpenAPI's range) says both, as two references in each of 137 operations were 9 KB. A 5xx an
 * operation documents itself (502 MAIL_DELIVERY_FAILED) keeps its own status, which wins over the range.
 */
const serverError = {
  description: "Error: INTERNAL_ERROR (500, never with internals) or SERVICE_UNAVAILABLE (503: the database is briefly unreachable; repeat after Retry-After)",
  headers: retryHeaders,
};
const SERVER_ERROR_CODES: ErrorCode[] = ["INTERNAL_ERROR", "SERVICE_UNAVAILABLE"];

/**
 * The responses of the operations. Each error status is written once under `components/responses`
 * (`NotFound`, `TooManyRequests`…) and referenced; an operation whose codes for that status are not
 * just the usual one says which in the reference's own description (OpenAPI 3.1 lets it override).
 * A success answering a named schema is shared the same way (`Broadcast`) when several operations
 * give it, so the ~70 operations answering one record of a few kinds do not each repeat the answer.
 */
export function responseWriter(refs: { error: JsonSchema; paginationError: JsonSchema }) {
  const shared: Record<string, unknown> = {};
  /** Success answers whose body is a named schema, by that name, with the responses that give them. */
  const successes = new Map<string, { answer: unknown; uses: { result: Record<string, unknown>; status: string }[] }>();

  function responses(op: AnyOperation, success: JsonSchema) {
    const status = String(op.status ?? 200);
    const answer = { description: "Success", headers: rateLimitHeaderRefs, content: { [op.mediaType ?? "application/json"]: { schema: success } } };
    const result: Record<string, unknown> = { [status]: answer };
    const named = typeof success.$ref === "string" && Object.keys(success).length === 1 ? success.$ref.split("/").pop()! : undefined;
    if (named) {
      const entry = successes.get(named) ?? { answer, uses: [] };
      successes.set(named, entry);
      entry.uses.push({ result, status });
    }
    const codes = new Set<ErrorCode>(["UNAUTHORIZED", "RATE_LIMITED", ...(op.errors ?? []).filter((code) => !SERVER_ERROR_CODES.includes(code))]);
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
    shared.ServerError ??= { ...serverError, content: { "application/json": { schema: refs.error } } };
    result["5XX"] = { $ref: "#/components/responses/ServerError" };
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

  /**
   * The shared responses; call it last. A success answer given by several operations is shared
   * under its schema's name and referenced; one given once stays inline, where it costs less.
   */
  function components() {
    const sharedSuccesses: Record<string, unknown> = {};
    for (const [name, { answer, uses }] of successes) {
      if (uses.length < 2) continue;
      sharedSuccesses[name] = answer;
      for (const { result, status } of uses) result[status] = { $ref: `#/components/responses/${name}` };
    }
    const clash = Object.keys(sharedSuccesses).find((name) => name in shared);
    // The document's test builds this very document: a schema named like an HTTP status fails it, never a deployment.
    if (clash) throw new Error(`The schema ${clash} is named like an error response: give it another id`);
    return Object.fromEntries(Object.entries({ ...shared, ...sharedSuccesses }).sort(([a], [b]) => a.localeCompare(b)));
  }
  return { responses, components };
}
