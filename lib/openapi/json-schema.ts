import { z } from "zod";
import { DEFS, type Io, type JsonSchema, rewriteRefs, tidy } from "./schema-walk";
import { type Defs, type Roots, shareExtendedObjects, shareNullables, shareRequestFields } from "./schema-sharing";

export type { JsonSchema } from "./schema-walk";

const COMPONENTS = "#/components/schemas/";
/** The prefix of a recursive schema nobody named. */
export const UNNAMED = "Unnamed";

/**
 * Turns zod schemas into the JSON Schemas of one OpenAPI document. A schema named in zod's global
 * registry where it is declared — `z.object({ … }).meta({ id: "Segment" })`, or for a schema that
 * spans many lines the line after it, `broadcast.register(z.globalRegistry, { id: "Broadcast" })`
 * (same registry, and a diff of one line) — is written once under `components/schemas` and
 * referenced everywhere else. A new operation using named schemas needs nothing here.
 *
 * zod writes a schema's input (request) and output (response) forms apart: fields with defaults are
 * required in responses, optional in requests (and a transform's two sides differ). A named schema
 * whose two forms differ is written twice, the input form as `<id>Input`; otherwise once.
 */
export function schemaCollector() {
  const defs: Defs = { input: new Map(), output: new Map() };
  const roots: Roots = [];
  let unnamed = 0;

  function convert(schema: z.ZodType, io: Io): JsonSchema {
    const json = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as JsonSchema;
    // The document declares the dialect once; per-schema $schema keys are noise in OpenAPI 3.1.
    delete json.$schema;
    tidy(json, io);
    const found = (json.$defs ?? {}) as Record<string, JsonSchema>;
    delete json.$defs;
    // zod calls a recursive schema without an id `__schema0` in each conversion: made unique here so
    // the document stays whole, and refused by its test (such a schema needs .meta({ id })).
    const renamed = new Map(Object.keys(found).flatMap((id) => (id.startsWith("__") ? [[id, `${UNNAMED}${++unnamed}`] as const] : [])));
    if (renamed.size > 0) {
      const rename = (ref: string) => (ref.startsWith(DEFS) && renamed.has(ref.slice(DEFS.length)) ? DEFS + renamed.get(ref.slice(DEFS.length)) : ref);
      rewriteRefs(json, rename);
      rewriteRefs(found, rename);
    }
    for (const [given, def] of Object.entries(found)) {
      const id = renamed.get(given) ?? given;
      const known = defs[io].get(id);
      if (known && JSON.stringify(known) !== JSON.stringify(def)) throw new Error(`Two different schemas are named ${id}`);
      defs[io].set(id, def);
    }
    roots.push({ json, io });
    return json;
  }

  /**
   * The named schemas written in two forms: those whose input and output JSON differ, then, until
   * nothing changes, those referencing one of them (a reference must lead to the form of its side).
   */
  function twoForms(): Set<string> {
    const refsOf = (json: JsonSchema | undefined) => {
      const refs: string[] = [];
      rewriteRefs(json, (ref) => (refs.push(ref), ref));
      return refs.filter((ref) => ref.startsWith(DEFS)).map((ref) => ref.slice(DEFS.length));
    };
    const both = [...defs.input.keys()].filter((id) => defs.output.has(id));
    const differ = new Set(both.filter((id) => JSON.stringify(defs.input.get(id)) !== JSON.stringify(defs.output.get(id))));
    for (let grew = true; grew;) {
      grew = false;
      for (const id of both) {
        if (differ.has(id) || !refsOf(defs.input.get(id)).some((ref) => differ.has(ref))) continue;
        differ.add(id);
        grew = true;
      }
    }
    return differ;
  }

  /** Points every reference at `components/schemas` and answers that section, sorted by name; call it last. */
  function components(): Record<string, JsonSchema> {
    // Written once where zod writes the same fields many times (lib/openapi/schema-sharing.ts).
    shareRequestFields(defs, roots);
    shareExtendedObjects(defs, roots);
    shareNullables(defs, roots);
    const differ = twoForms();
    const nameOf = (id: string, io: Io) => (io === "input" && differ.has(id) ? `${id}Input` : id);
    const written: Record<string, JsonSchema> = {};
    const place = (io: Io) => (ref: string) => (ref.startsWith(DEFS) ? COMPONENTS + nameOf(ref.slice(DEFS.length), io) : ref);
    for (const io of ["output", "input"] as const) {
      for (const [id, def] of defs[io]) {
        rewriteRefs(def, place(io));
        written[nameOf(id, io)] = def;
      }
    }
    for (const { json, io } of roots) rewriteRefs(json, place(io));
    return Object.fromEntries(Object.entries(written).sort(([a], [b]) => a.localeCompare(b)));
  }

  return { input: (schema: z.ZodType) => convert(schema, "input"), output: (schema: z.ZodType) => convert(schema, "output"), components };
}
