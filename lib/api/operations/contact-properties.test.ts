import { beforeAll, describe, expect, it } from "vitest";
import { createTestOrg, expectError, type ApiResult, type TestOrg } from "@/lib/testing/api";

describe("contact properties", () => {
  let org: TestOrg;
  let other: TestOrg;
  beforeAll(async () => {
    org = await createTestOrg();
    other = await createTestOrg();
    for (const [key, type] of [
      ["plan", "string"],
      ["score", "number"],
      ["vip", "boolean"],
      ["renews_on", "date"],
    ]) {
      expect((await org.owner.api.post("/v1/contact-properties", { key, type })).status).toBe(201);
    }
  });

  it("creates, lists and deletes a property; the label defaults to the key", async () => {
    const fresh = await createTestOrg();
    const created = await fresh.owner.api.post("/v1/contact-properties", { key: "seats", type: "number", label: "Seats", id: "x" });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(String), key: "seats", label: "Seats", type: "number", created_at: expect.stringMatching(/Z$/) });
    const bare = await fresh.owner.api.post("/v1/contact-properties", { key: "joined", type: "date" });
    expect(bare.body.label).toBe("joined");
    const listed = await fresh.owner.api.get("/v1/contact-properties");
    expect(listed.body).toMatchObject({ object: "list", has_more: false });
    expect(listed.body.data.map((p: { key: string }) => p.key)).toEqual(["joined", "seats"]);
    expect((await fresh.owner.api.delete(`/v1/contact-properties/${created.body.id}`)).body).toEqual({ success: true });
    expect((await fresh.owner.api.get("/v1/contact-properties")).body.data.map((p: { key: string }) => p.key)).toEqual(["joined"]);
    expectError(await fresh.owner.api.delete(`/v1/contact-properties/${created.body.id}`), 404, "NOT_FOUND");
  });

  it("refuses keys that are not metadata keys, contact fields, and keys that exist", async () => {
    const path = async (body: unknown) => expectError(await org.owner.api.post("/v1/contact-properties", body), 400, "VALIDATION_ERROR").details![0].path;
    for (const key of ["Plan", "1plan", "plan-b", "", "a".repeat(51), "_x", "plän"]) expect(await path({ key, type: "string" }), key).toBe("key");
    for (const key of ["email", "first_name", "last_name", "subscribed", "tags", "created_at"]) expect(await path({ key, type: "string" }), key).toBe("key");
    expect(await path({ key: "ok", type: "json" })).toBe("type");
    expect(await path({ key: "ok", type: "string", label: "" })).toBe("label");
    expectError(await org.owner.api.post("/v1/contact-properties", { key: "plan", type: "number" }), 409, "CONFLICT");
    // Another organization has its own keys.
    expect((await other.owner.api.post("/v1/contact-properties", { key: "plan", type: "number" })).status).toBe(201);
  });

  it("answers 404 for another organization's property", async () => {
    const { body } = await other.owner.api.post("/v1/contact-properties", { key: "theirs", type: "string" });
    expectError(await org.owner.api.delete(`/v1/contact-properties/${body.id}`), 404, "NOT_FOUND");
    expect((await other.owner.api.get("/v1/contact-properties")).body.data.some((p: { id: string }) => p.id === body.id)).toBe(true);
    expect((await org.owner.api.get("/v1/contact-properties")).body.data.some((p: { id: string }) => p.id === body.id)).toBe(false);
  });

  it("enforces the types on create, update and bulk, naming metadata.<key>; untyped keys stay free", async () => {
    const bad = async (result: Promise<ApiResult>) => expectError(await result, 400, "VALIDATION_ERROR").details![0].path;
    expect(await bad(org.owner.api.post("/v1/contacts", { email: "t1@example.test", metadata: { score: "42" } }))).toBe("metadata.score");
    expect(await bad(org.owner.api.post("/v1/contacts", { email: "t1@example.test", metadata: { vip: "yes" } }))).toBe("metadata.vip");
    expect(await bad(org.owner.api.post("/v1/contacts", { email: "t1@example.test", metadata: { plan: 3 } }))).toBe("metadata.plan");
    expect(await bad(org.owner.api.post("/v1/contacts", { email: "t1@example.test", metadata: { renews_on: "tomorrow" } }))).toBe("metadata.renews_on");
    expect((await org.owner.api.get("/v1/contacts?limit=5&search=t1@")).body.total).toBe(0);

    const created = await org.owner.api.post("/v1/contacts", {
      email: "t1@example.test",
      metadata: { score: 42, vip: false, plan: "pro", renews_on: "2026-03-01T10:00:00+02:00", note: 5 },
    });
    expect(created.status).toBe(201);
    expect(created.body.metadata).toEqual({ score: 42, vip: false, plan: "pro", renews_on: "2026-03-01T08:00:00.000Z", note: 5 });

    expect(await bad(org.owner.api.put(`/v1/contacts/${created.body.id}`, { metadata: { score: true } }))).toBe("metadata.score");
    expect((await org.owner.api.get(`/v1/contacts/${created.body.id}`)).body.metadata.score).toBe(42);
    const updated = await org.owner.api.put(`/v1/contacts/${created.body.id}`, { metadata: { score: 43.5, renews_on: "2027-01-31" } });
    expect(updated.body.metadata).toEqual({ score: 43.5, renews_on: "2027-01-31" });

    const bulk = (contacts: unknown[]) => org.owner.api.post("/v1/contacts/bulk", { contacts });
    expect(
      await bad(
        bulk([
          { email: "t2@example.test", metadata: { score: 1 } },
          { email: "t3@example.test", metadata: { score: "1" } },
        ]),
      ),
    ).toBe("contacts.1.metadata.score");
    expect((await org.owner.api.get("/v1/contacts?limit=5&search=t2@")).body.total).toBe(0);
    expect((await bulk([{ email: "t2@example.test", metadata: { score: 1, renews_on: "2026-05-05T05:05Z" } }])).body).toEqual({ imported: 1, total: 1 });
    expect((await org.owner.api.get("/v1/contacts?limit=5&search=t2@")).body.contacts[0].metadata).toEqual({ score: 1, renews_on: "2026-05-05T05:05:00.000Z" });
  });

  it("keeps the values when a property is deleted; the key is free text again", async () => {
    const fresh = await createTestOrg();
    const { body: property } = await fresh.owner.api.post("/v1/contact-properties", { key: "level", type: "number" });
    const { body: contact } = await fresh.owner.api.post("/v1/contacts", { email: "kept@example.test", metadata: { level: 3 } });
    expectError(await fresh.owner.api.put(`/v1/contacts/${contact.id}`, { metadata: { level: "high" } }), 400, "VALIDATION_ERROR");
    await fresh.owner.api.delete(`/v1/contact-properties/${property.id}`);
    expect((await fresh.owner.api.get(`/v1/contacts/${contact.id}`)).body.metadata).toEqual({ level: 3 });
    expect((await fresh.owner.api.put(`/v1/contacts/${contact.id}`, { metadata: { level: "high" } })).body.metadata).toEqual({ level: "high" });
  });
});
