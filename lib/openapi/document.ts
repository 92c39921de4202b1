import { z } from "zod";
import { errorStatus, type ErrorCode } from "@/lib/api/errors";
import type { AnyOperation } from "@/lib/api/operation";
import { operations } from "@/lib/api/operations";
import { env } from "@/lib/env";
import { apiDescription } from "./description";

type JsonSchema = Record<string, unknown>;

const toSchema = (schema: z.ZodType, io: "input" | "output"): JsonSchema => {
  const json = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as JsonSchema;
  // The document declares the dialect once; per-schema $schema keys are noise in OpenAPI 3.1.
  delete json.$schema;
  return json;
};

const errorRef = { $ref: "#/components/schemas/Error" };

// Every answer, successful or not, says where the caller stands (draft-ietf-httpapi-ratelimit-headers).
const rateLimitHeaderRefs = {
  "RateLimit-Policy": { $ref: "#/components/headers/RateLimit-Policy" },
  RateLimit: { $ref: "#/components/headers/RateLimit" },
};

function parameters(op: AnyOperation) {
  const list: Record<string, unknown>[] = [];
  const add = (where: "path" | "query", shape: Record<string, z.ZodType> | undefined) => {
    for (const [name, schema] of Object.entries(shape ?? {})) {
      const json = toSchema(schema, "input");
      list.push({
        name,
        in: where,
        required: where === "path" || !schema.safeParse(undefined).success,
        description: typeof json.description === "string" ? json.description : undefined,
        schema: json,
      });
    }
  };
  add("path", (op.params as z.ZodObject | undefined)?.shape);
  add("query", (op.query as z.ZodObject | undefined)?.shape);
  add("query", op.pageQuery?.shape);
  return list;
}

function responses(op: AnyOperation) {
  const result: Record<string, unknown> = {
    [String(op.status ?? 200)]: {
      description: "Success",
      headers: rateLimitHeaderRefs,
      content: { "application/json": { schema: toSchema(op.response, "output") } },
    },
  };
  const codes = new Set<ErrorCode>(["UNAUTHORIZED", "RATE_LIMITED", "INTERNAL_ERROR", ...(op.errors ?? [])]);
  if (op.params || op.query || op.body) codes.add("VALIDATION_ERROR");
  if (op.auth === "admin") codes.add("FORBIDDEN");
  if (op.body) codes.add("PAYLOAD_TOO_LARGE");
  // Any body must be declared as JSON; a POST without one needs no Content-Type.
  if (op.body || op.method !== "GET") codes.add("UNSUPPORTED_MEDIA_TYPE");
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(errorStatus[code], [...(byStatus.get(errorStatus[code]) ?? []), code]);
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    const headers = status === 429 ? { ...rateLimitHeaderRefs, "Retry-After": { $ref: "#/components/headers/Retry-After" } } : rateLimitHeaderRefs;
    result[String(status)] = { description: `Error: ${list.join(", ")}`, headers, content: { "application/json": { schema: errorRef } } };
  }
  if (op.page) {
    result["422"] = {
      description: "Invalid pagination parameters (limit outside 1..100, malformed or unknown cursor, after with before)",
      content: { "application/json": { schema: { $ref: "#/components/schemas/PaginationError" } } },
    };
  }
  return result;
}

const operationId = (op: AnyOperation) =>
  op.summary
    .replace(/[^a-zA-Z0-9 ]/g, " ")
    .split(/\s+/)
    .filter(Boolean)
    .map((word, i) => (i === 0 ? word.toLowerCase() : word[0].toUpperCase() + word.slice(1)))
    .join("");

/** The OpenAPI 3.1 description of /v1, generated from the same operations and zod schemas that serve it. */
export function buildOpenApiDocument(list: AnyOperation[] = operations) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of list) {
    paths[op.path] ??= {};
    paths[op.path][op.method.toLowerCase()] = {
      operationId: operationId(op),
      tags: [op.tag],
      summary: op.summary,
      description: [op.description, op.auth === "admin" ? "Requires the owner or admin role." : undefined].filter(Boolean).join("\n\n") || undefined,
      parameters: parameters(op),
      requestBody: op.body ? { required: true, content: { "application/json": { schema: toSchema(op.body, "input") } } } : undefined,
      responses: responses(op),
    };
  }
  const tags = [...new Set(list.map((op) => op.tag))].sort().map((name) => ({ name }));
  return {
    openapi: "3.1.0",
    info: { title: "Mailplatform API", version: "1.0.0", description: apiDescription },
    servers: [{ url: env.appUrl }],
    security: [{ bearerAuth: [] }],
    tags,
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
      headers: {
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
      },
      schemas: {
        Error: {
          type: "object",
          required: ["error", "code"],
          properties: {
            error: { type: "string", description: "What went wrong, for people." },
            code: { type: "string", enum: Object.keys(errorStatus) },
            details: { description: "For VALIDATION_ERROR: a list of { path, message }." },
          },
        },
        PaginationError: {
          type: "object",
          required: ["name", "statusCode", "message"],
          properties: { name: { const: "validation_error" }, statusCode: { const: 422 }, message: { type: "string" } },
        },
      },
    },
  };
}
