import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { client, createTestOrg, expectError, randomId, type TestMember, type TestOrg } from "@/lib/testing/api";

const stored = (id: string) =>
  db.organization.findUniqueOrThrow({ where: { id }, select: { id: true, name: true, tracking_enabled: true, created_at: true, updated_at: true } });

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe("Organization", () => {
  let org: TestOrg;
  let other: TestOrg;
  let admin: TestMember;
  let member: TestMember;
  beforeAll(async () => {
    org = await createTestOrg("Acme");
    other = await createTestOrg("Other");
    admin = await org.addMember("admin");
    member = await org.addMember("member");
  });

  it("answers the credential's organization with the caller's role to every member", async () => {
    const row = await stored(org.organizationId);
    for (const [caller, role] of [
      [org.owner, "owner"],
      [admin, "admin"],
      [member, "member"],
    ] as const) {
      const result = await caller.api.get("/v1/organization");
      expect(result.status).toBe(200);
      expect(result.body).toEqual({
        id: org.organizationId,
        name: "Acme",
        tracking_enabled: true,
        postal_address: null,
        theme: { primary_color: null, text_color: null, background_color: null, font_family: null, logo_media_id: null, footer_html: null },
        public_archive: false,
        bounce_pause_threshold: 0.05,
        complaint_pause_threshold: 0.003,
        timezone: "UTC",
        created_at: row.created_at.toISOString(),
        updated_at: row.updated_at.toISOString(),
        role,
      });
      expect(result.body.created_at).toMatch(ISO_MS);
    }
    expect((await other.owner.api.get("/v1/organization")).body).toMatchObject({ id: other.organizationId, name: "Other", role: "owner" });
  });

  it("renames and switches tracking for owners and admins, keeping fields left out", async () => {
    const fresh = await createTestOrg("Before");
    const freshAdmin = await fresh.addMember("admin");
    const before = await stored(fresh.organizationId);
    const renamed = await fresh.owner.api.put("/v1/organization", { name: "After" });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({
      id: fresh.organizationId,
      name: "After",
      tracking_enabled: true,
      role: "owner",
      created_at: before.created_at.toISOString(),
    });
    expect(new Date(renamed.body.updated_at).getTime()).toBeGreaterThanOrEqual(before.updated_at.getTime());

    const off = await freshAdmin.api.put("/v1/organization", { tracking_enabled: false });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ name: "After", tracking_enabled: false, role: "admin" });
    expect(await stored(fresh.organizationId)).toMatchObject({ name: "After", tracking_enabled: false });

    const both = await fresh.owner.api.put("/v1/organization", { name: "x".repeat(200), tracking_enabled: true });
    expect(both.body).toMatchObject({ name: "x".repeat(200), tracking_enabled: true });
    expect((await fresh.owner.api.get("/v1/organization")).body).toEqual(both.body);
  });

  it("changes nothing for an empty body", async () => {
    const before = await stored(org.organizationId);
    const result = await org.owner.api.put("/v1/organization", {});
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ name: before.name, tracking_enabled: before.tracking_enabled, updated_at: before.updated_at.toISOString() });
    expect(await stored(org.organizationId)).toEqual(before);
  });

  it("validates name and tracking_enabled, changing nothing", async () => {
    const before = await stored(org.organizationId);
    const cases: [unknown, string][] = [
      [{ name: "" }, "name"],
      [{ name: "x".repeat(201) }, "name"],
      [{ name: "a\u0000b" }, "name"],
      [{ name: null }, "name"],
      [{ name: 42 }, "name"],
      [{ tracking_enabled: "false" }, "tracking_enabled"],
      [{ tracking_enabled: 0 }, "tracking_enabled"],
      [{ tracking_enabled: null }, "tracking_enabled"],
      [{ name: "Fine", tracking_enabled: "yes" }, "tracking_enabled"],
    ];
    for (const [body, path] of cases) {
      const error = expectError(await org.owner.api.put("/v1/organization", body), 400, "VALIDATION_ERROR");
      expect(
        error.details?.map((d) => d.path),
        JSON.stringify(body).slice(0, 60),
      ).toEqual([path]);
    }
    expectError(await org.owner.api.put("/v1/organization", [{ name: "Array" }]), 400, "VALIDATION_ERROR");
    expect(await stored(org.organizationId)).toEqual(before);
  });

  it("answers 403 to a member's update and changes nothing", async () => {
    const before = await stored(org.organizationId);
    for (const body of [{ name: "Taken over" }, { tracking_enabled: false }, {}]) {
      expectError(await member.api.put("/v1/organization", body), 403, "FORBIDDEN");
    }
    expect(await stored(org.organizationId)).toEqual(before);
    expect((await member.api.get("/v1/organization")).body.role).toBe("member");
  });

  it("answers 401 to a missing or revoked key on both operations, changing nothing", async () => {
    const doomed = await org.owner.api.post("/v1/api-keys", { name: "doomed" });
    expect((await client(doomed.body.token).get("/v1/organization")).status).toBe(200);
    expect((await org.owner.api.delete(`/v1/api-keys/${doomed.body.id}`)).body).toEqual({ success: true });
    const before = await stored(org.organizationId);
    for (const token of [null, doomed.body.token]) {
      const anon = client(token);
      expectError(await anon.get("/v1/organization"), 401, "UNAUTHORIZED");
      expectError(await anon.put("/v1/organization", { name: "Anonymous", tracking_enabled: false }), 401, "UNAUTHORIZED");
    }
    expect(await stored(org.organizationId)).toEqual(before);
  });

  it("changes only the credential's organization, whatever ids the body names", async () => {
    const mine = await createTestOrg("Mine");
    const theirsBefore = await stored(other.organizationId);
    const mineBefore = await stored(mine.organizationId);
    const result = await mine.owner.api.put("/v1/organization", {
      id: other.organizationId,
      organization_id: other.organizationId,
      name: "Renamed",
      tracking_enabled: false,
      created_at: "2000-01-01T00:00:00.000Z",
      updated_at: "2000-01-01T00:00:00.000Z",
      role: "owner",
    });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ id: mine.organizationId, name: "Renamed", tracking_enabled: false, created_at: mineBefore.created_at.toISOString() });
    expect(result.body.updated_at).not.toBe("2000-01-01T00:00:00.000Z");
    expect(await stored(mine.organizationId)).toMatchObject({ id: mine.organizationId, name: "Renamed", created_at: mineBefore.created_at });
    expect(await stored(other.organizationId)).toEqual(theirsBefore);
    expect((await other.owner.api.get("/v1/organization")).body).toMatchObject({ id: other.organizationId, name: "Other", tracking_enabled: true });
  });

  it("ignores a role and an id in the body: the answer has the caller's role", async () => {
    const result = await org.owner.api.put("/v1/organization", { role: "member", id: randomId() });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ id: org.organizationId, role: "owner" });
    expect((await org.owner.api.put("/v1/organization", { name: "Acme" })).status).toBe(200);
  });
});
