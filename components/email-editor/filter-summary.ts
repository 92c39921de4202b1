import type { Filter } from "@/lib/schemas/filter-language";

const OPS: Record<string, string> = {
  eq: "is",
  neq: "is not",
  contains: "contains",
  not_contains: "does not contain",
  starts_with: "starts with",
  gt: ">",
  gte: "≥",
  lt: "<",
  lte: "≤",
  exists: "is set",
  not_exists: "is not set",
  in: "is one of",
  within_days: "within the last … days:",
  before_days: "more than … days ago:",
};

const fieldName = (field: string) => field.replace(/^metadata\./, "").replace(/_/g, " ");

/** A filter in a few words, for the label of a conditional block: one condition spelled out, more counted. */
export function filterSummary(filter: Filter | null | undefined): string {
  if (!filter) return "no condition";
  if ("field" in filter) {
    const value = filter.value === undefined ? "" : ` ${Array.isArray(filter.value) ? filter.value.join(", ") : String(filter.value)}`;
    return `${fieldName(filter.field)} ${OPS[filter.op] ?? filter.op}${value}`;
  }
  if ("in_segment" in filter) return "members of a segment";
  if ("event" in filter) return `${filter.event} ${filter.op === "happened" ? "happened" : "did not happen"}`;
  const count = (f: Filter): number =>
    "all" in f ? f.all.reduce((n, c) => n + count(c), 0) : "any" in f ? f.any.reduce((n, c) => n + count(c), 0) : "not" in f ? count(f.not) : 1;
  const inner = "all" in filter ? filter.all : "any" in filter ? filter.any : null;
  if (inner?.length === 1) return filterSummary(inner[0]);
  return `a filter of ${count(filter)} conditions`;
}
