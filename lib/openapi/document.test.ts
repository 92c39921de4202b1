import { describe, expect, it } from "vitest";
import { operations } from "@/lib/api/operations";
import { GET } from "@/app/v1/openapi.json/route";

describe("OpenAPI document", () => {
  it("is OpenAPI 3.1 at version 1.0.0 with every operation, bearer JWT security and the error bodies", async () => {
    const response = GET();
    expect(response.status).toBe(200);
    const doc = await response.json();
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("1.0.0");
    expect(doc.components.securitySchemes.bearerAuth).toEqual({ type: "http", scheme: "bearer", bearerFormat: "JWT" });
    for (const op of operations) {
      const entry = doc.paths[op.path]?.[op.method.toLowerCase()];
      expect(entry, `${op.method} ${op.path}`).toBeDefined();
      expect(entry.responses[String(op.status ?? 200)]).toBeDefined();
      expect(entry.responses["401"]).toBeDefined();
      if (op.body) expect(entry.requestBody.content["application/json"].schema).toBeTypeOf("object");
      if (op.page) expect(entry.responses["422"].content["application/json"].schema.$ref).toBe("#/components/schemas/PaginationError");
      for (const name of op.path.match(/\{(\w+)\}/g) ?? []) {
        expect(
          entry.parameters.some((p: { name: string; in: string }) => p.in === "path" && `{${p.name}}` === name),
          `${op.path} ${name}`,
        ).toBe(true);
      }
    }
    const ids = operations.map((op) => doc.paths[op.path][op.method.toLowerCase()].operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
