/**
 * The filter language of dynamic segments, the contacts list (`?filter=`) and automations
 * (decisions.md, "The living audience"): groups `{ all }`, `{ any }`, `{ not }` around conditions on
 * a contact's fields, tags and metadata, segment membership and events. Compiled to SQL by
 * lib/audience; its zod schema is ./filters.ts. Pure and without zod, so the dashboard's builder
 * imports it without carrying zod into its pages.
 */

export const FIELD_OPS = [
  "eq",
  "neq",
  "contains",
  "not_contains",
  "starts_with",
  "gt",
  "gte",
  "lt",
  "lte",
  "exists",
  "not_exists",
  "in",
  "within_days",
  "before_days",
] as const;
export type FieldOp = (typeof FIELD_OPS)[number];

export const PROPERTY_TYPES = ["string", "number", "boolean", "date"] as const;
export type PropertyType = (typeof PROPERTY_TYPES)[number];

/** How a field compares: a typed property's type, `text` for an untyped metadata key (free text, as before types), `tags`. */
export type FieldKind = PropertyType | "text" | "tags";

/** The contact's own fields a condition may name, besides `metadata.<key>`. */
export const CONTACT_FIELD_KINDS = {
  email: "string",
  first_name: "string",
  last_name: "string",
  subscribed: "boolean",
  tags: "tags",
  created_at: "date",
} as const satisfies Record<string, FieldKind>;

const ordered = ["gt", "gte", "lt", "lte"] as const;
const presence = ["exists", "not_exists"] as const;

/** The operators each kind of field takes; anything else is a 400 naming the condition's `op`. */
export const OPS_BY_KIND: Record<FieldKind, readonly FieldOp[]> = {
  string: ["eq", "neq", "contains", "not_contains", "starts_with", "in", ...presence],
  // Untyped keys hold whatever was written: numbers compare as numbers when the value is one.
  text: ["eq", "neq", "contains", "not_contains", "starts_with", "in", ...ordered, ...presence],
  number: ["eq", "neq", "in", ...ordered, ...presence],
  boolean: ["eq", "neq", ...presence],
  date: ["eq", "neq", ...ordered, "within_days", "before_days", ...presence],
  tags: ["contains", "not_contains", "in", ...presence],
};

export const METADATA_PREFIX = "metadata.";
export const MAX_FILTER_DEPTH = 5;
export const MAX_FILTER_CONDITIONS = 50;
export const MAX_IN_VALUES = 100;
/** `within_days`, `before_days`: up to a hundred years. */
export const MAX_DAYS = 36_500;
export const MAX_COUNT_GTE = 1_000;

/** Event names: 1..100 of letters, digits, `_ . : -` (decisions.md). */
export const EVENT_NAME = /^[A-Za-z0-9_.:-]{1,100}$/;
export const RESERVED_EVENT_PREFIXES = ["email.", "contact.", "automation."] as const;
export const BUILT_IN_EVENTS = [
  "contact.created",
  "contact.updated",
  "contact.subscribed",
  "contact.unsubscribed",
  "contact.topic_subscribed",
  "contact.topic_unsubscribed",
  "form.submitted",
  "email.sent",
  "email.delivered",
  "email.opened",
  "email.clicked",
  "email.bounced",
  "email.complained",
  "email.replied",
] as const;

export type Scalar = string | number | boolean;
export type FilterValue = Scalar | Scalar[];
export type FieldCondition = { field: string; op: FieldOp; value?: FilterValue };
export type SegmentCondition = { in_segment: string };
export type EventCondition = {
  event: string;
  op: "happened" | "not_happened";
  within_days?: number;
  count_gte?: number;
  where?: { broadcast_id?: string; automation_id?: string };
};
export type Filter = { all: Filter[] } | { any: Filter[] } | { not: Filter } | FieldCondition | SegmentCondition | EventCondition;
