import { describe, expect, it } from "vitest";
import { z } from "zod";
import { schemaCollector, UNNAMED } from "./json-schema";

describe("schemaCollector", () => {
  it("writes a named schema once and references it; a schema whose request and response forms differ twice", () => {
    const tag = z.string().max(10).meta({ id: "TestTag" });
    const item = z.object({ name: z.string(), size: z.number().default(1), tag }).meta({ id: "TestItem" });
    const holder = z.object({ items: z.array(item) }).meta({ id: "TestHolder" });
    const schemas = schemaCollector();
    const response = schemas.output(z.object({ first: item, holder }));
    const request = schemas.input(z.object({ item: item.nullable(), tag }));
    const components = schemas.components();

    expect(response.properties).toEqual({ first: { $ref: "#/components/schemas/TestItem" }, holder: { $ref: "#/components/schemas/TestHolder" } });
    // `size` has a default: required in the answer, optional in a request; so the request form has its own name.
    expect(request.properties).toEqual({
      item: { anyOf: [{ $ref: "#/components/schemas/TestItemInput" }, { type: "null" }] },
      tag: { $ref: "#/components/schemas/TestTag" },
    });
    expect(components.TestItem).toMatchObject({ required: ["name", "size", "tag"], additionalProperties: false });
    expect(components.TestItemInput).toMatchObject({ required: ["name", "tag"] });
    expect(components.TestTag).toEqual({ type: "string", maxLength: 10 });
    expect(components.TestHolder).toMatchObject({ properties: { items: { items: { $ref: "#/components/schemas/TestItem" } } } });
    expect(Object.keys(components)).toEqual(["TestHolder", "TestItem", "TestItemInput", "TestTag"]);
  });

  it("gives a schema referencing one with two forms two forms too, so each side's references stay on its side", () => {
    const inner = z.object({ n: z.number().default(0) }).meta({ id: "TestInner" });
    const outer = z.object({ inner }).meta({ id: "TestOuter" });
    const schemas = schemaCollector();
    schemas.output(outer);
    schemas.input(outer);
    const components = schemas.components();
    expect(components.TestOuter).toMatchObject({ properties: { inner: { $ref: "#/components/schemas/TestInner" } } });
    expect(components.TestOuterInput).toMatchObject({ properties: { inner: { $ref: "#/components/schemas/TestInnerInput" } } });
  });

  it("keeps a recursive schema nobody named, under a name its test refuses", () => {
    type Node = { children: Node[] };
    const node: z.ZodType<Node> = z.lazy(() => z.object({ children: z.array(node) }));
    const schemas = schemaCollector();
    schemas.output(z.object({ a: node }));
    schemas.output(z.object({ b: node }));
    const names = Object.keys(schemas.components());
    expect(names).toHaveLength(2);
    expect(names.every((name) => name.startsWith(UNNAMED))).toBe(true);
  });
});
