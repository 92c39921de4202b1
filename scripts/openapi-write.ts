import { writeFileSync } from "node:fs";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { COMMITTED_DEPTH, documentText } from "@/lib/openapi/document-text";

/**
 * Writes the OpenAPI document the code describes (`npm run openapi:write`): the SDK is generated
 * from it and Redocly lints it. The server is relative (`/`, where the document is served from), so
 * the file is the same on every machine and lists no one's host.
 */
const out = process.argv[2] ?? "sdk/openapi.json";
writeFileSync(out, documentText(buildOpenApiDocument(undefined, { serverUrl: "/" }), COMMITTED_DEPTH));
console.log(`wrote ${out}`);
