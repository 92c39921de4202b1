import type { z } from "zod";
import type { AnyOperation } from "@/lib/api/operation";
import type { JsonSchema, schemaCollector } from "./json-schema";

type Parameter = { name: string; in: "path" | "query"; required?: true; description?: string; schema: JsonSchema };

/** An operation's path and query parameters, from its params, query and paging schemas. */
export function operationParameters(op: AnyOperation, schemas: ReturnType<typeof schemaCollector>): Parameter[] {
  const list: Parameter[] = [];
  const add = (where: "path" | "query", shape: Record<string, z.ZodType> | undefined) => {
    for (const [name, schema] of Object.entries(shape ?? {})) {
      const json = schemas.input(schema);
      const description = typeof json.description === "string" ? json.description : undefined;
      delete json.description;
      // `required` is false unless said, as OpenAPI reads it.
      const required = where === "path" || !schema.safeParse(undefined).success ? (true as const) : undefined;
      list.push({ name, in: where, required, description, schema: json });
    }
  };
  add("path", (op.params as z.ZodObject | undefined)?.shape);
  add("query", (op.query as z.ZodObject | undefined)?.shape);
  add("query", op.pageQuery?.shape);
  return list;
}

const pascal = (name: string) => name.replace(/(^|[_-])(\w)/g, (_, __, letter: string) => letter.toUpperCase());

/**
 * Parameters written alike by several operations (the `id` of a path, a list's `limit`, `after`
 * and `before`) are moved to `components/parameters` and referenced, named after the parameter
 * (`Id`, `Limit`; `Limit2` for a second, different `limit`, in the order operations are listed).
 */
export function shareParameters(operations: { parameters?: unknown[] }[]): Record<string, unknown> {
  const key = (parameter: unknown) => JSON.stringify(parameter);
  const count = new Map<string, number>();
  for (const op of operations) for (const parameter of op.parameters ?? []) count.set(key(parameter), (count.get(key(parameter)) ?? 0) + 1);
  const names = new Map<string, string>();
  const shared: Record<string, unknown> = {};
  for (const op of operations) {
    op.parameters = op.parameters?.map((parameter) => {
      const json = key(parameter);
      if ((count.get(json) ?? 0) < 2) return parameter;
      let name = names.get(json);
      if (!name) {
        const base = pascal((parameter as Parameter).name);
        name = base;
        for (let n = 2; name in shared; n++) name = `${base}${n}`;
        names.set(json, name);
        shared[name] = parameter;
      }
      return { $ref: `#/components/parameters/${name}` };
    });
  }
  return shared;
}
