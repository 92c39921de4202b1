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
    expect(components.TestItem).toMatchObject({ required: ["name", "size", "tag"] });
    expect(components.TestItemInput).toMatchObject({ required: ["name", "tag"] });
    // Answers may gain fields: their objects are not closed, so TestHolder's two forms are one.
    expect(components.TestItem).not.toHaveProperty("additionalProperties");
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

  it("drops zod's safe-integer bounds and writes a nullable scalar as a type with null", () => {
    const schemas = schemaCollector();
    const json = schemas.output(
      z.object({ n: z.number().int(), m: z.number().int().nullable(), s: z.string().max(5).nullable(), e: z.enum(["a"]).nullable() }),
    );
    expect(json.properties).toEqual({
      n: { type: "integer" },
      m: { type: ["integer", "null"] },
      s: { type: ["string", "null"], maxLength: 5 },
      // An enum would need null among its values: left as zod writes it.
      e: { anyOf: [{ type: "string", enum: ["a"] }, { type: "null" }] },
    });
  });

  it("writes a request body that is a named request schema with more fields required as a reference plus required", () => {
    const fields = z.object({ name: z.string(), note: z.string() });
    const update = fields.partial().meta({ id: "TestFields" });
    const create = fields.partial().extend({ name: fields.shape.name });
    const schemas = schemaCollector();
    const updateBody = schemas.input(update);
    const createBody = schemas.input(create);
    const sameBody = schemas.input(fields.partial());
    const components = schemas.components();
    expect(updateBody).toEqual({ $ref: "#/components/schemas/TestFields" });
    expect(createBody).toEqual({ allOf: [{ $ref: "#/components/schemas/TestFields" }], required: ["name"] });
    expect(sameBody).toEqual({ $ref: "#/components/schemas/TestFields" });
    expect(components.TestFields).toEqual({ type: "object", properties: { name: { type: "string" }, note: { type: "string" } } });
  });

  it("writes an object holding every field of a named object as allOf, the named one and its own fields", () => {
    const base = z.object({ a: z.string(), b: z.string(), c: z.string() }).meta({ id: "TestBase" });
    const schemas = schemaCollector();
    const json = schemas.output(z.object({ wide: base.extend({ d: z.number() }), small: z.object({ a: z.string(), b: z.string() }), base }));
    schemas.components();
    expect(json.properties).toEqual({
      wide: { allOf: [{ $ref: "#/components/schemas/TestBase" }, { type: "object", properties: { d: { type: "number" } }, required: ["d"] }] },
      // Not all of the named fields: written as it is.
      small: { type: "object", properties: { a: { type: "string" }, b: { type: "string" } }, required: ["a", "b"] },
      base: { $ref: "#/components/schemas/TestBase" },
    });
  });

  it("refers to <id>OrNull for a named schema nullable in five places or more, keeping a description beside it", () => {
    const when = z.string().meta({ id: "TestWhen" });
    const schemas = schemaCollector();
    const many = schemas.output(
      z.object({ a: when.nullable(), b: when.nullable(), c: when.nullable(), d: when.nullable(), e: when.nullable().meta({ description: "E." }) }),
    );
    const once = z.number().meta({ id: "TestOnce" });
    const few = schemas.output(z.object({ a: once.nullable() }));
    const components = schemas.components();
    expect(many.properties).toMatchObject({
      a: { $ref: "#/components/schemas/TestWhenOrNull" },
      e: { $ref: "#/components/schemas/TestWhenOrNull", description: "E." },
    });
    expect(components.TestWhenOrNull).toEqual({ anyOf: [{ $ref: "#/components/schemas/TestWhen" }, { type: "null" }] });
    expect(few.properties).toEqual({ a: { anyOf: [{ $ref: "#/components/schemas/TestOnce" }, { type: "null" }] } });
  });
});
