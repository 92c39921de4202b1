import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { client, createTestOrg, expectError, type TestOrg } from "@/lib/testing/api";

describe("Suppressions", () => {
  let org: TestOrg;
  let other: TestOrg;

  beforeAll(async () => {
    org = await createTestOrg();
    other = await createTestOrg();
  });

  it("adds addresses by hand, normalized and once, keeping the reason of those already suppressed", async () => {
    await db.suppression.create({ data: { organization_id: org.organizationId, email: "bounced@example.net", reason: "hard_bounce" } });
    const added = await org.owner.api.post("/v1/suppressions", {
      emails: ["  Manual@Example.net", "manual@example.net", "bounced@example.net", "new@example.net"],
    });
    expect(added.status).toBe(200);
    expect(added.body).toEqual({ added: 2, total: 3 });
    const rows = await db.suppression.findMany({ where: { organization_id: org.organizationId }, orderBy: { email: "asc" } });
    expect(rows.map((r) => [r.email, r.reason])).toEqual([
      ["bounced@example.net", "hard_bounce"],
      ["manual@example.net", "manual"],
      ["new@example.net", "manual"],
    ]);
  });

  it("refuses an invalid address, an empty list and more than 1000 at once", async () => {
    const bad = expectError(await org.owner.api.post("/v1/suppressions", { emails: ["ok@example.net", "not an address"] }), 400, "VALIDATION_ERROR");
    expect(bad.details?.[0].path).toBe("emails.1");
    expectError(await org.owner.api.post("/v1/suppressions", { emails: [] }), 400, "VALIDATION_ERROR");
    const many = Array.from({ length: 1001 }, (_, i) => `p${i}@example.net`);
    expectError(await org.owner.api.post("/v1/suppressions", { emails: many }), 400, "VALIDATION_ERROR");
    expect(await db.suppression.count({ where: { organization_id: org.organizationId, email: "ok@example.net" } })).toBe(0);
  });

  it("lists newest first, a page at a time, by reason and by part of the address, never another organization's", async () => {
    const fresh = await createTestOrg();
    const tag = randomUUID().slice(0, 6);
    const made: string[] = [];
    for (const [i, reason] of (["hard_bounce", "complaint", "manual", "soft_bounce"] as const).entries()) {
      const row = await db.suppression.create({
        data: { organization_id: fresh.organizationId, email: `p${i}-${tag}@example.net`, reason, created_at: new Date(Date.now() - (10 - i) * 1000) },
      });
      made.unshift(row.id);
    }
    await db.suppression.create({ data: { organization_id: other.organizationId, email: `p9-${tag}@example.net`, reason: "manual" } });

    const all = await fresh.owner.api.get("/v1/suppressions");
    expect(all.body).toMatchObject({ object: "list", has_more: false });
    expect(all.body.data.map((s: { id: string }) => s.id)).toEqual(made);
    expect(all.body.data[0]).toEqual({
      id: made[0],
      organization_id: fresh.organizationId,
      email: `p3-${tag}@example.net`,
      reason: "soft_bounce",
      email_id: null,
      created_at: expect.any(String),
    });

    const page = await fresh.owner.api.get("/v1/suppressions?limit=2");
    expect(page.body).toMatchObject({ has_more: true, data: [{ id: made[0] }, { id: made[1] }] });
    const next = await fresh.owner.api.get(`/v1/suppressions?limit=2&after=${made[1]}`);
    expect(next.body.data.map((s: { id: string }) => s.id)).toEqual(made.slice(2));

    expect((await fresh.owner.api.get("/v1/suppressions?reason=complaint")).body.data.map((s: { email: string }) => s.email)).toEqual([
      `p1-${tag}@example.net`,
    ]);
    expect((await fresh.owner.api.get(`/v1/suppressions?search=P2-${tag}`)).body.data).toHaveLength(1);
    expect((await fresh.owner.api.get("/v1/suppressions?search=%25")).body.data).toHaveLength(0);
    expectError(await fresh.owner.api.get("/v1/suppressions?reason=bounce"), 400, "VALIDATION_ERROR");
  });

  it("removes a suppression by address (URL-encoded), and answers 404 for one that is not this organization's", async () => {
    await db.suppression.create({ data: { organization_id: org.organizationId, email: "gone+tag@example.net", reason: "hard_bounce" } });
    await db.softBounceStreak.create({ data: { organization_id: org.organizationId, email: "gone+tag@example.net", count: 2 } });
    await db.suppression.create({ data: { organization_id: other.organizationId, email: "theirs@example.net", reason: "manual" } });
    const removed = await org.owner.api.delete(`/v1/suppressions/${encodeURIComponent("Gone+Tag@example.net")}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ success: true });
    expect(await db.suppression.count({ where: { organization_id: org.organizationId, email: "gone+tag@example.net" } })).toBe(0);
    expect(await db.softBounceStreak.count({ where: { organization_id: org.organizationId, email: "gone+tag@example.net" } })).toBe(0);
    expectError(await org.owner.api.delete(`/v1/suppressions/${encodeURIComponent("gone+tag@example.net")}`), 404, "NOT_FOUND");
    expectError(await org.owner.api.delete("/v1/suppressions/theirs%40example.net"), 404, "NOT_FOUND");
    expect(await db.suppression.count({ where: { organization_id: other.organizationId, email: "theirs@example.net" } })).toBe(1);
  });

  it("answers 401 without a credential", async () => {
    expectError(await client(null).get("/v1/suppressions"), 401, "UNAUTHORIZED");
    expectError(await client(null).post("/v1/suppressions", { emails: ["a@b.co"] }), 401, "UNAUTHORIZED");
  });
});
