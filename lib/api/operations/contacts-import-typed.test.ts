import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTestOrg } from "@/lib/testing/api";

const base64 = (text: string) => Buffer.from(text).toString("base64");

describe("CSV import into typed properties", () => {
  it("converts cells to the key's type, or lists the row in errors", async () => {
    const org = await createTestOrg();
    for (const [key, type] of [
      ["seats", "number"],
      ["trial", "boolean"],
      ["renews_on", "date"],
      ["plan", "string"],
    ]) {
      await org.owner.api.post("/v1/contact-properties", { key, type });
    }
    // An existing contact keeps its other metadata; an error row changes nothing.
    await org.owner.api.post("/v1/contacts", { email: "kept@example.test", metadata: { seats: 1, note: "first" } });
    const csv = [
      "email,seats,trial,renews_on,plan,free",
      "a@example.test,42,yes,2026-03-01,007,42",
      "b@example.test, -3.5 ,No,2026-03-01T10:00:00+02:00,pro,",
      "c@example.test,forty,true,,,",
      "d@example.test,1,maybe,,,",
      "e@example.test,1,1,2026-02-30,,",
      "kept@example.test,7,0,,,",
      "kept2@example.test,,,,,",
    ].join("\n");
    const result = await org.owner.api.post("/v1/contacts/import", {
      file_content: base64(csv),
      column_mappings: ["email", "seats", "trial", "renews_on", "plan", "free"].map((name) => ({ csv_column: name, property_name: name })),
      handle_missing: "create",
    });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ created: 3, updated: 1, skipped: 3, errors_total: 3 });
    expect(result.body.errors).toEqual([
      { row: 4, email: "c@example.test", error: 'seats must be a number, not "forty"' },
      { row: 5, email: "d@example.test", error: 'trial must be true, false, yes, no, 1 or 0, not "maybe"' },
      { row: 6, email: "e@example.test", error: 'renews_on must be an ISO 8601 date (2026-03-01 or 2026-03-01T09:30:00Z), not "2026-02-30"' },
    ]);
    const metadata = async (email: string) =>
      (await db.contact.findUnique({ where: { organization_id_email: { organization_id: org.organizationId, email } } }))?.metadata;
    expect(await metadata("a@example.test")).toEqual({ seats: 42, trial: true, renews_on: "2026-03-01", plan: "007", free: "42" });
    expect(await metadata("b@example.test")).toEqual({ seats: -3.5, trial: false, renews_on: "2026-03-01T08:00:00.000Z", plan: "pro" });
    expect(await metadata("c@example.test")).toBeUndefined();
    expect(await metadata("kept@example.test")).toEqual({ seats: 7, trial: false, note: "first" });
    expect(await metadata("kept2@example.test")).toEqual({});
    // The converted values are numbers to the filters.
    const preview = await org.owner.api.post("/v1/segments/preview", { filter: { field: "metadata.seats", op: "gt", value: 5 } });
    expect(preview.body.sample.map((c: { email: string }) => c.email).sort()).toEqual(["a@example.test", "kept@example.test"]);
  });
});
