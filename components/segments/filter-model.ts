// The filter builder's state and its two translations: to the API's filter language (what the
// preview and the save send) and back from a saved filter. Pure, so it is tested without a browser.
import {
  BUILT_IN_EVENTS,
  CONTACT_FIELD_KINDS,
  EVENT_NAME,
  METADATA_PREFIX,
  OPS_BY_KIND,
  type EventCondition,
  type FieldKind,
  type FieldOp,
  type Filter,
  type PropertyType,
} from "@/lib/schemas/filter-language";

export type FieldDraft = { type: "field"; field: string; op: FieldOp; value: string };
export type SegmentDraft = { type: "segment"; segmentId: string; negate: boolean };
export type EventDraft = { type: "event"; event: string; happened: boolean; countGte: string; withinDays: string; broadcastId: string };
export type ConditionDraft = FieldDraft | SegmentDraft | EventDraft;

export type GroupMode = "all" | "any" | "none";
export type GroupDraft = { id: string; kind: "group"; mode: GroupMode; children: DraftNode[] };
export type ConditionNode = { id: string; kind: "condition"; condition: ConditionDraft };
export type DraftNode = GroupDraft | ConditionNode;

let counter = 0;
const nodeId = () => `n${++counter}`;

export const emptyGroup = (mode: GroupMode = "all"): GroupDraft => ({ id: nodeId(), kind: "group", mode, children: [] });
export const conditionNode = (condition: ConditionDraft): ConditionNode => ({ id: nodeId(), kind: "condition", condition });
export const newFieldCondition = (): ConditionNode => conditionNode({ type: "field", field: "email", op: "contains", value: "" });

/** What a builder chooses among: the contact's fields, the typed properties, the other metadata keys in use. */
export type FieldChoice = { value: string; label: string; kind: FieldKind; section: "Contact" | "Properties" | "Other metadata" };

const CONTACT_LABELS: Record<keyof typeof CONTACT_FIELD_KINDS, string> = {
  email: "Email",
  first_name: "First name",
  last_name: "Last name",
  subscribed: "Subscribed",
  tags: "Tags",
  created_at: "Added on",
};

export function fieldChoices(properties: { key: string; label: string; type: PropertyType }[], metadataKeys: string[]): FieldChoice[] {
  const typed = new Set(properties.map((p) => p.key));
  return [
    ...Object.entries(CONTACT_FIELD_KINDS).map(([value, kind]) => ({
      value,
      label: CONTACT_LABELS[value as keyof typeof CONTACT_LABELS],
      kind,
      section: "Contact" as const,
    })),
    ...properties.map((p) => ({ value: `${METADATA_PREFIX}${p.key}`, label: p.label, kind: p.type, section: "Properties" as const })),
    ...metadataKeys
      .filter((key) => !typed.has(key))
      .map((key) => ({ value: `${METADATA_PREFIX}${key}`, label: key, kind: "text" as const, section: "Other metadata" as const })),
  ];
}

/** A field's kind: its choice's, or free text for a metadata key not offered (a saved filter's). */
export const kindOf = (field: string, choices: FieldChoice[]): FieldKind =>
  choices.find((choice) => choice.value === field)?.kind ??
  (field in CONTACT_FIELD_KINDS ? CONTACT_FIELD_KINDS[field as keyof typeof CONTACT_FIELD_KINDS] : "text");

const WORDS: Record<FieldOp, string> = {
  eq: "is",
  neq: "is not",
  contains: "contains",
  not_contains: "does not contain",
  starts_with: "starts with",
  gt: "is greater than",
  gte: "is at least",
  lt: "is less than",
  lte: "is at most",
  exists: "is set",
  not_exists: "is empty",
  in: "is one of",
  within_days: "is in the last",
  before_days: "is more than",
};
const DATE_WORDS: Partial<Record<FieldOp, string>> = {
  eq: "is on",
  neq: "is not on",
  gt: "is after",
  gte: "is on or after",
  lt: "is before",
  lte: "is on or before",
};
const TAG_WORDS: Partial<Record<FieldOp, string>> = {
  contains: "include",
  not_contains: "do not include",
  in: "include any of",
  exists: "are not empty",
  not_exists: "are empty",
};

/** The operators of a kind, worded for people. */
export const opChoices = (kind: FieldKind) =>
  OPS_BY_KIND[kind].map((op) => ({ value: op, label: (kind === "date" ? DATE_WORDS[op] : kind === "tags" ? TAG_WORDS[op] : undefined) ?? WORDS[op] }));

/** What the value input looks like for an operator of a kind. */
export function valueInput(kind: FieldKind, op: FieldOp): "none" | "days" | "list" | "number" | "boolean" | "date" | "text" {
  if (op === "exists" || op === "not_exists") return "none";
  if (op === "within_days" || op === "before_days") return "days";
  if (op === "in") return "list";
  if (kind === "number") return "number";
  if (kind === "boolean") return "boolean";
  if (kind === "date") return "date";
  return "text";
}

export const EVENT_SUGGESTIONS = BUILT_IN_EVENTS;

const NUMBER = /^-?\d+(\.\d+)?$/;
const listItems = (text: string) =>
  text
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);

/** A condition's value as the API takes it, or undefined while it is not complete. */
function fieldValue(draft: FieldDraft, kind: FieldKind): { value?: unknown } | undefined {
  const input = valueInput(kind, draft.op);
  const text = draft.value.trim();
  switch (input) {
    case "none":
      return {};
    case "days":
      return /^\d{1,5}$/.test(text) ? { value: Number(text) } : undefined;
    case "list": {
      const items = listItems(draft.value);
      if (items.length === 0) return undefined;
      if (kind === "number") return items.every((item) => NUMBER.test(item)) ? { value: items.map(Number) } : undefined;
      return { value: items };
    }
    case "number":
      return NUMBER.test(text) ? { value: Number(text) } : undefined;
    case "boolean":
      return text === "true" || text === "false" ? { value: text === "true" } : undefined;
    case "date":
      return /^\d{4}-\d{2}-\d{2}/.test(text) ? { value: text } : undefined;
    default:
      if (!text) return undefined;
      // Free text compared in order: a number is compared as one.
      if (kind === "text" && ["gt", "gte", "lt", "lte"].includes(draft.op) && NUMBER.test(text)) return { value: Number(text) };
      return { value: draft.value };
  }
}

function conditionFilter(draft: ConditionDraft, choices: FieldChoice[]): Filter | undefined {
  if (draft.type === "segment") {
    if (!draft.segmentId) return undefined;
    return draft.negate ? { not: { in_segment: draft.segmentId } } : { in_segment: draft.segmentId };
  }
  if (draft.type === "event") {
    const event = draft.event.trim();
    if (!EVENT_NAME.test(event)) return undefined;
    const condition: EventCondition = { event, op: draft.happened ? "happened" : "not_happened" };
    for (const [key, text] of [
      ["count_gte", draft.countGte],
      ["within_days", draft.withinDays],
    ] as const) {
      if (!text.trim()) continue;
      if (!/^\d{1,5}$/.test(text.trim()) || Number(text) < 1) return undefined;
      condition[key] = Number(text);
    }
    if (draft.broadcastId) condition.where = { broadcast_id: draft.broadcastId };
    return condition;
  }
  const value = fieldValue(draft, kindOf(draft.field, choices));
  return value && ({ field: draft.field, op: draft.op, ...value } as Filter);
}

export type Translation = {
  /** The filter, or null while a condition is incomplete. */
  filter: Filter | null;
  /** Node ids of the incomplete conditions. */
  incomplete: string[];
  /** Each node's path in the filter (`filter.all.1`), to put a server's 400 on its row. */
  paths: Map<string, string>;
  conditions: number;
};

/** The builder's tree as the filter language. */
export function toFilter(root: GroupDraft, choices: FieldChoice[]): Translation {
  const incomplete: string[] = [];
  const paths = new Map<string, string>();
  let conditions = 0;
  const walk = (node: DraftNode, path: string): Filter | undefined => {
    if (node.kind === "condition") {
      conditions++;
      paths.set(path, node.id);
      const filter = conditionFilter(node.condition, choices);
      if (!filter) incomplete.push(node.id);
      return filter;
    }
    const key = node.mode === "all" ? "all" : "any";
    const inner = node.mode === "none" ? `${path}.not.any` : `${path}.${key}`;
    paths.set(path, node.id);
    const children = node.children.map((child, i) => walk(child, `${inner}.${i}`));
    const group = { [key]: children } as Filter;
    return node.mode === "none" ? { not: group } : group;
  };
  const filter = walk(root, "filter");
  return { filter: incomplete.length ? null : (filter ?? null), incomplete, paths, conditions };
}

/** The node a server's path names: the deepest node whose path starts it. */
export function nodeForPath(paths: Map<string, string>, path: string): string | undefined {
  let best: [string, string] | undefined;
  for (const [prefix, id] of paths) {
    if ((path === prefix || path.startsWith(`${prefix}.`)) && (!best || prefix.length > best[0].length)) best = [prefix, id];
  }
  return best?.[1];
}

const valueText = (value: unknown) => (Array.isArray(value) ? value.join(", ") : value === undefined ? "" : String(value));

/** A saved filter as the builder's tree; the root is always a group. */
export function fromFilter(filter: Filter | null | undefined): GroupDraft {
  const node = (f: Filter): DraftNode => {
    if ("all" in f) return { id: nodeId(), kind: "group", mode: "all", children: f.all.map(node) };
    if ("any" in f) return { id: nodeId(), kind: "group", mode: "any", children: f.any.map(node) };
    if ("not" in f) {
      if ("any" in f.not) return { id: nodeId(), kind: "group", mode: "none", children: f.not.any.map(node) };
      if ("in_segment" in f.not) return conditionNode({ type: "segment", segmentId: f.not.in_segment, negate: true });
      return { id: nodeId(), kind: "group", mode: "none", children: [node(f.not)] };
    }
    if ("in_segment" in f) return conditionNode({ type: "segment", segmentId: f.in_segment, negate: false });
    if ("event" in f) {
      return conditionNode({
        type: "event",
        event: f.event,
        happened: f.op === "happened",
        countGte: f.count_gte ? String(f.count_gte) : "",
        withinDays: f.within_days ? String(f.within_days) : "",
        broadcastId: f.where?.broadcast_id ?? "",
      });
    }
    return conditionNode({ type: "field", field: f.field, op: f.op, value: valueText(f.value) });
  };
  if (!filter) return emptyGroup();
  const root = node(filter);
  return root.kind === "group" ? root : { ...emptyGroup(), children: [root] };
}

/** A condition moved to another field or operator keeps what still fits. */
export function withField(draft: FieldDraft, field: string, choices: FieldChoice[]): FieldDraft {
  const kind = kindOf(field, choices);
  const ops = OPS_BY_KIND[kind];
  const op = ops.includes(draft.op) ? draft.op : ops[0];
  const same = kindOf(draft.field, choices) === kind;
  return { type: "field", field, op, value: same ? draft.value : kind === "boolean" ? "true" : "" };
}
