import { describe, expect, it } from "vitest";
import { firstPageRows } from "./first-page";

const first = { query: { limit: 25, offset: 0, search: "", segment_id: "s1" }, rows: [{ id: "a" }, { id: "b" }] };

describe("the server's first rows of a list", () => {
  it("stand in for the list's answer while it asks the same query, in whatever key order", () => {
    expect(firstPageRows(first, { segment_id: "s1", search: "", offset: 0, limit: 25 }, false)).toEqual(first.rows);
  });

  it("give way to the list's own answer, and to any other query", () => {
    expect(firstPageRows(first, first.query, true)).toBeUndefined();
    expect(firstPageRows(first, { ...first.query, search: "ada" }, false)).toBeUndefined();
    expect(firstPageRows(first, { ...first.query, offset: 25 }, false)).toBeUndefined();
    expect(firstPageRows(first, { ...first.query, tags: "" }, false)).toBeUndefined();
    expect(firstPageRows(undefined, first.query, false)).toBeUndefined();
  });
});
