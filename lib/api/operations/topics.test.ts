import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { client, createTestOrg, expectError, randomId, request, type TestOrg } from "@/lib/testing/api";
import { topicsOperations } from "./topics";

describe("Topics", () => {
  let org: TestOrg;
  let other: TestOrg;
  beforeAll(async () => {
    org = await createTestOrg();
    other = await createTestOrg();
  });

  const createTopic = (target: TestOrg, body: Record<string, unknown> = {}) =>
    target.owner.api.post("/v1/topics", { name: "Product news", default_subscription: "opt_in", ...body });

  describe("POST /v1/topics", () => {
    it("creates a topic (201) and ignores server-owned fields", async () => {
      const created = await createTopic(org, {
        description: "Monthly updates",
        default_subscription: "opt_out",
        id: randomId(),
        organization_id: other.organizationId,
        created_at: "2000-01-01T00:00:00.000Z",
      });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.any(String),
        organization_id: org.organizationId,
        name: "Product news",
        description: "Monthly updates",
        default_subscription: "opt_out",
        subscribers_count: 0,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        updated_at: expect.any(String),
      });
      expect(created.body.created_at).not.toBe("2000-01-01T00:00:00.000Z");
      const row = await db.topic.findUniqueOrThrow({ where: { id: created.body.id } });
      expect(row.organization_id).toBe(org.organizationId);
    });

    it("lets a plain member create, with the description left out", async () => {
      const member = await org.addMember("member");
      const created = await member.api.post("/v1/topics", { name: "Events", default_subscription: "opt_in" });
      expect(created.status).toBe(201);
      expect(created.body.description).toBeNull();
    });

    it.each([
      ["name", { name: "" }],
      ["name", { name: "x".repeat(201) }],
      ["name", { name: "a\u0000b" }],
      ["name", { name: undefined }],
      ["default_subscription", { default_subscription: "maybe" }],
      ["default_subscription", { default_subscription: undefined }],
      ["description", { description: "x".repeat(1001) }],
      ["description", { description: 42 }],
    ])("refuses case %# with 400 naming %s", async (path, patch) => {
      const before = await db.topic.count({ where: { organization_id: org.organizationId } });
      const error = expectError(await createTopic(org, patch), 400, "VALIDATION_ERROR");
      expect(error.details?.map((d) => d.path)).toContain(path);
      expect(await db.topic.count({ where: { organization_id: org.organizationId } })).toBe(before);
    });

    it("answers 401 without a credential", async () => {
      expectError(await client(null).post("/v1/topics", { name: "x", default_subscription: "opt_in" }), 401, "UNAUTHORIZED");
    });
  });

  describe("GET /v1/topics", () => {
    it("is always paginated: 20 a page by default, limit/after/before, newest first, own organization only", async () => {
      const fresh = await createTestOrg();
      const ids: string[] = [];
      for (let i = 0; i < 23; i++) ids.push((await createTopic(fresh, { name: `t${i}` })).body.id);
      await createTopic(other, { name: "not mine" });
      const newestFirst = [...ids].reverse();

      const first = await fresh.owner.api.get("/v1/topics");
      expect(first.status).toBe(200);
      expect(first.body.object).toBe("list");
      expect(first.body.has_more).toBe(true);
      expect(first.body.data.map((t: { id: string }) => t.id)).toEqual(newestFirst.slice(0, 20));

      const rest = await fresh.owner.api.get(`/v1/topics?after=${first.body.data[19].id}`);
      expect(rest.body.has_more).toBe(false);
      expect(rest.body.data.map((t: { id: string }) => t.id)).toEqual(newestFirst.slice(20));

      const small = await fresh.owner.api.get(`/v1/topics?limit=2&after=${newestFirst[1]}`);
      expect(small.body.data.map((t: { id: string }) => t.id)).toEqual(newestFirst.slice(2, 4));
      expect(small.body.has_more).toBe(true);
      const back = await fresh.owner.api.get(`/v1/topics?limit=2&before=${newestFirst[2]}`);
      expect(back.body.data.map((t: { id: string }) => t.id)).toEqual(newestFirst.slice(0, 2));
      expect(back.body.has_more).toBe(false);
    });

    it("answers the 422 body for bad paging parameters, including another organization's id as cursor", async () => {
      const theirs = await createTopic(other, { name: "theirs" });
      const mine = await createTopic(org, { name: "mine" });
      for (const query of [
        "limit=0",
        "limit=101",
        "limit=1.5",
        "limit=abc",
        "after=zzz",
        "before=123",
        `after=${randomId()}`,
        `after=${theirs.body.id}`,
        `after=${mine.body.id}&before=${mine.body.id}`,
      ]) {
        const result = await org.owner.api.get(`/v1/topics?${query}`);
        expect(result.status, query).toBe(422);
        expect(result.body).toEqual({ name: "validation_error", statusCode: 422, message: expect.any(String) });
      }
    });

    it("answers 401 without a credential", async () => {
      expectError(await client(null).get("/v1/topics"), 401, "UNAUTHORIZED");
    });
  });

  describe("GET, PUT, DELETE /v1/topics/{id}", () => {
    it("retrieves a topic", async () => {
      const created = await createTopic(org, { name: "Retrieve me" });
      const got = await org.owner.api.get(`/v1/topics/${created.body.id}`);
      expect(got.status).toBe(200);
      expect(got.body).toEqual(created.body);
    });

    it("updates only the given fields", async () => {
      const created = await createTopic(org, { name: "Before", description: "kept" });
      const updated = await org.owner.api.put(`/v1/topics/${created.body.id}`, { name: "After", default_subscription: "opt_out" });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ name: "After", description: "kept", default_subscription: "opt_out" });
      const cleared = await org.owner.api.put(`/v1/topics/${created.body.id}`, { description: null });
      expect(cleared.body.description).toBeNull();
      expect((await org.owner.api.put(`/v1/topics/${created.body.id}`, {})).status).toBe(200);
    });

    it("validates the update body", async () => {
      const created = await createTopic(org, { name: "Valid" });
      for (const [path, body] of [
        ["name", { name: "" }],
        ["default_subscription", { default_subscription: "sometimes" }],
        ["description", { description: "x".repeat(1001) }],
      ] as const) {
        const error = expectError(await org.owner.api.put(`/v1/topics/${created.body.id}`, body), 400, "VALIDATION_ERROR");
        expect(error.details?.[0].path).toBe(path);
      }
      expect((await db.topic.findUniqueOrThrow({ where: { id: created.body.id } })).name).toBe("Valid");
    });

    it("deletes a topic; broadcasts that used it lose the reference and contacts their subscription", async () => {
      const created = await createTopic(org, { name: "Delete me" });
      const broadcast = await org.owner.api.post("/v1/broadcasts", { name: "B", subject: "S", from_email: "a@example.com", topic_id: created.body.id });
      expect(broadcast.body.topic_id).toBe(created.body.id);
      const contact = await db.contact.create({ data: { organization_id: org.organizationId, email: "topic-reader@example.test" } });
      await db.contactTopic.create({ data: { organization_id: org.organizationId, contact_id: contact.id, topic_id: created.body.id, subscribed: true } });
      const deleted = await org.owner.api.delete(`/v1/topics/${created.body.id}`);
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({ success: true });
      expect(await db.topic.findUnique({ where: { id: created.body.id } })).toBeNull();
      expect((await org.owner.api.get(`/v1/broadcasts/${broadcast.body.id}`)).body.topic_id).toBeNull();
      expect(await db.contactTopic.count({ where: { topic_id: created.body.id } })).toBe(0);
      expect(await db.contact.findUnique({ where: { id: contact.id } })).not.toBeNull();
      expectError(await org.owner.api.delete(`/v1/topics/${created.body.id}`), 404, "NOT_FOUND");
    });

    it("answers 404 for a missing id and 400 for a malformed one", async () => {
      const missing = randomId();
      expectError(await org.owner.api.get(`/v1/topics/${missing}`), 404, "NOT_FOUND");
      expectError(await org.owner.api.put(`/v1/topics/${missing}`, { name: "x" }), 404, "NOT_FOUND");
      expectError(await org.owner.api.delete(`/v1/topics/${missing}`), 404, "NOT_FOUND");
      const error = expectError(await org.owner.api.get("/v1/topics/not-a-uuid"), 400, "VALIDATION_ERROR");
      expect(error.details?.[0].path).toBe("id");
    });

    it("answers another organization's topic exactly like a missing one and changes nothing", async () => {
      const theirs = await createTopic(other, { name: "Theirs" });
      const id = theirs.body.id;
      expectError(await org.owner.api.get(`/v1/topics/${id}`), 404, "NOT_FOUND");
      expectError(await org.owner.api.put(`/v1/topics/${id}`, { name: "Hijacked" }), 404, "NOT_FOUND");
      expectError(await org.owner.api.delete(`/v1/topics/${id}`), 404, "NOT_FOUND");
      expect(await other.owner.api.get(`/v1/topics/${id}`).then((r) => r.body)).toEqual(theirs.body);
    });

    it("answers 401 without a credential", async () => {
      const created = await createTopic(org);
      expectError(await client(null).get(`/v1/topics/${created.body.id}`), 401, "UNAUTHORIZED");
      expectError(await client(null).put(`/v1/topics/${created.body.id}`, { name: "x" }), 401, "UNAUTHORIZED");
      expectError(await client(null).delete(`/v1/topics/${created.body.id}`), 401, "UNAUTHORIZED");
      expect(await db.topic.findUnique({ where: { id: created.body.id } })).not.toBeNull();
    });
  });

  describe("credentials", () => {
    it("answers 401 to a missing or revoked credential on every topic operation, changing nothing", async () => {
      const revoked = await org.owner.api.post("/v1/api-keys", { name: "revoked" });
      expect((await org.owner.api.delete(`/v1/api-keys/${revoked.body.id}`)).body).toEqual({ success: true });
      const created = await createTopic(org);
      const state = () => db.topic.findMany({ where: { organization_id: org.organizationId }, orderBy: { id: "asc" } });
      const before = await state();
      for (const op of topicsOperations) {
        const path = op.path.replace("{id}", created.body.id);
        for (const token of [null, revoked.body.token as string]) {
          const result = await request(op.method, path, { token, body: op.body ? { name: "Changed", default_subscription: "opt_out" } : undefined });
          expect(result.status, `${op.method} ${path}`).toBe(401);
          expectError(result, 401, "UNAUTHORIZED");
        }
      }
      expect(await state()).toEqual(before);
    });
  });
});
