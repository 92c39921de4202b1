import { buildOpenApiDocument } from "@/lib/openapi/document";

let cached: ReturnType<typeof buildOpenApiDocument> | undefined;

// Public: the reference describes the API, it does not expose data.
export function GET() {
  cached ??= buildOpenApiDocument();
  return Response.json(cached, { headers: { "cache-control": "public, max-age=300" } });
}
