import { beforeAll, describe, expect, it } from "vitest";
import { openSecret } from "@/lib/crypto/secret-box";
import { db } from "@/lib/db";
import { client, createTestOrg, expectError, randomId, request, type TestOrg } from "@/lib/testing/api";
import { webhooksOperations } from "./webhooks";

const body = { url: "https://hooks.example.test/in", events: ["email.sent", "email.bounced"] };

describe("Webhooks", () => {
  let org: TestOrg;
  let other: TestOrg;
  let theirs: { id: string; url: string };

  beforeAll(async () => {
    org = await createTestOrg();
    other = await createTestOrg();
    theirs = (await other.owner.api.post("/v1/webhooks", { url: "https://their.example.test/h", events: ["contact.created"] })).body;
  });

  const theirRow = () => db.webhook.findUniqueOrThrow({ where: { id: theirs.id } });

  describe("POST /v1/webhooks", () => {
    it("creates an enabled webhook and shows its signing secret once", async () => {
      const created = await org.owner.api.post("/v1/webhooks", body);
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.any(String),
        organization_id: org.organizationId,
        url: body.url,
        events: body.events,
        active: true,
        failure_count: 0,
        disabled_reason: null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+=*$/),
      });
      expect(Buffer.from(created.body.secret.slice(6), "base64").length).toBe(32);
      const row = await db.webhook.findUniqueOrThrow({ where: { id: created.body.id } });
      expect(row.secret_encrypted).not.toContain(created.body.secret.slice(6));
      expect(openSecret(row.secret_encrypted)).toBe(created.body.secret);
      const fetched = await org.owner.api.get(`/v1/webhooks/${created.body.id}`);
      const listed = await org.owner.api.get("/v1/webhooks");
      for (const answer of [fetched.body, listed.body]) expect(JSON.stringify(answer)).not.toContain(created.body.secret);
      expect(fetched.body.secret).toBeUndefined();
    });

    it("ignores server-owned fields in the body", async () => {
      const created = await org.owner.api.post("/v1/webhooks", {
        ...body,
        id: randomId(),
        organization_id: other.organizationId,
        active: false,
        failure_count: 9,
        secret: "whsec_chosen",
        created_at: "2001-01-01T00:00:00.000Z",
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ organization_id: org.organizationId, active: true, failure_count: 0 });
      expect(created.body.secret).not.toBe("whsec_chosen");
      expect(created.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(created.body.created_at).not.toBe("2001-01-01T00:00:00.000Z");
      const toggled = await org.owner.api.put(`/v1/webhooks/${created.body.id}`, { active: false, failure_count: 3 });
      expect(toggled.body).toMatchObject({ active: true, failure_count: 0 });
    });

    it("accepts http URLs and drops repeated events", async () => {
      const created = await org.owner.api.post("/v1/webhooks", {
        url: "http://localhost:4000/hook",
        events: ["email.opened", "email.opened", "broadcast.sent"],
      });
      expect(created.status).toBe(201);
      expect(created.body.events).toEqual(["email.opened", "broadcast.sent"]);
    });

    it("validates url and events", async () => {
      for (const [input, path] of [
        [{ events: ["email.sent"] }, "url"],
        [{ url: "ftp://example.test/x", events: ["email.sent"] }, "url"],
        [{ url: "not a url", events: ["email.sent"] }, "url"],
        [{ url: `https://example.test/${"a".repeat(2048)}`, events: ["email.sent"] }, "url"],
        [{ url: "https://example.test/\u0000", events: ["email.sent"] }, "url"],
        [{ url: body.url }, "events"],
        [{ url: body.url, events: [] }, "events"],
        [{ url: body.url, events: "email.sent" }, "events"],
        [{ url: body.url, events: ["email.sent", "email.exploded"] }, "events.1"],
      ] as const) {
        const error = expectError(await org.owner.api.post("/v1/webhooks", input), 400, "VALIDATION_ERROR");
        expect(
          error.details?.map((d) => d.path),
          JSON.stringify(input).slice(0, 80),
        ).toEqual([path]);
      }
    });

    it("answers 401 without credential", async () => {
      expectError(await client(null).post("/v1/webhooks", body), 401, "UNAUTHORIZED");
    });
  });

  describe("GET /v1/webhooks", () => {
    it("lists every webhook of the organization newest first, or a page with limit", async () => {
      const fresh = await createTestOrg();
      const made = [];
      for (let i = 0; i < 3; i++) made.push((await fresh.owner.api.post("/v1/webhooks", { ...body, url: `https://e.test/${i}` })).body.id);
      const all = await fresh.owner.api.get("/v1/webhooks");
      expect(all.body).toMatchObject({ object: "list", has_more: false });
      expect(all.body.data.map((w: { id: string }) => w.id)).toEqual([...made].reverse());
      const page = await fresh.owner.api.get("/v1/webhooks?limit=2");
      expect(page.body.has_more).toBe(true);
      expect(page.body.data.map((w: { id: string }) => w.id)).toEqual([made[2], made[1]]);
      const next = await fresh.owner.api.get(`/v1/webhooks?limit=2&after=${made[1]}`);
      expect(next.body).toMatchObject({ has_more: false, data: [{ id: made[0] }] });
      const back = await fresh.owner.api.get(`/v1/webhooks?limit=2&before=${made[0]}`);
      expect(back.body.data.map((w: { id: string }) => w.id)).toEqual([made[2], made[1]]);
      expect(all.body.data.map((w: { id: string }) => w.id)).not.toContain(theirs.id);
    });

    it("returns more than a default page when no limit is given", async () => {
      const fresh = await createTestOrg();
      await db.webhook.createMany({
        data: Array.from({ length: 25 }, (_, i) => ({
          organization_id: fresh.organizationId,
          url: `https://e.test/${i}`,
          events: ["email.sent"],
          secret_encrypted: "x",
        })),
      });
      const all = await fresh.owner.api.get("/v1/webhooks");
      expect(all.body.data).toHaveLength(25);
      expect(all.body.has_more).toBe(false);
    });

    it("answers 422 for bad pagination and 401 without credential", async () => {
      for (const query of ["limit=0", "limit=101", "after=x", `after=${theirs.id}`, `after=${randomId()}&before=${randomId()}`]) {
        const result = await org.owner.api.get(`/v1/webhooks?${query}`);
        expect(result.status, query).toBe(422);
        expect(result.body).toMatchObject({ name: "validation_error", statusCode: 422 });
      }
      expectError(await client(null).get("/v1/webhooks"), 401, "UNAUTHORIZED");
    });
  });

  describe("GET /v1/webhooks/{id}", () => {
    it("answers the record, 404 for missing and foreign ids, 400 for malformed, 401 without credential", async () => {
      const created = await org.owner.api.post("/v1/webhooks", body);
      const fetched = await org.owner.api.get(`/v1/webhooks/${created.body.id}`);
      expect(fetched.body).toEqual({ ...created.body, secret: undefined });
      expectError(await org.owner.api.get(`/v1/webhooks/${randomId()}`), 404, "NOT_FOUND");
      expectError(await org.owner.api.get(`/v1/webhooks/${theirs.id}`), 404, "NOT_FOUND");
      expect(expectError(await org.owner.api.get("/v1/webhooks/abc"), 400, "VALIDATION_ERROR").details?.[0].path).toBe("id");
      expectError(await client(null).get(`/v1/webhooks/${created.body.id}`), 401, "UNAUTHORIZED");
    });
  });

  describe("PUT /v1/webhooks/{id}", () => {
    it("changes only the fields given and keeps the secret", async () => {
      const created = await org.owner.api.post("/v1/webhooks", body);
      const sealedBefore = (await db.webhook.findUniqueOrThrow({ where: { id: created.body.id } })).secret_encrypted;
      const updated = await org.owner.api.put(`/v1/webhooks/${created.body.id}`, { events: ["contact.updated"] });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ url: body.url, events: ["contact.updated"], active: true });
      const moved = await org.owner.api.put(`/v1/webhooks/${created.body.id}`, { url: "https://new.example.test/h" });
      expect(moved.body).toMatchObject({ url: "https://new.example.test/h", events: ["contact.updated"] });
      expect(moved.body.secret).toBeUndefined();
      expect((await db.webhook.findUniqueOrThrow({ where: { id: created.body.id } })).secret_encrypted).toBe(sealedBefore);
    });

    it("validates, 404s on missing and foreign ids without changing them, 401 without credential", async () => {
      const created = await org.owner.api.post("/v1/webhooks", body);
      for (const [input, path] of [
        [{ url: "mailto:a@b.test" }, "url"],
        [{ events: [] }, "events"],
        [{ events: ["nope"] }, "events.0"],
      ] as const) {
        const error = expectError(await org.owner.api.put(`/v1/webhooks/${created.body.id}`, input), 400, "VALIDATION_ERROR");
        expect(error.details?.map((d) => d.path)).toEqual([path]);
      }
      expectError(await org.owner.api.put(`/v1/webhooks/${randomId()}`, { events: ["email.sent"] }), 404, "NOT_FOUND");
      const before = await theirRow();
      expectError(await org.owner.api.put(`/v1/webhooks/${theirs.id}`, { url: "https://evil.example.test/" }), 404, "NOT_FOUND");
      expect(await theirRow()).toEqual(before);
      expectError(await client(null).put(`/v1/webhooks/${created.body.id}`, { events: ["email.sent"] }), 401, "UNAUTHORIZED");
    });
  });

  describe("DELETE /v1/webhooks/{id}", () => {
    it("deletes the webhook and its deliveries", async () => {
      const created = await org.owner.api.post("/v1/webhooks", body);
      await db.webhookDelivery.create({
        data: { organization_id: org.organizationId, webhook_id: created.body.id, event_type: "email.sent", payload: {} },
      });
      expect(await org.owner.api.delete(`/v1/webhooks/${created.body.id}`)).toMatchObject({ status: 200, body: { success: true } });
      expect(await db.webhook.count({ where: { id: created.body.id } })).toBe(0);
      expect(await db.webhookDelivery.count({ where: { webhook_id: created.body.id } })).toBe(0);
      expectError(await org.owner.api.delete(`/v1/webhooks/${created.body.id}`), 404, "NOT_FOUND");
    });

    it("404s on foreign ids and keeps them, 400 on malformed, 401 without credential", async () => {
      expectError(await org.owner.api.delete(`/v1/webhooks/${theirs.id}`), 404, "NOT_FOUND");
      expect((await theirRow()).id).toBe(theirs.id);
      expectError(await org.owner.api.delete("/v1/webhooks/1"), 400, "VALIDATION_ERROR");
      expectError(await client(null).delete(`/v1/webhooks/${theirs.id}`), 401, "UNAUTHORIZED");
    });
  });

  describe("PUT /v1/webhooks/{id}/toggle", () => {
    it("flips the state and answers the new one", async () => {
      const created = await org.owner.api.post("/v1/webhooks", body);
      const off = await org.owner.api.put(`/v1/webhooks/${created.body.id}/toggle`);
      expect(off).toMatchObject({ status: 200, body: { success: true, active: false } });
      expect((await org.owner.api.get(`/v1/webhooks/${created.body.id}`)).body.active).toBe(false);
      const on = await org.owner.api.put(`/v1/webhooks/${created.body.id}/toggle`);
      expect(on.body).toEqual({ success: true, active: true });
    });

    it("enabling a webhook the service disabled resets its failures", async () => {
      const created = await org.owner.api.post("/v1/webhooks", body);
      await db.webhook.update({
        where: { id: created.body.id },
        data: { active: false, failure_count: 12, disabled_reason: "12 failed deliveries", updated_at: new Date("2020-01-01T00:00:00.000Z") },
      });
      expect((await org.owner.api.put(`/v1/webhooks/${created.body.id}/toggle`)).body.active).toBe(true);
      const row = await db.webhook.findUniqueOrThrow({ where: { id: created.body.id } });
      expect(row).toMatchObject({ active: true, failure_count: 0, disabled_reason: null });
      expect(row.updated_at.getTime()).toBeGreaterThan(Date.parse("2025-01-01T00:00:00.000Z"));
    });

    it("is atomic: concurrent toggles each see a distinct state", async () => {
      const created = await org.owner.api.post("/v1/webhooks", body);
      const answers = await Promise.all(Array.from({ length: 10 }, () => org.owner.api.put(`/v1/webhooks/${created.body.id}/toggle`)));
      const states = answers.map((a) => a.body.active);
      expect(states.filter(Boolean)).toHaveLength(5);
      expect((await db.webhook.findUniqueOrThrow({ where: { id: created.body.id } })).active).toBe(true);
    });

    it("404s on missing and foreign ids without flipping them, 400 on malformed, 401 without credential", async () => {
      expectError(await org.owner.api.put(`/v1/webhooks/${randomId()}/toggle`), 404, "NOT_FOUND");
      const before = await theirRow();
      expectError(await org.owner.api.put(`/v1/webhooks/${theirs.id}/toggle`), 404, "NOT_FOUND");
      expect(await theirRow()).toEqual(before);
      expect(expectError(await org.owner.api.put("/v1/webhooks/zz/toggle"), 400, "VALIDATION_ERROR").details?.[0].path).toBe("id");
      expectError(await client(null).put(`/v1/webhooks/${theirs.id}/toggle`), 401, "UNAUTHORIZED");
      expect((await theirRow()).active).toBe(before.active);
    });
  });

  describe("GET /v1/webhooks/{id}/deliveries", () => {
    it("lists deliveries newest first with cursor pages", async () => {
      const created = await org.owner.api.post("/v1/webhooks", body);
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const row = await db.webhookDelivery.create({
          data: {
            organization_id: org.organizationId,
            webhook_id: created.body.id,
            event_type: "email.sent",
            payload: { n: i },
            status: i === 0 ? "succeeded" : "failed",
            attempts: i + 1,
            response_status: i === 0 ? 200 : 500,
            last_error: i === 0 ? null : "HTTP 500",
            delivered_at: i === 0 ? new Date("2026-03-01T00:00:01.000Z") : null,
            created_at: new Date(Date.parse("2026-03-01T00:00:00.000Z") + i * 1000),
          },
        });
        ids.unshift(row.id);
      }
      const first = await org.owner.api.get(`/v1/webhooks/${created.body.id}/deliveries?limit=3`);
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ object: "list", has_more: true });
      expect(first.body.data.map((d: { id: string }) => d.id)).toEqual(ids.slice(0, 3));
      const next = await org.owner.api.get(`/v1/webhooks/${created.body.id}/deliveries?limit=3&after=${ids[2]}`);
      expect(next.body.has_more).toBe(false);
      expect(next.body.data.map((d: { id: string }) => d.id)).toEqual(ids.slice(3));
      expect(next.body.data[1]).toEqual({
        id: ids[4],
        webhook_id: created.body.id,
        event_type: "email.sent",
        status: "succeeded",
        attempts: 1,
        response_status: 200,
        last_error: null,
        created_at: "2026-03-01T00:00:00.000Z",
        delivered_at: "2026-03-01T00:00:01.000Z",
        next_attempt_at: expect.any(String),
        last_attempt_at: null,
        duration_ms: null,
      });
      const all = await org.owner.api.get(`/v1/webhooks/${created.body.id}/deliveries`);
      expect(all.body.data).toHaveLength(5);
    });

    it("404s for missing and foreign webhooks, 422 for bad cursors, 401 without credential", async () => {
      await db.webhookDelivery.create({ data: { organization_id: other.organizationId, webhook_id: theirs.id, event_type: "contact.created", payload: {} } });
      expectError(await org.owner.api.get(`/v1/webhooks/${theirs.id}/deliveries`), 404, "NOT_FOUND");
      expectError(await org.owner.api.get(`/v1/webhooks/${randomId()}/deliveries`), 404, "NOT_FOUND");
      const created = await org.owner.api.post("/v1/webhooks", body);
      const delivery = await db.webhookDelivery.create({
        data: { organization_id: org.organizationId, webhook_id: created.body.id, event_type: "email.sent", payload: {} },
      });
      const theirDelivery = await db.webhookDelivery.findFirstOrThrow({ where: { webhook_id: theirs.id } });
      for (const query of [
        "limit=0",
        "limit=500",
        "limit=x",
        "before=nope",
        `after=${randomId()}`,
        `after=${theirDelivery.id}`,
        `after=${delivery.id}&before=${delivery.id}`,
      ]) {
        expect((await org.owner.api.get(`/v1/webhooks/${created.body.id}/deliveries?${query}`)).status, query).toBe(422);
      }
      expectError(await client(null).get(`/v1/webhooks/${created.body.id}/deliveries`), 401, "UNAUTHORIZED");
    });
  });

  describe("credentials", () => {
    it("answers 401 to a missing or revoked credential on every webhook operation, changing nothing", async () => {
      const revoked = await org.owner.api.post("/v1/api-keys", { name: "revoked" });
      expect((await org.owner.api.delete(`/v1/api-keys/${revoked.body.id}`)).body).toEqual({ success: true });
      const created = await org.owner.api.post("/v1/webhooks", body);
      const state = async () => ({
        webhooks: await db.webhook.findMany({ where: { organization_id: org.organizationId }, orderBy: { id: "asc" } }),
        deliveries: await db.webhookDelivery.count({ where: { organization_id: org.organizationId } }),
      });
      const before = await state();
      for (const op of webhooksOperations) {
        const path = op.path.replace("{id}", created.body.id).replace("{deliveryId}", randomId());
        for (const token of [null, revoked.body.token as string]) {
          const result = await request(op.method, path, {
            token,
            body: op.body ? { url: "https://changed.example.test/h", events: ["email.opened"] } : undefined,
          });
          expect(result.status, `${op.method} ${path}`).toBe(401);
          expectError(result, 401, "UNAUTHORIZED");
        }
      }
      expect(await state()).toEqual(before);
    });
  });
});
