import type { Metadata } from "next";
import { ApiReference } from "@/components/api-reference/api-reference";
import type { OpenApiDocument } from "@/components/api-reference/openapi-types";
import { buildOpenApiDocument } from "@/lib/openapi/document";

export const metadata: Metadata = { title: "API reference" };

export default function ApiReferencePage() {
  return <ApiReference doc={buildOpenApiDocument() as OpenApiDocument} />;
}
