import type { AnyOperation } from "@/lib/api/operation";
import { operations } from "@/lib/api/operations";
import { env } from "@/lib/env";
import { apiError, paginationError } from "@/lib/schemas/errors";
import { apiDescription } from "./description";
import { schemaCollector, type JsonSchema } from "./json-schema";
import { operationIdOf } from "./operation-id";
import { operationParameters, shareParameters } from "./parameters";
import { responseHeaders, responseWriter } from "./responses";
import { tagDescriptions } from "./tags";
import { WEBHOOK_EVENTS_TAG, webhookHeaderParameters, webhookResponses, webhooksSection } from "./webhooks";

/** The form an upload may take instead of its JSON: one `file` part. */
const multipartFile = {
  "multipart/form-data": {
    schema: { type: "object", required: ["file"], properties: { file: { type: "string", contentMediaType: "application/octet-stream" } } },
  },
};

export type OpenApiOptions = {
  /** The base URL of the `servers` entry; the served document names this deployment's. */
  serverUrl?: string;
};

/**
 * The OpenAPI 3.1 description of /v1, generated from the same operations and zod schemas that serve
 * it, with the webhook events' payloads. Schemas named where they are declared (`.meta({ id })`)
 * are written once under `components/schemas` (lib/openapi/json-schema.ts).
 */
export function buildOpenApiDocument(list: AnyOperation[] = operations, { serverUrl = env.appUrl }: OpenApiOptions = {}) {
  const schemas = schemaCollector();
  const writer = responseWriter({ error: schemas.output(apiError), paginationError: schemas.output(paginationError) });
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of list) {
    const parameters = operationParameters(op, schemas);
    paths[op.path] ??= {};
    paths[op.path][op.method.toLowerCase()] = {
      operationId: operationIdOf(op),
      tags: [op.tag],
      summary: op.summary,
      description: [op.description, op.auth === "admin" ? "Owner or admin only." : undefined].filter(Boolean).join("\n\n") || undefined,
      parameters: parameters.length > 0 ? parameters : undefined,
      requestBody: op.body
        ? { required: true, content: { "application/json": { schema: schemas.input(op.body) }, ...(op.multipart ? multipartFile : {}) } }
        : undefined,
      responses: writer.responses(op, schemas.output(op.response)),
    };
  }
  const sharedParameters = shareParameters(Object.values(paths).flatMap((item) => Object.values(item) as { parameters?: unknown[] }[]));
  const webhooks = webhooksSection(schemas);
  const tags = [...new Set([...list.map((op) => op.tag), WEBHOOK_EVENTS_TAG])]
    .sort()
    // A tag without a description fails the document's test and the lint, not the page.
    .map((name) => ({ name, description: tagDescriptions[name] }));
  return {
    openapi: "3.1.0",
    info: {
      title: "Mailplatform API",
      version: "1.0.0",
      description: apiDescription,
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
    },
    servers: [{ url: serverUrl }],
    security: [{ bearerAuth: [] }],
    tags,
    paths,
    webhooks,
    components: {
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
      schemas: schemas.components() as Record<string, JsonSchema>,
      responses: { ...writer.components(), ...webhookResponses },
      parameters: { ...sharedParameters, ...webhookHeaderParameters },
      headers: responseHeaders,
    },
  };
}
