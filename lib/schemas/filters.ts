import { z } from "zod";
import { id, limits } from "./common";
import {
  BUILT_IN_EVENTS,
  CONTACT_FIELD_KINDS,
  EVENT_NAME,
  FIELD_OPS,
  MAX_COUNT_GTE,
  MAX_DAYS,
  MAX_FILTER_CONDITIONS,
  MAX_FILTER_DEPTH,
  MAX_IN_VALUES,
  METADATA_PREFIX,
  RESERVED_EVENT_PREFIXES,
  type FieldOp,
  type Filter,
} from "./filter-language";

export * from "./filter-language";

/** The filter language's one zod schema (its words and shapes: ./filter-language.ts). */

type Path = (string | number)[];
type Issue = { path: Path; message: string };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const KINDS = ["all", "any", "not", "field", "in_segment", "event"] as const;

/** The field's name as a contact field or `metadata.<key>`, or why it is not one. */
function fieldProblem(field: unknown): string | null {
  if (typeof field !== "string") return "must be a string";
  if (field in CONTACT_FIELD_KINDS) return null;
  if (!field.startsWith(METADATA_PREFIX)) return `must be one of ${Object.keys(CONTACT_FIELD_KINDS).join(", ")} or metadata.<key>`;
  const key = field.slice(METADATA_PREFIX.length);
  if (key.length === 0 || key.length > limits.metadataKey) return `the metadata key must have 1 to ${limits.metadataKey} characters`;
  if (key.includes("\u0000")) return "must not contain NUL characters";
  return null;
}

const scalarProblem = (value: unknown): string | null => {
  if (typeof value === "string")
    return value.length > limits.metadataValue
      ? `must be at most ${limits.metadataValue} characters`
      : value.includes("\u0000")
        ? "must not contain NUL characters"
        : null;
  if (typeof value === "number") return Number.isFinite(value) ? null : "must be a finite number";
  if (typeof value === "boolean") return null;
  return "must be a string, a number or a boolean";
};

const dayCount = (value: unknown, max: number, min = 0) =>
  Number.isInteger(value) && (value as number) >= min && (value as number) <= max ? null : `must be an integer from ${min} to ${max}`;

function checkFieldCondition(node: Record<string, unknown>, path: Path, issues: Issue[]) {
  const field = fieldProblem(node.field);
  if (field) issues.push({ path: [...path, "field"], message: field });
  if (!FIELD_OPS.includes(node.op as FieldOp)) {
    issues.push({ path: [...path, "op"], message: `must be one of ${FIELD_OPS.join(", ")}` });
    return;
  }
  const op = node.op as FieldOp;
  const at = [...path, "value"];
  if (op === "exists" || op === "not_exists") return;
  if (op === "within_days" || op === "before_days") {
    const problem = dayCount(node.value, MAX_DAYS);
    if (problem) issues.push({ path: at, message: problem });
  } else if (op === "in") {
    if (!Array.isArray(node.value) || node.value.length === 0 || node.value.length > MAX_IN_VALUES) {
      issues.push({ path: at, message: `must be an array of 1 to ${MAX_IN_VALUES} values` });
      return;
    }
    node.value.forEach((item, i) => {
      const problem = scalarProblem(item);
      if (problem) issues.push({ path: [...at, i], message: problem });
    });
  } else {
    const problem = node.value === undefined ? "is required for this op" : scalarProblem(node.value);
    if (problem) issues.push({ path: at, message: problem });
  }
}

/** Why an event name cannot be a condition's: its shape, or a reserved prefix that names no built-in event. */
function eventNameProblem(name: unknown): string | null {
  if (typeof name !== "string" || !EVENT_NAME.test(name)) return "must be 1 to 100 letters, digits or _ . : -";
  const reserved = RESERVED_EVENT_PREFIXES.find((prefix) => name.startsWith(prefix));
  if (reserved && reserved !== "automation." && !(BUILT_IN_EVENTS as readonly string[]).includes(name)) {
    return `${reserved}* names are built-in events: ${BUILT_IN_EVENTS.filter((e) => e.startsWith(reserved)).join(", ")}`;
  }
  return null;
}

function checkEventCondition(node: Record<string, unknown>, path: Path, issues: Issue[]) {
  const name = eventNameProblem(node.event);
  if (name) issues.push({ path: [...path, "event"], message: name });
  if (node.op !== "happened" && node.op !== "not_happened") issues.push({ path: [...path, "op"], message: "must be happened or not_happened" });
  if (node.within_days !== undefined) {
    const problem = dayCount(node.within_days, MAX_DAYS, 1);
    if (problem) issues.push({ path: [...path, "within_days"], message: problem });
  }
  if (node.count_gte !== undefined) {
    const problem = dayCount(node.count_gte, MAX_COUNT_GTE, 1);
    if (problem) issues.push({ path: [...path, "count_gte"], message: problem });
  }
  if (node.where === undefined) return;
  if (!isObject(node.where)) {
    issues.push({ path: [...path, "where"], message: "must be an object with broadcast_id or automation_id" });
    return;
  }
  for (const key of ["broadcast_id", "automation_id"] as const) {
    const value = node.where[key];
    if (value !== undefined && !id.safeParse(value).success) issues.push({ path: [...path, "where", key], message: "must be a UUID" });
  }
}

/**
 * Walks a filter and lists every problem with its path. Groups are counted as nesting levels (at
 * most MAX_FILTER_DEPTH), conditions in total (at most MAX_FILTER_CONDITIONS). A plain zod union
 * would answer "invalid input" at the group that holds a bad condition; dispatching on the node's
 * one key names the exact place instead.
 */
function checkFilter(value: unknown): Issue[] {
  const issues: Issue[] = [];
  let conditions = 0;
  const visit = (node: unknown, path: Path, depth: number) => {
    if (issues.length >= 20) return;
    if (!isObject(node)) {
      issues.push({ path, message: "must be a filter object: all, any, not, or a condition" });
      return;
    }
    const kinds = KINDS.filter((kind) => node[kind] !== undefined);
    if (kinds.length !== 1) {
      issues.push({
        path,
        message: kinds.length ? `has ${kinds.join(" and ")}: give exactly one` : "must have one of all, any, not, field, in_segment or event",
      });
      return;
    }
    const [kind] = kinds;
    if (kind === "all" || kind === "any" || kind === "not") {
      if (depth >= MAX_FILTER_DEPTH) {
        issues.push({ path: [...path, kind], message: `groups nest at most ${MAX_FILTER_DEPTH} levels deep` });
        return;
      }
      if (kind === "not") return visit(node.not, [...path, "not"], depth + 1);
      const children = node[kind];
      if (!Array.isArray(children)) {
        issues.push({ path: [...path, kind], message: "must be an array of filters" });
        return;
      }
      if (children.length > MAX_FILTER_CONDITIONS) {
        issues.push({ path: [...path, kind], message: `must have at most ${MAX_FILTER_CONDITIONS} filters` });
        return;
      }
      children.forEach((child, i) => visit(child, [...path, kind, i], depth + 1));
      return;
    }
    conditions++;
    if (conditions === MAX_FILTER_CONDITIONS + 1) issues.push({ path, message: `a filter has at most ${MAX_FILTER_CONDITIONS} conditions` });
    if (kind === "in_segment") {
      if (!id.safeParse(node.in_segment).success) issues.push({ path: [...path, "in_segment"], message: "must be a UUID" });
    } else if (kind === "event") checkEventCondition(node, path, issues);
    else checkFieldCondition(node, path, issues);
  };
  visit(value, [], 0);
  return issues;
}

const conditionDoc = {
  type: "object",
  description: "A condition on a field: `field` is email, first_name, last_name, subscribed, tags, created_at or metadata.<key>.",
  required: ["field", "op"],
  properties: { field: { type: "string" }, op: { enum: [...FIELD_OPS] }, value: {} },
};

export const filter = z
  .custom<Filter>(isObject, { message: "must be a filter object: all, any, not, or a condition" })
  .superRefine((value, ctx) => {
    for (const issue of checkFilter(value)) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
  })
  .meta({
    // Named: segments, their preview, conditional blocks of emails and bulk actions all take one.
    id: "Filter",
    description:
      "`{ all: [Filter] }`, `{ any: [Filter] }`, `{ not: Filter }`, a field condition `{ field, op, value? }`, " +
      "`{ in_segment: uuid }`, or `{ event, op: happened | not_happened, within_days?, count_gte?, where?: { broadcast_id?, automation_id? } }`. " +
      `Groups nest at most ${MAX_FILTER_DEPTH} levels, with at most ${MAX_FILTER_CONDITIONS} conditions in all. ` +
      "Ops by type: text eq, neq, contains, not_contains, starts_with, in; numbers and dates also gt, gte, lt, lte; dates within_days and before_days " +
      "(the last n days; more than n days ago); booleans eq, neq; tags contains, not_contains, in; every field exists and not_exists.",
    oneOf: [
      { type: "object", required: ["all"], properties: { all: { type: "array", items: { type: "object" } } } },
      { type: "object", required: ["any"], properties: { any: { type: "array", items: { type: "object" } } } },
      { type: "object", required: ["not"], properties: { not: { type: "object" } } },
      conditionDoc,
      { type: "object", required: ["in_segment"], properties: { in_segment: { type: "string", format: "uuid" } } },
      {
        type: "object",
        required: ["event", "op"],
        properties: {
          event: { type: "string" },
          op: { enum: ["happened", "not_happened"] },
          within_days: { type: "integer", minimum: 1 },
          count_gte: { type: "integer", minimum: 1 },
          where: { type: "object", properties: { broadcast_id: { type: "string", format: "uuid" }, automation_id: { type: "string", format: "uuid" } } },
        },
      },
    ],
  });

/** A filter in a query string: URL-encoded JSON, parsed then checked like a body's. */
export const filterQueryParam = z
  .string()
  .max(20_000)
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: "must be URL-encoded JSON" });
      return z.NEVER;
    }
  })
  .pipe(filter);
