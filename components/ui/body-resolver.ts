import { set, type FieldError, type FieldErrors, type FieldValues, type Resolver } from "react-hook-form";
import type { z } from "zod";
import { formResolver } from "@/lib/client/form-resolver";

type Leaf = { path: string; error: FieldError };

function leaves(node: unknown, prefix: string, out: Leaf[]) {
  if (!node || typeof node !== "object") return out;
  const record = node as Record<string, unknown>;
  if (typeof record.type === "string" && "message" in record) {
    out.push({ path: prefix, error: { type: record.type, message: record.message as string | undefined } });
    return out;
  }
  for (const [key, value] of Object.entries(record)) leaves(value, prefix ? `${prefix}.${key}` : key, out);
  return out;
}

/**
 * A resolver for a form whose values are not the request body itself (an empty string for "none",
 * a delay as amount and unit, metadata as rows): it validates `toBody(values)` with the API's own
 * schema, so a rule lives in one place, and puts each problem on the field `fieldFor` names for its
 * body path (the same name when it returns nothing).
 */
export function bodyResolver<V extends FieldValues, S extends z.ZodType<FieldValues, FieldValues>>(
  schema: S,
  toBody: (values: V) => unknown,
  fieldFor: (path: string, values: V) => string | undefined = () => undefined,
): Resolver<V> {
  const validate = formResolver(schema);
  return async (values) => {
    const result = await validate(toBody(values) as z.input<S>, undefined, { fields: {}, shouldUseNativeValidation: false });
    const found = leaves(result.errors, "", []);
    if (!found.length) return { values, errors: {} };
    const errors: FieldErrors<V> = {};
    for (const { path, error } of found) set(errors, fieldFor(path, values) ?? path, error);
    return { values: {}, errors };
  };
}
