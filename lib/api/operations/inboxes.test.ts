import { beforeAll, describe, expect, it } from "vitest";
import { openSecret } from "@/lib/crypto/secret-box";
import { db } from "@/lib/db";
import { client, createTestOrg, expectError, randomId, request, type TestOrg } from "@/lib/testing/api";
import { inboxesOperations } from "./inboxes";

const input = {
  name: "Sales — Ada",
  from_email: "ada@example.com",
  from_name: "Ada Lovelace",
  reply_to: "replies@example.com",
  smtp: { host: "smtp.example.com", port: 587, secure: false, username: "ada@example.com", password: "smtp-pass-1" },
  imap: { host: "imap.example.com", port: 993, secure: true, username: "ada@example.com", password: "imap-pass-1" },
};

describe("Inboxes", () => {
  let org: TestOrg;
  let other: TestOrg;
  let theirs: string;

  beforeAll(async () => {
    org = await createTestOrg();
    other = await createTestOrg();
    theirs = (await other.owner.api.post("/v1/inboxes", input)).body.id;
  });

  const theirRow = () => db.inbox.findUniqueOrThrow({ where: { id: theirs } });
  const create = async (extra: object = {}) => (await org.owner.api.post("/v1/inboxes", { ...input, ...extra })).body;

  describe("POST /v1/inboxes", () => {
    it("creates an inbox, seals the passwords and never returns them", async () => {
      const created = await org.owner.api.post("/v1/inboxes", input);
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.any(String),
        organization_id: org.organizationId,
        name: "Sales — Ada",
        from_email: "ada@example.com",
        from_name: "Ada Lovelace",
        reply_to: "replies@example.com",
        daily_limit: 50,
        paused: false,
        paused_reason: null,
        paused_at: null,
        last_error: null,
        auth: { type: "password" },
        status: "active",
        failed_at: null,
        verification: { status: "unverified", method: null, confirmed_at: null, confirmation_sent_at: null, confirmation_expires_at: null },
        smtp: { host: "smtp.example.com", port: 587, secure: false, username: "ada@example.com", has_password: true },
        imap: { host: "imap.example.com", port: 993, secure: true, username: "ada@example.com", has_password: true },
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      const row = await db.inbox.findUniqueOrThrow({ where: { id: created.body.id } });
      expect(row.smtp_password_encrypted).not.toContain("smtp-pass-1");
      expect(openSecret(row.smtp_password_encrypted!)).toBe("smtp-pass-1");
      expect(openSecret(row.imap_password_encrypted!)).toBe("imap-pass-1");
      const fetched = await org.owner.api.get(`/v1/inboxes/${created.body.id}`);
      const listed = await org.owner.api.get("/v1/inboxes");
      for (const answer of [created.body, fetched.body, listed.body]) {
        expect(JSON.stringify(answer)).not.toMatch(/pass-1|v1\./);
      }
    });

    it("creates an SMTP-only inbox without credentials and with a daily limit", async () => {
      const created = await org.owner.api.post("/v1/inboxes", {
        name: "Relay",
        from_email: "news@example.com",
        daily_limit: 10_000,
        smtp: { host: "127.0.0.1", port: 2525, secure: false },
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        from_name: null,
        reply_to: null,
        daily_limit: 10_000,
        smtp: { host: "127.0.0.1", port: 2525, secure: false, username: null, has_password: false },
        imap: null,
      });
    });

    it("validates every field", async () => {
      const cases: [object, string[]][] = [
        [{ name: "" }, ["name"]],
        [{ name: "x".repeat(201) }, ["name"]],
        [{ from_email: "not-an-email" }, ["from_email"]],
        [{ reply_to: "nope" }, ["reply_to"]],
        [{ from_name: "a\u0000" }, ["from_name"]],
        [{ daily_limit: 0 }, ["daily_limit"]],
        [{ daily_limit: 10_001 }, ["daily_limit"]],
        [{ daily_limit: 1.5 }, ["daily_limit"]],
        [{ smtp: undefined }, ["smtp"]],
        [{ smtp: { ...input.smtp, host: "bad host!" } }, ["smtp.host"]],
        [{ smtp: { ...input.smtp, host: "" } }, ["smtp.host"]],
        [{ smtp: { ...input.smtp, port: 0 } }, ["smtp.port"]],
        [{ smtp: { ...input.smtp, port: 65_536 } }, ["smtp.port"]],
        [{ smtp: { ...input.smtp, port: "587" } }, ["smtp.port"]],
        [{ smtp: { ...input.smtp, secure: "yes" } }, ["smtp.secure"]],
        [{ smtp: { ...input.smtp, password: "" } }, ["smtp.password"]],
        [{ imap: { ...input.imap, username: undefined } }, ["imap.username"]],
        [{ imap: { ...input.imap, password: undefined } }, ["imap.password"]],
        [{ imap: { ...input.imap, port: -1 } }, ["imap.port"]],
        [{ imap: "imap.example.com" }, ["imap"]],
      ];
      for (const [override, paths] of cases) {
        const error = expectError(await org.owner.api.post("/v1/inboxes", { ...input, ...override }), 400, "VALIDATION_ERROR");
        expect(
          error.details?.map((d) => d.path),
          JSON.stringify(override).slice(0, 80),
        ).toEqual(paths);
      }
      const missing = expectError(await org.owner.api.post("/v1/inboxes", {}), 400, "VALIDATION_ERROR");
      expect(missing.details?.map((d) => d.path).sort()).toEqual(["from_email", "name", "smtp"]);
    });

    it("answers 401 without credential", async () => {
      expectError(await client(null).post("/v1/inboxes", input), 401, "UNAUTHORIZED");
    });
  });

  describe("GET /v1/inboxes", () => {
    it("lists every inbox newest first, or a cursor page with limit", async () => {
      const fresh = await createTestOrg();
      const made: string[] = [];
      for (let i = 0; i < 3; i++) made.unshift((await fresh.owner.api.post("/v1/inboxes", { ...input, name: `I${i}` })).body.id);
      const all = await fresh.owner.api.get("/v1/inboxes");
      expect(all.body).toMatchObject({ object: "list", has_more: false });
      expect(all.body.data.map((i: { id: string }) => i.id)).toEqual(made);
      const first = await fresh.owner.api.get("/v1/inboxes?limit=2");
      expect(first.body.has_more).toBe(true);
      expect(first.body.data.map((i: { id: string }) => i.id)).toEqual(made.slice(0, 2));
      const next = await fresh.owner.api.get(`/v1/inboxes?limit=2&after=${made[1]}`);
      expect(next.body).toMatchObject({ has_more: false, data: [{ id: made[2] }] });
      const back = await fresh.owner.api.get(`/v1/inboxes?before=${made[2]}`);
      expect(back.body.data.map((i: { id: string }) => i.id)).toEqual(made.slice(0, 2));
    });

    it("returns more than a default page when no limit is given", async () => {
      const fresh = await createTestOrg();
      await db.inbox.createMany({
        data: Array.from({ length: 25 }, (_, i) => ({
          organization_id: fresh.organizationId,
          name: `I${i}`,
          from_email: "a@example.com",
          smtp_host: "smtp.example.com",
          smtp_port: 587,
        })),
      });
      const all = await fresh.owner.api.get("/v1/inboxes");
      expect(all.body.data).toHaveLength(25);
      expect(all.body.has_more).toBe(false);
    });

    it("answers 422 for bad pagination and 401 without credential", async () => {
      for (const query of [
        "limit=0",
        "limit=101",
        "limit=x",
        "before=1",
        `after=${theirs}`,
        `before=${randomId()}`,
        `after=${randomId()}&before=${randomId()}`,
      ]) {
        const result = await org.owner.api.get(`/v1/inboxes?${query}`);
        expect(result.status, query).toBe(422);
        expect(result.body).toMatchObject({ name: "validation_error", statusCode: 422 });
      }
      expectError(await client(null).get("/v1/inboxes"), 401, "UNAUTHORIZED");
    });
  });

  describe("GET /v1/inboxes/{id}", () => {
    it("answers the record, 404 for missing and foreign ids, 400 for malformed, 401 without credential", async () => {
      const created = await create();
      expect((await org.owner.api.get(`/v1/inboxes/${created.id}`)).body).toEqual(created);
      expectError(await org.owner.api.get(`/v1/inboxes/${randomId()}`), 404, "NOT_FOUND");
      expectError(await org.owner.api.get(`/v1/inboxes/${theirs}`), 404, "NOT_FOUND");
      expect(expectError(await org.owner.api.get("/v1/inboxes/zzz"), 400, "VALIDATION_ERROR").details?.[0].path).toBe("id");
      expectError(await client(null).get(`/v1/inboxes/${created.id}`), 401, "UNAUTHORIZED");
    });
  });

  describe("PUT /v1/inboxes/{id}", () => {
    it("updates only the fields given and keeps passwords unless replaced", async () => {
      const created = await create();
      const renamed = await org.owner.api.put(`/v1/inboxes/${created.id}`, { name: "Renamed", daily_limit: 120, paused: true, from_name: null });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toMatchObject({ name: "Renamed", daily_limit: 120, paused: true, from_name: null, smtp: created.smtp, imap: created.imap });
      const port = await org.owner.api.put(`/v1/inboxes/${created.id}`, { smtp: { port: 465, secure: true } });
      expect(port.body.smtp).toEqual({ ...created.smtp, port: 465, secure: true });
      let row = await db.inbox.findUniqueOrThrow({ where: { id: created.id } });
      expect(openSecret(row.smtp_password_encrypted!)).toBe("smtp-pass-1");
      await org.owner.api.put(`/v1/inboxes/${created.id}`, { smtp: { password: "smtp-pass-2" }, imap: { password: "imap-pass-2" } });
      row = await db.inbox.findUniqueOrThrow({ where: { id: created.id } });
      expect(openSecret(row.smtp_password_encrypted!)).toBe("smtp-pass-2");
      expect(openSecret(row.imap_password_encrypted!)).toBe("imap-pass-2");
      const noAuth = await org.owner.api.put(`/v1/inboxes/${created.id}`, { smtp: { username: null, password: null } });
      expect(noAuth.body.smtp).toMatchObject({ username: null, has_password: false });
    });

    it("removes IMAP with null and requires every IMAP field to add it again", async () => {
      const created = await create();
      await db.inbox.update({ where: { id: created.id }, data: { imap_last_uid: 42 } });
      const removed = await org.owner.api.put(`/v1/inboxes/${created.id}`, { imap: null });
      expect(removed.body.imap).toBeNull();
      const row = await db.inbox.findUniqueOrThrow({ where: { id: created.id } });
      expect(row).toMatchObject({ imap_host: null, imap_password_encrypted: null, imap_last_uid: null });
      const partial = expectError(
        await org.owner.api.put(`/v1/inboxes/${created.id}`, { imap: { host: "imap.example.com", port: 993 } }),
        400,
        "VALIDATION_ERROR",
      );
      expect(partial.details?.map((d) => d.path)).toEqual(["imap.secure", "imap.username", "imap.password"]);
      expect((await org.owner.api.get(`/v1/inboxes/${created.id}`)).body.imap).toBeNull();
      const added = await org.owner.api.put(`/v1/inboxes/${created.id}`, { imap: input.imap });
      expect(added.body.imap).toEqual({ host: "imap.example.com", port: 993, secure: true, username: "ada@example.com", has_password: true });
    });

    it("restarts reply reading when the mailbox changes and clears the last error when settings change", async () => {
      const created = await create();
      await db.inbox.update({ where: { id: created.id }, data: { imap_last_uid: 42, last_error: "535 auth failed", last_error_at: new Date() } });
      await org.owner.api.put(`/v1/inboxes/${created.id}`, { imap: { port: 143, secure: false } });
      let row = await db.inbox.findUniqueOrThrow({ where: { id: created.id } });
      expect(row).toMatchObject({ imap_port: 143, imap_last_uid: 42, last_error: null, last_error_at: null });
      await org.owner.api.put(`/v1/inboxes/${created.id}`, { imap: { username: "other@example.com" } });
      row = await db.inbox.findUniqueOrThrow({ where: { id: created.id } });
      expect(row).toMatchObject({ imap_username: "other@example.com", imap_last_uid: null });
    });

    it("validates the body", async () => {
      const created = await create();
      const cases: [object, string][] = [
        [{ name: "" }, "name"],
        [{ from_email: "x" }, "from_email"],
        [{ daily_limit: 0 }, "daily_limit"],
        [{ paused: "yes" }, "paused"],
        [{ smtp: { port: 70_000 } }, "smtp.port"],
        [{ smtp: { host: "-bad-.example.com" } }, "smtp.host"],
        [{ smtp: null }, "smtp"],
        [{ imap: { port: 0 } }, "imap.port"],
      ];
      for (const [body, path] of cases) {
        const error = expectError(await org.owner.api.put(`/v1/inboxes/${created.id}`, body), 400, "VALIDATION_ERROR");
        expect(
          error.details?.map((d) => d.path),
          JSON.stringify(body),
        ).toEqual([path]);
      }
      expect((await org.owner.api.get(`/v1/inboxes/${created.id}`)).body).toEqual(created);
    });

    it("404s on missing and foreign ids without changing them, 401 without credential", async () => {
      expectError(await org.owner.api.put(`/v1/inboxes/${randomId()}`, { name: "x" }), 404, "NOT_FOUND");
      const before = await theirRow();
      expectError(await org.owner.api.put(`/v1/inboxes/${theirs}`, { name: "hijacked", smtp: { host: "evil.example.com" } }), 404, "NOT_FOUND");
      expect(await theirRow()).toEqual(before);
      expectError(await client(null).put(`/v1/inboxes/${theirs}`, { name: "x" }), 401, "UNAUTHORIZED");
    });
  });

  describe("DELETE /v1/inboxes/{id}", () => {
    it("deletes the inbox and clears it from broadcasts, templates and threads", async () => {
      const created = await create();
      const kept = await create();
      const organization_id = org.organizationId;
      const broadcast = await db.broadcast.create({
        data: { organization_id, name: "B", subject: "S", from_email: "a@example.com", inbox_id: created.id, inbox_ids: [created.id, kept.id] },
      });
      const template = await db.template.create({ data: { organization_id, name: "T", subject: "S", inbox_id: created.id } });
      const thread = await db.thread.create({ data: { organization_id, subject: "S", inbox_id: created.id } });
      expect(await org.owner.api.delete(`/v1/inboxes/${created.id}`)).toMatchObject({ status: 200, body: { success: true } });
      expect(await db.inbox.count({ where: { id: created.id } })).toBe(0);
      expect(await db.broadcast.findUniqueOrThrow({ where: { id: broadcast.id } })).toMatchObject({ inbox_id: null, inbox_ids: [kept.id] });
      expect((await db.template.findUniqueOrThrow({ where: { id: template.id } })).inbox_id).toBeNull();
      expect((await db.thread.findUniqueOrThrow({ where: { id: thread.id } })).inbox_id).toBeNull();
      expectError(await org.owner.api.delete(`/v1/inboxes/${created.id}`), 404, "NOT_FOUND");
    });

    it("404s on foreign ids and keeps them, 400 on malformed, 401 without credential", async () => {
      const theirBroadcast = await db.broadcast.create({
        data: { organization_id: other.organizationId, name: "B", subject: "S", from_email: "a@example.com", inbox_id: theirs, inbox_ids: [theirs] },
      });
      expectError(await org.owner.api.delete(`/v1/inboxes/${theirs}`), 404, "NOT_FOUND");
      expect((await theirRow()).id).toBe(theirs);
      expect(await db.broadcast.findUniqueOrThrow({ where: { id: theirBroadcast.id } })).toMatchObject({ inbox_id: theirs, inbox_ids: [theirs] });
      expectError(await org.owner.api.delete("/v1/inboxes/123"), 400, "VALIDATION_ERROR");
      expectError(await client(null).delete(`/v1/inboxes/${theirs}`), 401, "UNAUTHORIZED");
    });
  });

  describe("credentials", () => {
    it("answers 401 to a missing or revoked credential on every inbox operation, changing nothing", async () => {
      const revoked = await org.owner.api.post("/v1/api-keys", { name: "revoked" });
      expect((await org.owner.api.delete(`/v1/api-keys/${revoked.body.id}`)).body).toEqual({ success: true });
      const created = await create();
      const state = () => db.inbox.findMany({ where: { organization_id: org.organizationId }, orderBy: { id: "asc" } });
      const before = await state();
      for (const op of inboxesOperations) {
        const path = op.path.replace("{id}", created.id);
        for (const token of [null, revoked.body.token as string]) {
          const result = await request(op.method, path, { token, body: op.body ? { ...input, name: "Changed" } : undefined });
          expect(result.status, `${op.method} ${path}`).toBe(401);
          expectError(result, 401, "UNAUTHORIZED");
        }
      }
      expect(await state()).toEqual(before);
    });
  });
});
