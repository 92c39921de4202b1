import { InlineMarkdown } from "./markdown";
import type { JsonSchema, OpenApiDocument } from "./openapi-types";

const refName = (ref: string) => ref.split("/").pop() ?? ref;

/** A reference as the schema it names, keeping its own description and the name (as `title`, for labels). */
function resolve(schema: JsonSchema, doc: OpenApiDocument): JsonSchema {
  if (!schema.$ref) return merge(schema, doc);
  const named = doc.components?.schemas?.[refName(schema.$ref)];
  return named ? merge({ title: refName(schema.$ref), ...named, description: schema.description ?? named.description }, doc) : schema;
}

/**
 * The document writes an object holding a named one's fields as `allOf: [<named>, { its own fields }]`
 * and a create's body as `allOf: [<fields>]` with more `required`: shown as one object, every field in it.
 */
function merge(schema: JsonSchema, doc: OpenApiDocument): JsonSchema {
  if (!schema.allOf) return schema;
  const { allOf, ...own } = schema;
  const parts = allOf.map((part) => resolve(part, doc));
  return {
    ...own,
    type: "object",
    description: own.description ?? parts.find((part) => part.description)?.description,
    properties: Object.assign({}, ...parts.map((part) => part.properties ?? {}), own.properties ?? {}),
    required: [...new Set([...parts.flatMap((part) => part.required ?? []), ...(own.required ?? [])])],
  };
}

/** Zod's nullable comes out as anyOf [X, null]; shown as X with a "nullable" mark. */
function unwrap(raw: JsonSchema, doc: OpenApiDocument): { schema: JsonSchema; nullable: boolean } {
  const schema = resolve(raw, doc);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) {
    const rest = variants.filter((v) => v.type !== "null");
    if (rest.length < variants.length && rest.length === 1) {
      return { schema: { ...resolve(rest[0], doc), description: schema.description ?? rest[0].description }, nullable: true };
    }
  }
  if (Array.isArray(schema.type) && schema.type.includes("null")) {
    const types = schema.type.filter((t) => t !== "null");
    return { schema: { ...schema, type: types.length === 1 ? types[0] : types }, nullable: true };
  }
  return { schema, nullable: false };
}

function typeLabel(raw: JsonSchema, doc: OpenApiDocument): string {
  if (raw.$ref && !doc.components?.schemas?.[refName(raw.$ref)]) return refName(raw.$ref);
  const { schema } = unwrap(raw, doc);
  // A named record is shown by its name (Broadcast, Contact…); named scalars (Uuid, DateTime) by their type.
  if (schema.title && schema.properties) return schema.title;
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return variants.map((v) => typeLabel(v, doc)).join(" | ");
  const type = Array.isArray(schema.type) ? schema.type.join(" | ") : schema.type;
  if (type === "array") return `array of ${schema.items ? typeLabel(schema.items, doc) : "any"}`;
  if (type === "object" && !schema.properties && typeof schema.additionalProperties === "object") {
    return `map of ${typeLabel(schema.additionalProperties, doc)}`;
  }
  if (!type) return schema.properties ? "object" : "any";
  return schema.format ? `${type} (${schema.format})` : type;
}

function constraints(schema: JsonSchema): string[] {
  const list: string[] = [];
  if (schema.minLength !== undefined && schema.maxLength !== undefined) list.push(`${schema.minLength}–${schema.maxLength} characters`);
  else if (schema.maxLength !== undefined) list.push(`at most ${schema.maxLength.toLocaleString("en")} characters`);
  else if (schema.minLength !== undefined) list.push(`at least ${schema.minLength} characters`);
  const min = schema.minimum ?? schema.exclusiveMinimum;
  const max = schema.maximum ?? schema.exclusiveMaximum;
  if (min !== undefined && max !== undefined) list.push(`${min} to ${max.toLocaleString("en")}`);
  else if (min !== undefined) list.push(`${schema.exclusiveMinimum !== undefined ? ">" : "≥"} ${min}`);
  else if (max !== undefined) list.push(`${schema.exclusiveMaximum !== undefined ? "<" : "≤"} ${max.toLocaleString("en")}`);
  if (schema.minItems !== undefined && schema.maxItems !== undefined) list.push(`${schema.minItems}–${schema.maxItems.toLocaleString("en")} items`);
  else if (schema.maxItems !== undefined) list.push(`at most ${schema.maxItems.toLocaleString("en")} items`);
  else if (schema.minItems !== undefined) list.push(`at least ${schema.minItems} items`);
  if (schema.default !== undefined) list.push(`default ${JSON.stringify(schema.default)}`);
  return list;
}

/** The object whose fields a schema exposes: itself, its array items, or the first object variant. */
function fieldsOf(raw: JsonSchema, doc: OpenApiDocument): JsonSchema | null {
  const { schema } = unwrap(raw, doc);
  if (schema.properties && Object.keys(schema.properties).length) return schema;
  if (schema.items) return fieldsOf(schema.items, doc);
  const variants = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  for (const variant of variants ?? []) {
    const found = fieldsOf(variant, doc);
    if (found) return found;
  }
  return null;
}

function Field({ name, raw, required, doc, depth }: { name: string; raw: JsonSchema; required: boolean; doc: OpenApiDocument; depth: number }) {
  const { schema, nullable } = unwrap(raw, doc);
  const nested = depth < 6 ? fieldsOf(schema, doc) : null;
  const enumValues = schema.enum ?? (schema.items ? unwrap(schema.items, doc).schema.enum : undefined);
  const limits = constraints(schema);
  return (
    <li className="py-3">
      <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
        <code className="font-mono text-[13px] font-semibold text-zinc-900">{name}</code>
        <span className="font-mono text-xs text-zinc-500">{typeLabel(schema, doc)}</span>
        {nullable && <span className="text-xs text-zinc-400">nullable</span>}
        {required ? <span className="text-xs font-medium text-amber-700">required</span> : null}
      </div>
      {schema.description && (
        <p className="mt-1 text-[13px] leading-relaxed text-zinc-600">
          <InlineMarkdown text={schema.description} />
        </p>
      )}
      {(enumValues?.length || limits.length > 0) && (
        <div className="mt-1.5 flex flex-wrap items-center gap-1.5 text-xs text-zinc-500">
          {enumValues?.length ? <span>One of</span> : null}
          {enumValues?.map((value) => (
            <code key={String(value)} className="rounded border border-zinc-200 bg-zinc-50 px-1.5 py-px font-mono text-[11px] text-zinc-700">
              {String(value)}
            </code>
          ))}
          {limits.map((limit) => (
            <span key={limit} className="rounded bg-zinc-100 px-1.5 py-px">
              {limit}
            </span>
          ))}
        </div>
      )}
      {nested && (
        <details className="group mt-2">
          <summary className="inline-flex cursor-pointer list-none items-center gap-1 rounded text-xs font-medium text-brand-600 select-none hover:text-brand-700 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none">
            <span className="transition-transform group-open:rotate-90" aria-hidden>
              ›
            </span>
            <span className="group-open:hidden">Show {Object.keys(nested.properties ?? {}).length} fields</span>
            <span className="hidden group-open:inline">Hide fields</span>
          </summary>
          <div className="mt-2 rounded-lg border border-zinc-200 px-3">
            <FieldList schema={nested} doc={doc} depth={depth + 1} />
          </div>
        </details>
      )}
    </li>
  );
}

function FieldList({ schema, doc, depth }: { schema: JsonSchema; doc: OpenApiDocument; depth: number }) {
  const required = new Set(schema.required ?? []);
  return (
    <ul className="divide-y divide-zinc-100">
      {Object.entries(schema.properties ?? {}).map(([name, child]) => (
        <Field key={name} name={name} raw={child} required={required.has(name)} doc={doc} depth={depth} />
      ))}
    </ul>
  );
}

/** A JSON schema as a readable list of fields, nested objects behind a disclosure. */
export function SchemaView({ schema, doc }: { schema: JsonSchema; doc: OpenApiDocument }) {
  const { schema: top } = unwrap(schema, doc);
  const fields = fieldsOf(top, doc);
  const label = typeLabel(schema, doc);
  if (!fields) {
    return <p className="font-mono text-xs text-zinc-500">{label}</p>;
  }
  return (
    <div>
      {fields !== top && <p className="mb-1 font-mono text-xs text-zinc-500">{label}</p>}
      <FieldList schema={fields} doc={doc} depth={0} />
    </div>
  );
}
