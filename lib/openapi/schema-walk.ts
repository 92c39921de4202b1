/** The JSON Schema of one zod schema, as z.toJSONSchema writes it and the document holds it. */
export type JsonSchema = Record<string, unknown>;
/** A request body or parameter (zod's input form) or an answer (its output form). */
export type Io = "input" | "output";
/** Where zod's references to named schemas lead until the document places them under components. */
export const DEFS = "#/$defs/";

/** Calls `visit` on every object of a JSON value (a schema and each schema inside it), parents first. */
export function eachObject(value: unknown, visit: (record: JsonSchema) => void): void {
  if (Array.isArray(value)) for (const item of value) eachObject(item, visit);
  else if (value && typeof value === "object") {
    visit(value as JsonSchema);
    for (const child of Object.values(value)) eachObject(child, visit);
  }
}

/** Every `$ref` string in a JSON value, rewritten in place. */
export const rewriteRefs = (value: unknown, rewrite: (ref: string) => string) =>
  eachObject(value, (record) => {
    if (typeof record.$ref === "string") record.$ref = rewrite(record.$ref);
  });

/** The scalar of `{ anyOf: [<scalar>, { type: "null" }] }`, when it can take null in its own `type`. */
function nullableScalar(record: JsonSchema): JsonSchema | undefined {
  const options = record.anyOf;
  if (!Array.isArray(options) || options.length !== 2) return undefined;
  const [scalar, none] = options as JsonSchema[];
  const plain = ["string", "integer", "number", "boolean"].includes(scalar.type as string) && !("enum" in scalar) && !("const" in scalar);
  const clash = Object.keys(scalar).some((key) => key in record && key !== "anyOf");
  return plain && !clash && JSON.stringify(none) === '{"type":"null"}' ? scalar : undefined;
}

/**
 * What zod writes that tells a client nothing, taken out of a converted schema in one walk:
 * - the bounds of a safe integer on every `.int()` (±9007199254740991; JSON numbers past them lose
 *   precision anyway): 6.6 KB of the document. A schema's own bounds stay.
 * - `additionalProperties: false` on the objects of answers (zod's output form of a stripping
 *   object). An answer may gain fields without a new version, so a client must not refuse them;
 *   and without it the request and answer forms of most named schemas are the same JSON, written
 *   once (the editor's document, sending windows, A/B tests: 12 KB of `…Input` copies).
 * - `anyOf: [{ type: "string", … }, { type: "null" }]` for a nullable scalar, written as OpenAPI
 *   3.1's `type: ["string", "null"]` beside the same keywords (an enum or const would need null
 *   among its values, so those keep the anyOf).
 */
export function tidy(json: JsonSchema, io: Io): void {
  eachObject(json, (record) => {
    const nullable = nullableScalar(record);
    if (nullable) {
      delete record.anyOf;
      Object.assign(record, { ...nullable, type: [nullable.type, "null"] });
    }
    if ([record.type].flat().includes("integer")) {
      if (record.minimum === Number.MIN_SAFE_INTEGER) delete record.minimum;
      if (record.maximum === Number.MAX_SAFE_INTEGER) delete record.maximum;
    }
    if (io === "output" && record.additionalProperties === false && record.type === "object") delete record.additionalProperties;
  });
}
