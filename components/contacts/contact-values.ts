import type { ContactRecord, CreateContactInput } from "@/lib/schemas/contacts";
import type { PropertyType } from "@/lib/schemas/filter-language";

type MetaKind = "string" | "number" | "boolean";

/** The organization's typed keys (Settings → Properties): a row under one is sent as its type. */
export type PropertyTypes = ReadonlyMap<string, PropertyType>;

/** One metadata entry as the form edits it: text, remembering the type it was loaded with. */
export type MetaRow = { key: string; value: string; kind: MetaKind };

export type ContactValues = {
  email: string;
  first_name: string;
  last_name: string;
  subscribed: boolean;
  tags: string[];
  /** "" for the organization's. */
  timezone: string;
  meta_rows: MetaRow[];
};

export const contactFields = ["email", "first_name", "last_name", "subscribed", "tags", "timezone", "meta_rows"] as const;

export const emptyContact: ContactValues = { email: "", first_name: "", last_name: "", subscribed: true, tags: [], timezone: "", meta_rows: [] };

export function toContactValues(c: ContactRecord): ContactValues {
  return {
    email: c.email,
    first_name: c.first_name ?? "",
    last_name: c.last_name ?? "",
    subscribed: c.subscribed,
    tags: c.tags,
    timezone: c.timezone ?? "",
    meta_rows: Object.entries(c.metadata).map(([key, value]) => ({ key, value: String(value), kind: typeof value as MetaKind })),
  };
}

// A number or boolean that was loaded as one, or whose key is typed so, stays one while its text
// still reads as one; otherwise the text goes as it is, and the server names the row if it must not.
function typed(row: MetaRow, types: PropertyTypes): string | number | boolean {
  const kind = types.get(row.key.trim()) ?? row.kind;
  if (kind === "number" && row.value.trim() !== "" && Number.isFinite(Number(row.value))) return Number(row.value);
  if (kind === "boolean" && (row.value === "true" || row.value === "false")) return row.value === "true";
  return kind === "date" ? row.value.trim() : row.value;
}

const orNull = (value: string) => (value.trim() === "" ? null : value);

/** The contact as POST/PUT /v1/contacts take it; rows without a key are left out. */
export function toContactBody(v: ContactValues, types: PropertyTypes = new Map()): CreateContactInput {
  return {
    email: v.email,
    first_name: orNull(v.first_name),
    last_name: orNull(v.last_name),
    subscribed: v.subscribed,
    tags: v.tags,
    timezone: orNull(v.timezone),
    metadata: Object.fromEntries(v.meta_rows.filter((row) => row.key.trim() !== "").map((row) => [row.key.trim(), typed(row, types)])),
  };
}

/** Where a body problem shows: `metadata.plan` on the value of the row named plan. */
export function contactFieldFor(path: string, values: ContactValues): string | undefined {
  if (!path.startsWith("metadata")) return undefined;
  const key = path.slice("metadata.".length);
  const index = values.meta_rows.findIndex((row) => row.key.trim() === key);
  return index >= 0 ? `meta_rows.${index}.value` : "meta_rows";
}
