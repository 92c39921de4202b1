import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { client, createTestOrg, expectError, randomId, type TestOrg } from "@/lib/testing/api";

describe("API keys", () => {
  let org: TestOrg;
  let other: TestOrg;
  beforeAll(async () => {
    org = await createTestOrg();
    other = await createTestOrg();
  });

  it("creates a key whose token works once shown and is never listed", async () => {
    const created = await org.owner.api.post("/v1/api-keys", { name: "CI" });
    expect(created.status).toBe(201);
    expect(created.body.token).toMatch(/^eyJ/);
    expect(created.body.name).toBe("CI");
    const viaNew = client(created.body.token);
    const list = await viaNew.get("/v1/api-keys");
    expect(list.status).toBe(200);
    expect(list.body.object).toBe("list");
    expect(list.body.data.map((k: { id: string }) => k.id)).toContain(created.body.id);
    expect(JSON.stringify(list.body)).not.toContain(created.body.token);
  });

  it("validates the name", async () => {
    const error = expectError(await org.owner.api.post("/v1/api-keys", { name: "" }), 400, "VALIDATION_ERROR");
    expect(error.details?.[0].path).toBe("name");
    expectError(await org.owner.api.post("/v1/api-keys", { name: "a\u0000b" }), 400, "VALIDATION_ERROR");
    const before = await db.apiKey.count({ where: { organization_id: org.organizationId } });
    for (const body of [{}, { name: null }, { name: 42 }, { name: "x".repeat(201) }, { name: "a\u0000b" }]) {
      const refused = expectError(await org.owner.api.post("/v1/api-keys", body), 400, "VALIDATION_ERROR");
      expect(
        refused.details?.map((d) => d.path),
        JSON.stringify(body).slice(0, 40),
      ).toEqual(["name"]);
    }
    expect(await db.apiKey.count({ where: { organization_id: org.organizationId } })).toBe(before);
    expect((await org.owner.api.post("/v1/api-keys", { name: "x".repeat(200) })).status).toBe(201);
  });

  it("ignores server-owned fields in the body", async () => {
    const created = await org.owner.api.post("/v1/api-keys", {
      name: "owned",
      id: randomId(),
      organization_id: other.organizationId,
      created_by: other.owner.userId,
      revoked_at: "2020-01-01T00:00:00.000Z",
      token_hint: "abcd",
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ organization_id: org.organizationId, created_by: org.owner.userId, revoked_at: null, last_used_at: null });
    expect(created.body.token_hint).toBe(created.body.token.slice(-4));
    expect(created.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect((await client(created.body.token).get("/v1/api-keys")).status).toBe(200);
  });

  it("refuses a revoked key on its next request", async () => {
    const created = await org.owner.api.post("/v1/api-keys", { name: "temp" });
    const temp = client(created.body.token);
    expect((await temp.get("/v1/api-keys")).status).toBe(200);
    const revoked = await org.owner.api.delete(`/v1/api-keys/${created.body.id}`);
    expect(revoked.body).toEqual({ success: true });
    expectError(await temp.get("/v1/api-keys"), 401, "UNAUTHORIZED");
  });

  it("answers 401 to a missing or revoked credential on every API key operation, changing nothing", async () => {
    const doomed = await org.owner.api.post("/v1/api-keys", { name: "doomed" });
    expect((await org.owner.api.delete(`/v1/api-keys/${doomed.body.id}`)).body).toEqual({ success: true });
    const live = await org.owner.api.post("/v1/api-keys", { name: "live" });
    // last_used_at is left out: the owner's own requests may record their use meanwhile.
    const keys = () =>
      db.apiKey.findMany({
        where: { organization_id: org.organizationId },
        orderBy: { id: "asc" },
        select: { id: true, name: true, user_id: true, revoked_at: true, token_hint: true, created_at: true },
      });
    const before = await keys();
    for (const token of [null, doomed.body.token]) {
      const anon = client(token);
      expectError(await anon.post("/v1/api-keys", { name: "sneaky" }), 401, "UNAUTHORIZED");
      expectError(await anon.get("/v1/api-keys"), 401, "UNAUTHORIZED");
      expectError(await anon.delete(`/v1/api-keys/${live.body.id}`), 401, "UNAUTHORIZED");
    }
    expect(await keys()).toEqual(before);
    expect((await client(live.body.token).get("/v1/api-keys")).status).toBe(200);
  });

  it("answers 401 for missing, malformed and forged credentials", async () => {
    expectError(await client(null).get("/v1/api-keys"), 401, "UNAUTHORIZED");
    expectError(await client("not-a-jwt").get("/v1/api-keys"), 401, "UNAUTHORIZED");
    const forged = org.owner.token.slice(0, -4) + (org.owner.token.endsWith("AAAA") ? "BBBB" : "AAAA");
    expectError(await client(forged).get("/v1/api-keys"), 401, "UNAUTHORIZED");
  });

  it("404s on another organization's key and a missing key, 400 on a malformed id", async () => {
    const theirs = await other.owner.api.post("/v1/api-keys", { name: "theirs" });
    expectError(await org.owner.api.delete(`/v1/api-keys/${theirs.body.id}`), 404, "NOT_FOUND");
    expect((await client(theirs.body.token).get("/v1/api-keys")).status).toBe(200);
    expectError(await org.owner.api.delete(`/v1/api-keys/${randomId()}`), 404, "NOT_FOUND");
    expectError(await org.owner.api.delete(`/v1/api-keys/nope`), 400, "VALIDATION_ERROR");
  });

  it("paginates with limit, after and before, and rejects bad cursors with the 422 body", async () => {
    const fresh = await createTestOrg();
    for (let i = 0; i < 4; i++) await fresh.owner.api.post("/v1/api-keys", { name: `k${i}` });
    const all = await fresh.owner.api.get("/v1/api-keys");
    expect(all.body.data).toHaveLength(5);
    const first = await fresh.owner.api.get("/v1/api-keys?limit=2");
    expect(first.body.has_more).toBe(true);
    expect(first.body.data.map((k: { id: string }) => k.id)).toEqual(all.body.data.slice(0, 2).map((k: { id: string }) => k.id));
    const second = await fresh.owner.api.get(`/v1/api-keys?limit=2&after=${first.body.data[1].id}`);
    expect(second.body.data.map((k: { id: string }) => k.id)).toEqual(all.body.data.slice(2, 4).map((k: { id: string }) => k.id));
    const back = await fresh.owner.api.get(`/v1/api-keys?limit=2&before=${second.body.data[0].id}`);
    expect(back.body.data.map((k: { id: string }) => k.id)).toEqual(first.body.data.map((k: { id: string }) => k.id));
    expect(back.body.has_more).toBe(false);
    for (const query of [
      "limit=0",
      "limit=101",
      "limit=abc",
      "after=zzz",
      `after=${randomId()}`,
      `after=${all.body.data[0].id}&before=${all.body.data[1].id}`,
    ]) {
      const result = await fresh.owner.api.get(`/v1/api-keys?${query}`);
      expect(result.status, query).toBe(422);
      expect(result.body).toMatchObject({ name: "validation_error", statusCode: 422 });
      expect(typeof result.body.message).toBe("string");
    }
  });
});

describe("API keys without limit", () => {
  it("returns every key, not a first page of 20", async () => {
    const fresh = await createTestOrg();
    await Promise.all(Array.from({ length: 24 }, (_, i) => fresh.owner.api.post("/v1/api-keys", { name: `k${i}` })));
    const all = await fresh.owner.api.get("/v1/api-keys");
    expect(all.body.data).toHaveLength(25);
    expect(all.body.has_more).toBe(false);
  });
});

describe("who may revoke a key", () => {
  it("lets a member revoke only their own keys, and an admin any key", async () => {
    const fresh = await createTestOrg();
    const member = await fresh.addMember("member");
    const admin = await fresh.addMember("admin");
    const ownersKey = await fresh.owner.api.post("/v1/api-keys", { name: "owner's" });
    const membersKey = await member.api.post("/v1/api-keys", { name: "member's" });
    expectError(await member.api.delete(`/v1/api-keys/${ownersKey.body.id}`), 403, "FORBIDDEN");
    expect((await client(ownersKey.body.token).get("/v1/api-keys")).status).toBe(200);
    expect((await member.api.delete(`/v1/api-keys/${membersKey.body.id}`)).body).toEqual({ success: true });
    expect((await admin.api.delete(`/v1/api-keys/${ownersKey.body.id}`)).body).toEqual({ success: true });
    expectError(await client(ownersKey.body.token).get("/v1/api-keys"), 401, "UNAUTHORIZED");
  });
});
