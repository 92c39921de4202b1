import { describe, expect, it } from "vitest";
import type { Filter } from "@/lib/schemas/filter-language";
import { fieldChoices, fromFilter, nodeForPath, toFilter, withField, type FieldDraft } from "./filter-model";

const choices = fieldChoices(
  [
    { key: "seats", label: "Seats", type: "number" },
    { key: "trial", label: "Trial", type: "boolean" },
  ],
  ["seats", "company"],
);

describe("the filter builder's model", () => {
  it("offers contact fields, typed properties, then the other metadata keys once", () => {
    expect(choices.map((c) => `${c.section}:${c.value}:${c.kind}`)).toEqual([
      "Contact:email:string",
      "Contact:first_name:string",
      "Contact:last_name:string",
      "Contact:subscribed:boolean",
      "Contact:tags:tags",
      "Contact:created_at:date",
      "Properties:metadata.seats:number",
      "Properties:metadata.trial:boolean",
      "Other metadata:metadata.company:text",
    ]);
  });

  it("turns a saved filter into the tree and back unchanged", () => {
    const filter: Filter = {
      all: [
        { field: "metadata.seats", op: "gte", value: 5 },
        { field: "metadata.trial", op: "eq", value: false },
        { field: "tags", op: "in", value: ["vip", "beta"] },
        { field: "metadata.seats", op: "in", value: [1, 2] },
        { not: { any: [{ field: "email", op: "contains", value: "@example" }, { in_segment: "8a3c63a4-43a4-4f05-9a3b-0a1b2c3d4e5f" }] } },
        { not: { in_segment: "8a3c63a4-43a4-4f05-9a3b-0a1b2c3d4e5f" } },
        { event: "email.opened", op: "happened", within_days: 30, count_gte: 2, where: { broadcast_id: "9a3c63a4-43a4-4f05-9a3b-0a1b2c3d4e5f" } },
        {
          any: [
            { field: "created_at", op: "within_days", value: 7 },
            { field: "metadata.company", op: "gt", value: 10 },
          ],
        },
      ],
    };
    const translated = toFilter(fromFilter(filter), choices);
    expect(translated.incomplete).toEqual([]);
    expect(translated.filter).toEqual(filter);
    expect(translated.conditions).toBe(10);
  });

  it("holds back a filter while a condition lacks its value, and names the row", () => {
    const root = fromFilter({ all: [{ field: "metadata.seats", op: "gt", value: 1 }] });
    const row = root.children[0];
    if (row.kind !== "condition") throw new Error("a condition");
    row.condition = { ...(row.condition as FieldDraft), value: "many" };
    expect(toFilter(root, choices)).toMatchObject({ filter: null, incomplete: [row.id] });
  });

  it("finds the row a server's path names", () => {
    const root = fromFilter({ all: [{ field: "email", op: "eq", value: "a" }, { not: { any: [{ field: "email", op: "eq", value: "b" }] } }] });
    const { paths } = toFilter(root, choices);
    const nested = root.children[1];
    if (nested.kind !== "group") throw new Error("a group");
    expect(nodeForPath(paths, "filter.all.0.value")).toBe(root.children[0].id);
    expect(nodeForPath(paths, "filter.all.1.not.any.0.op")).toBe(nested.children[0].id);
    expect(nodeForPath(paths, "filter.all")).toBe(root.id);
  });

  it("keeps an operator that fits the new field, and a value of the same kind", () => {
    const draft: FieldDraft = { type: "field", field: "email", op: "contains", value: "x" };
    expect(withField(draft, "metadata.company", choices)).toEqual({ type: "field", field: "metadata.company", op: "contains", value: "" });
    expect(withField(draft, "first_name", choices)).toEqual({ type: "field", field: "first_name", op: "contains", value: "x" });
    expect(withField(draft, "metadata.trial", choices)).toEqual({ type: "field", field: "metadata.trial", op: "eq", value: "true" });
  });
});
