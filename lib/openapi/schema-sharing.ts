import { DEFS, eachObject, type Io, type JsonSchema } from "./schema-walk";

/**
 * Passes over every converted schema of the document, before references are placed: each writes
 * once what zod writes many times, changing the schemas in place (the roots are already in the
 * document). Each keeps the JSON Schema's meaning and openapi-typescript's types.
 */

/** The named schemas of each side, by id, as zod wrote them. */
export type Defs = Record<Io, Map<string, JsonSchema>>;
/** Every converted schema (a body, a parameter, an answer) with its side. */
export type Roots = { json: JsonSchema; io: Io }[];

/** The fewest fields a named object must have for others holding them to reference it. */
const MIN_BASE_FIELDS = 3;
/** The fewest nullable uses of a named schema that make a `<id>OrNull` schema worth its own entry. */
const MIN_NULLABLE_USES = 5;

/**
 * A request schema written like a named one — the same fields, perhaps more of them required (a
 * create beside its update: `fields.partial().extend({ name })` beside `fields.partial()`, named)
 * — becomes a reference to it, plus `required` where it requires more (openapi-typescript:
 * `WithRequired<BroadcastFields, "name" | "subject">`), so the fields are written once. Changed
 * in place: the root is already in the document.
 */
export function shareRequestFields(defs: Defs, roots: Roots): void {
  // The fields and their rules, whatever is required and however it is described.
  const shape = (json: JsonSchema) => JSON.stringify({ ...json, required: undefined, description: undefined });
  const requiredOf = (json: JsonSchema) => (Array.isArray(json.required) ? (json.required as string[]) : []);
  const named = [...defs.input].filter(([, def]) => def.type === "object" && def.properties).map(([id, def]) => ({ id, def, shape: shape(def) }));
  for (const { json, io } of roots) {
    if (io !== "input" || json.type !== "object") continue;
    const required = requiredOf(json);
    const key = shape(json);
    const base = named.find((n) => n.shape === key && requiredOf(n.def).every((field) => required.includes(field)));
    if (!base) continue;
    const { description } = json;
    for (const field of Object.keys(json)) delete json[field];
    const more = required.length > requiredOf(base.def).length;
    Object.assign(json, more ? { allOf: [{ $ref: DEFS + base.id }], required } : { $ref: DEFS + base.id });
    if (description !== undefined && description !== base.def.description) json.description = description;
  }
}

/**
 * An object holding every field of a named object (zod's `.extend()` of a named schema: each
 * `email.*` event's data extends EmailEventData, a domain's verification extends Domain) is written
 * as `allOf: [<the named one>, { the other fields }]` (openapi-typescript: `EmailEventData & { … }`),
 * so the named fields are written once. The named object with the most fields wins; one of fewer
 * than MIN_BASE_FIELDS fields is not worth a reference. Same side only: a request's objects extend
 * request forms.
 */
export function shareExtendedObjects(defs: Defs, roots: Roots): void {
  const plain = (json: JsonSchema) =>
    json.type === "object" && !!json.properties && Object.keys(json).every((key) => ["type", "properties", "required", "description"].includes(key));
  const fieldsOf = (json: JsonSchema) => json.properties as Record<string, JsonSchema>;
  const requiredOf = (json: JsonSchema) => (Array.isArray(json.required) ? (json.required as string[]) : []);
  for (const io of ["output", "input"] as const) {
    const bases = [...defs[io]]
      .filter(([, def]) => plain(def) && Object.keys(fieldsOf(def)).length >= MIN_BASE_FIELDS)
      .map(([id, def]) => ({ id, def, fields: Object.entries(fieldsOf(def)).map(([name, field]) => [name, JSON.stringify(field)] as const) }))
      .sort((a, b) => b.fields.length - a.fields.length);
    const extend = (json: JsonSchema) => {
      if (!plain(json)) return;
      const fields = fieldsOf(json);
      const required = requiredOf(json);
      const base = bases.find(
        ({ def, fields: named }) =>
          def !== json &&
          named.length < Object.keys(fields).length &&
          named.every(([name, field]) => name in fields && JSON.stringify(fields[name]) === field) &&
          requiredOf(def).every((name) => required.includes(name)),
      );
      if (!base) return;
      const own = Object.fromEntries(Object.entries(fields).filter(([name]) => !(name in fieldsOf(base.def))));
      const ownRequired = required.filter((name) => name in own);
      const { description } = json;
      for (const key of Object.keys(json)) delete json[key];
      const extension = { type: "object", properties: own, ...(ownRequired.length ? { required: ownRequired } : {}) };
      Object.assign(json, { allOf: [{ $ref: DEFS + base.id }, extension] }, description === undefined ? {} : { description });
    };
    for (const def of defs[io].values()) eachObject(def, extend);
    for (const root of roots) if (root.io === io) eachObject(root.json, extend);
  }
}

/**
 * zod's `.nullable()` of a named schema is `anyOf: [<it>, { type: "null" }]`, written 50 times for
 * Uuid and 37 for DateTime. A named schema nullable in MIN_NULLABLE_USES places or more gets a
 * `<id>OrNull` schema (named here, as `<id>Input` is), referenced instead: 20 bytes less each time,
 * and openapi-typescript still answers `Uuid | null`. A description beside the anyOf stays beside
 * the reference.
 */
export function shareNullables(defs: Defs, roots: Roots): void {
  const nullableOf = (json: JsonSchema) => {
    const options = json.anyOf as JsonSchema[] | undefined;
    if (!Array.isArray(options) || options.length !== 2) return undefined;
    const [named, none] = options;
    const plainRef = typeof named.$ref === "string" && Object.keys(named).length === 1 && named.$ref.startsWith(DEFS);
    return plainRef && JSON.stringify(none) === '{"type":"null"}' ? (named.$ref as string).slice(DEFS.length) : undefined;
  };
  const found: { json: JsonSchema; io: Io; id: string }[] = [];
  for (const io of ["output", "input"] as const) {
    const collect = (json: JsonSchema) => {
      const id = nullableOf(json);
      if (id) found.push({ json, io, id });
    };
    for (const def of defs[io].values()) eachObject(def, collect);
    for (const root of roots) if (root.io === io) eachObject(root.json, collect);
  }
  const uses = new Map<string, number>();
  for (const { id } of found) uses.set(id, (uses.get(id) ?? 0) + 1);
  // A name declared in zod is never taken over.
  const declared = new Set([...defs.input.keys(), ...defs.output.keys()]);
  for (const { json, io, id } of found) {
    const name = `${id}OrNull`;
    if ((uses.get(id) ?? 0) < MIN_NULLABLE_USES || declared.has(name)) continue;
    defs[io].set(name, { anyOf: [{ $ref: DEFS + id }, { type: "null" }] });
    delete json.anyOf;
    json.$ref = DEFS + name;
  }
}
