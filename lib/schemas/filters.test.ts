import { describe, expect, it } from "vitest";
import { filter, filterQueryParam, MAX_FILTER_CONDITIONS } from "./filters";

const problems = (value: unknown) => {
  const result = filter.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
};
const paths = (value: unknown) => problems(value).map((problem) => problem.split(":")[0]);

const condition = { field: "email", op: "contains", value: "x" };
const nest = (levels: number, inner: unknown): unknown => (levels === 0 ? inner : { all: [nest(levels - 1, inner)] });

describe("the filter language's schema", () => {
  it("accepts every kind of node", () => {
    expect(
      problems({
        all: [
          condition,
          { any: [{ field: "metadata.plan", op: "in", value: ["a", 1, true] }, { not: { field: "tags", op: "exists" } }] },
          { in_segment: "8a3c63a4-43a4-4f05-9a3b-0a1b2c3d4e5f" },
          { event: "email.opened", op: "happened", within_days: 30, count_gte: 2, where: { broadcast_id: "8a3c63a4-43a4-4f05-9a3b-0a1b2c3d4e5f" } },
          { event: "purchase:completed", op: "not_happened" },
          { field: "created_at", op: "within_days", value: 0 },
        ],
      }),
    ).toEqual([]);
  });

  it("names the exact place of each problem, however deep", () => {
    expect(paths({ all: [condition, { any: [condition, { field: "email", op: "like", value: "x" }] }] })).toEqual(["all.1.any.1.op"]);
    expect(paths({ not: { field: "nickname", op: "eq", value: "x" } })).toEqual(["not.field"]);
    expect(paths({ any: [{ field: "email", op: "in", value: [] }] })).toEqual(["any.0.value"]);
    expect(paths({ any: [{ field: "email", op: "in", value: ["a", { b: 1 }] }] })).toEqual(["any.0.value.1"]);
    expect(paths({ field: "email", op: "eq" })).toEqual(["value"]);
    expect(paths({ field: "created_at", op: "within_days", value: 1.5 })).toEqual(["value"]);
    expect(paths({ field: "email", op: "eq", value: "a\u0000" })).toEqual(["value"]);
    expect(paths({ in_segment: "segment-1" })).toEqual(["in_segment"]);
    expect(paths({ event: "email.read", op: "happened" })).toEqual(["event"]);
    expect(paths({ event: "has space", op: "happened" })).toEqual(["event"]);
    expect(paths({ event: "purchase", op: "happened", count_gte: 0, where: { automation_id: 3 } })).toEqual(["count_gte", "where.automation_id"]);
    expect(paths({ all: [{ field: "email", op: "eq", value: "x", any: [] }] })).toEqual(["all.0"]);
    expect(paths({ all: [{}] })).toEqual(["all.0"]);
    expect(paths({ all: {} })).toEqual(["all"]);
    expect(paths([condition])).toEqual([""]);
    expect(paths(null)).toEqual([""]);
  });

  it("allows five levels of groups and 50 conditions, no more", () => {
    expect(paths(nest(5, condition))).toEqual([]);
    expect(paths(nest(6, condition))).toEqual(["all.0.all.0.all.0.all.0.all.0.all"]);
    expect(paths({ not: { not: { not: { not: { not: { not: condition } } } } } })).toEqual(["not.not.not.not.not.not"]);
    const many = (n: number) => ({ any: Array.from({ length: n }, () => condition) });
    expect(paths(many(MAX_FILTER_CONDITIONS))).toEqual([]);
    expect(paths(many(MAX_FILTER_CONDITIONS + 1))).toEqual(["any"]);
    // Spread over groups, the 51st condition is the one named.
    expect(paths({ all: [many(30), many(30)] })).toEqual(["all.1.any.20"]);
  });

  it("reads a query string's filter as JSON, and says so when it is not", () => {
    const parse = (text: string) => filterQueryParam.safeParse(text);
    expect(parse(JSON.stringify(condition)).data).toEqual(condition);
    expect(parse("{not json").error?.issues.map((issue) => issue.message)).toEqual(["must be URL-encoded JSON"]);
    expect(parse(JSON.stringify({ any: [{ field: "email", op: "zz" }] })).error?.issues.map((issue) => issue.path.join("."))).toEqual(["any.0.op"]);
  });
});
