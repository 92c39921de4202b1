import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { client, createTestOrg, expectError, randomId, request, type TestOrg } from "@/lib/testing/api";
import { emailsOperations } from "./emails";

type Row = { id: string; to_email: string; status: string; created_at: string };

const BASE = Date.parse("2026-01-01T00:00:00.000Z");

async function insertEmail(organizationId: string, minute: number, data: Partial<Prisma.EmailUncheckedCreateInput> = {}) {
  return db.email.create({
    data: {
      organization_id: organizationId,
      message_id: `<${randomId()}@mail.example.test>`,
      from_email: "news@example.com",
      to_email: `person${minute}@example.org`,
      subject: `Email ${minute}`,
      status: "sent",
      created_at: new Date(BASE + minute * 60_000),
      ...data,
    },
  });
}

const ids = (body: { data: Row[] }) => body.data.map((row) => row.id);

describe("Emails", () => {
  let org: TestOrg;
  let other: TestOrg;
  let newestFirst: string[];
  let broadcastId: string;
  let templateId: string;
  let theirs: string;

  beforeAll(async () => {
    org = await createTestOrg();
    other = await createTestOrg();
    const broadcast = await db.broadcast.create({
      data: { organization_id: org.organizationId, name: "B", subject: "S", from_email: "news@example.com" },
    });
    broadcastId = broadcast.id;
    templateId = randomId();
    const rows = [];
    for (let minute = 0; minute < 25; minute++) {
      const extra: Partial<Prisma.EmailUncheckedCreateInput> = {};
      if (minute < 3) extra.broadcast_id = broadcastId;
      if (minute === 5) Object.assign(extra, { template_id: templateId, to_email: "Alice.Smith@Example.org" });
      if (minute === 6) Object.assign(extra, { to_email: "100%_sure@example.org" });
      if (minute === 7) Object.assign(extra, { from_email: "Sales@Other-Domain.io" });
      if (minute === 8) Object.assign(extra, { from_email: "x@sub.other-domain.io" });
      if (minute >= 20) extra.status = "bounced";
      rows.push(await insertEmail(org.organizationId, minute, extra));
    }
    newestFirst = rows.map((row) => row.id).reverse();
    theirs = (await insertEmail(other.organizationId, 30, { to_email: "alice.smith@example.org", status: "bounced" })).id;
  });

  describe("GET /v1/emails (page mode)", () => {
    it("pages with defaults page=1, limit=20, newest first", async () => {
      const result = await org.owner.api.get("/v1/emails");
      expect(result.status).toBe(200);
      expect(result.body.pagination).toEqual({ page: 1, limit: 20, total: 25, pages: 2 });
      expect(ids(result.body)).toEqual(newestFirst.slice(0, 20));
      expect(result.body.object).toBeUndefined();
      const second = await org.owner.api.get("/v1/emails?page=2");
      expect(second.body.pagination).toEqual({ page: 2, limit: 20, total: 25, pages: 2 });
      expect(ids(second.body)).toEqual(newestFirst.slice(20));
    });

    it("computes pages from limit and answers an empty page past the end", async () => {
      const third = await org.owner.api.get("/v1/emails?page=3&limit=10");
      expect(third.body.pagination).toEqual({ page: 3, limit: 10, total: 25, pages: 3 });
      expect(ids(third.body)).toEqual(newestFirst.slice(20, 25));
      const past = await org.owner.api.get("/v1/emails?page=4&limit=10");
      expect(past.status).toBe(200);
      expect(past.body.data).toEqual([]);
      expect(past.body.pagination.total).toBe(25);
      const exact = await org.owner.api.get("/v1/emails?limit=25");
      expect(exact.body.pagination.pages).toBe(1);
      const huge = await org.owner.api.get(`/v1/emails?page=${Number.MAX_SAFE_INTEGER}&limit=100`);
      expect(huge.status).toBe(200);
      expect(huge.body.data).toEqual([]);
    });

    it("answers 0 pages for an organization without emails", async () => {
      const empty = await createTestOrg();
      const result = await empty.owner.api.get("/v1/emails");
      expect(result.body).toEqual({ data: [], pagination: { page: 1, limit: 20, total: 0, pages: 0 } });
    });

    it("serializes the Email record with every documented field", async () => {
      const result = await org.owner.api.get(`/v1/emails?email_id=${newestFirst[24]}`);
      const record = result.body.data[0];
      expect(Object.keys(record).sort()).toEqual(
        [
          "id",
          "organization_id",
          "message_id",
          "direction",
          "from_email",
          "from_name",
          "to_email",
          "to",
          "cc",
          "bcc",
          "reply_to",
          "subject",
          "html_content",
          "text_content",
          "template_id",
          "broadcast_id",
          "thread_id",
          "parent_email_id",
          "contact_id",
          "inbox_id",
          "status",
          "provider_message_id",
          "metadata",
          "tags",
          "sent_at",
          "delivered_at",
          "opened_at",
          "clicked_at",
          "bounced_at",
          "complained_at",
          "bounce_type",
          "bounce_status",
          "bounce_diagnostic",
          "replied_at",
          "unsubscribed_at",
          "scheduled_at",
          "created_at",
          "attachments",
          "clicked_links",
          "opens",
          "track_opens",
          "track_clicks",
          "utm",
        ].sort(),
      );
      expect(record).toMatchObject({
        organization_id: org.organizationId,
        to_email: "person0@example.org",
        broadcast_id: broadcastId,
        status: "sent",
        created_at: "2026-01-01T00:00:00.000Z",
        attachments: [],
        opens: [],
        clicked_links: [],
        metadata: {},
      });
    });

    it("filters by recipient, case-insensitively and partially, with wildcards taken literally", async () => {
      const alice = await org.owner.api.get("/v1/emails?to=alice.SMITH");
      expect(alice.body.data.map((row: Row) => row.to_email)).toEqual(["Alice.Smith@Example.org"]);
      expect(alice.body.pagination.total).toBe(1);
      const percent = await org.owner.api.get(`/v1/emails?to=${encodeURIComponent("%_sure")}`);
      expect(percent.body.data.map((row: Row) => row.to_email)).toEqual(["100%_sure@example.org"]);
      const wildcard = await org.owner.api.get(`/v1/emails?to=${encodeURIComponent("%")}`);
      expect(wildcard.body.pagination.total).toBe(1);
      const none = await org.owner.api.get("/v1/emails?to=nobody");
      expect(none.body.pagination).toEqual({ page: 1, limit: 20, total: 0, pages: 0 });
    });

    it("filters by broadcast_id, email_id, template_id and status", async () => {
      const broadcast = await org.owner.api.get(`/v1/emails?broadcast_id=${broadcastId}`);
      expect(ids(broadcast.body)).toEqual(newestFirst.slice(22));
      const single = await org.owner.api.get(`/v1/emails?email_id=${newestFirst[3]}`);
      expect(ids(single.body)).toEqual([newestFirst[3]]);
      const template = await org.owner.api.get(`/v1/emails?template_id=${templateId}`);
      expect(template.body.data.map((row: Row) => row.to_email)).toEqual(["Alice.Smith@Example.org"]);
      const bounced = await org.owner.api.get("/v1/emails?status=bounced");
      expect(ids(bounced.body)).toEqual(newestFirst.slice(0, 5));
      const combined = await org.owner.api.get(`/v1/emails?status=sent&broadcast_id=${broadcastId}&limit=2`);
      expect(ids(combined.body)).toEqual(newestFirst.slice(22, 24));
      expect(combined.body.pagination).toEqual({ page: 1, limit: 2, total: 3, pages: 2 });
    });

    it("pages a recipient filter combined with every other filter the same way as those filters alone", async () => {
      const first = await org.owner.api.get(`/v1/emails?to=PERSON&status=sent&broadcast_id=${broadcastId}&domain=example.com&limit=2`);
      expect(ids(first.body)).toEqual(newestFirst.slice(22, 24));
      expect(first.body.pagination).toEqual({ page: 1, limit: 2, total: 3, pages: 2 });
      const second = await org.owner.api.get(`/v1/emails?to=person&status=sent&broadcast_id=${broadcastId}&limit=2&page=2`);
      expect(ids(second.body)).toEqual(newestFirst.slice(24, 25));
      const single = await org.owner.api.get(`/v1/emails?to=person&email_id=${newestFirst[23]}`);
      expect(ids(single.body)).toEqual([newestFirst[23]]);
      const otherTemplate = await org.owner.api.get(`/v1/emails?to=person&template_id=${templateId}`);
      expect(otherTemplate.body.data).toEqual([]);
      const otherStatus = await org.owner.api.get(`/v1/emails?to=person&status=bounced&broadcast_id=${broadcastId}`);
      expect(otherStatus.body.pagination.total).toBe(0);
    });

    it("filters by sender domain, case-insensitively and without matching subdomains", async () => {
      const result = await org.owner.api.get("/v1/emails?domain=OTHER-domain.io");
      expect(result.body.data.map((row: { from_email: string }) => row.from_email)).toEqual(["Sales@Other-Domain.io"]);
      const at = await org.owner.api.get(`/v1/emails?domain=${encodeURIComponent("@other-domain.io")}`);
      expect(at.body.pagination.total).toBe(1);
      const main = await org.owner.api.get("/v1/emails?domain=example.com");
      expect(main.body.pagination.total).toBe(23);
    });

    it("never shows another organization's emails", async () => {
      const result = await org.owner.api.get("/v1/emails?to=alice&limit=100");
      expect(ids(result.body)).not.toContain(theirs);
      const byId = await org.owner.api.get(`/v1/emails?email_id=${theirs}`);
      expect(byId.body.data).toEqual([]);
      const mine = await other.owner.api.get("/v1/emails");
      expect(ids(mine.body)).toEqual([theirs]);
    });

    it("answers 400 naming the field for malformed filters", async () => {
      for (const [query, path] of [
        ["broadcast_id=nope", "broadcast_id"],
        ["email_id=123", "email_id"],
        ["template_id=x", "template_id"],
        ["status=exploded", "status"],
        [`to=${encodeURIComponent("a\u0000b")}`, "to"],
        [`domain=${"d".repeat(254)}`, "domain"],
      ]) {
        const error = expectError(await org.owner.api.get(`/v1/emails?${query}`), 400, "VALIDATION_ERROR");
        expect(
          error.details?.map((d) => d.path),
          query,
        ).toEqual([path]);
      }
    });

    it("answers the 422 pagination body for bad page, limit and cursors", async () => {
      for (const query of [
        "limit=0",
        "limit=101",
        "limit=abc",
        "limit=2.5",
        "page=0",
        "page=-1",
        "page=two",
        "after=zzz",
        "before=123",
        `after=${randomId()}`,
        `before=${theirs}`,
        `after=${newestFirst[0]}&before=${newestFirst[1]}`,
        `after=${newestFirst[0]}&limit=0`,
      ]) {
        const result = await org.owner.api.get(`/v1/emails?${query}`);
        expect(result.status, query).toBe(422);
        expect(result.body).toMatchObject({ name: "validation_error", statusCode: 422 });
        expect(typeof result.body.message).toBe("string");
      }
    });

    it("answers 401 without a credential", async () => {
      expectError(await client(null).get("/v1/emails"), 401, "UNAUTHORIZED");
    });
  });

  describe("GET /v1/emails (cursor mode)", () => {
    it("walks forward with after and back with before, newest first", async () => {
      const first = await org.owner.api.get(`/v1/emails?after=${newestFirst[0]}&limit=10`);
      expect(first.status).toBe(200);
      expect(first.body.object).toBe("list");
      expect(first.body.pagination).toBeUndefined();
      expect(first.body.has_more).toBe(true);
      expect(ids(first.body)).toEqual(newestFirst.slice(1, 11));
      const second = await org.owner.api.get(`/v1/emails?after=${newestFirst[10]}&limit=10`);
      expect(ids(second.body)).toEqual(newestFirst.slice(11, 21));
      expect(second.body.has_more).toBe(true);
      const last = await org.owner.api.get(`/v1/emails?after=${newestFirst[20]}&limit=10`);
      expect(ids(last.body)).toEqual(newestFirst.slice(21));
      expect(last.body.has_more).toBe(false);
      const back = await org.owner.api.get(`/v1/emails?before=${newestFirst[11]}&limit=10`);
      expect(ids(back.body)).toEqual(newestFirst.slice(1, 11));
      expect(back.body.has_more).toBe(true);
      const top = await org.owner.api.get(`/v1/emails?before=${newestFirst[3]}&limit=10`);
      expect(ids(top.body)).toEqual(newestFirst.slice(0, 3));
      expect(top.body.has_more).toBe(false);
    });

    it("defaults to 20 items and applies the filters", async () => {
      const all = await org.owner.api.get(`/v1/emails?after=${newestFirst[0]}`);
      expect(ids(all.body)).toEqual(newestFirst.slice(1, 21));
      expect(all.body.has_more).toBe(true);
      const sent = await org.owner.api.get(`/v1/emails?status=sent&after=${newestFirst[0]}&limit=3`);
      expect(ids(sent.body)).toEqual(newestFirst.slice(5, 8));
      expect(sent.body.has_more).toBe(true);
      const broadcast = await org.owner.api.get(`/v1/emails?broadcast_id=${broadcastId}&before=${newestFirst[24]}`);
      expect(ids(broadcast.body)).toEqual(newestFirst.slice(22, 24));
      expect(broadcast.body.has_more).toBe(false);
    });
  });

  describe("GET /v1/emails/{id}", () => {
    it("answers the record with its events, oldest first, and its headers", async () => {
      const row = await insertEmail(org.organizationId, 100, {
        headers: { "List-Unsubscribe": "<https://example.test/u>" },
        opens: [{ at: "2026-01-01T02:00:00.000Z" }],
      });
      for (const [type, minute] of [
        ["delivered", 102],
        ["sent", 101],
        ["opened", 103],
      ] as const) {
        await db.event.create({
          data: {
            organization_id: org.organizationId,
            email_id: row.id,
            name: `email.${type}`,
            source: "sending",
            occurred_at: new Date(BASE + minute * 60_000),
          },
        });
      }
      const result = await org.owner.api.get(`/v1/emails/${row.id}`);
      expect(result.status).toBe(200);
      expect(result.body.id).toBe(row.id);
      expect(result.body.headers).toEqual({ "List-Unsubscribe": "<https://example.test/u>" });
      expect(result.body.opens).toEqual([{ at: "2026-01-01T02:00:00.000Z" }]);
      expect(result.body.events.map((event: { type: string }) => event.type)).toEqual(["sent", "delivered", "opened"]);
      expect(result.body.events[0]).toEqual({ id: expect.any(String), type: "sent", data: {}, created_at: "2026-01-01T01:41:00.000Z" });
      await db.email.delete({ where: { id: row.id } });
    });

    it("answers 404 for a missing id and another organization's email, 400 for a malformed id", async () => {
      expectError(await org.owner.api.get(`/v1/emails/${randomId()}`), 404, "NOT_FOUND");
      expectError(await org.owner.api.get(`/v1/emails/${theirs}`), 404, "NOT_FOUND");
      expect((await other.owner.api.get(`/v1/emails/${theirs}`)).status).toBe(200);
      const error = expectError(await org.owner.api.get("/v1/emails/not-a-uuid"), 400, "VALIDATION_ERROR");
      expect(error.details?.[0].path).toBe("id");
    });

    it("answers 401 without a credential", async () => {
      expectError(await client(null).get(`/v1/emails/${newestFirst[0]}`), 401, "UNAUTHORIZED");
    });
  });

  describe("credentials", () => {
    it("answers 401 to a missing or revoked credential on every email operation, changing nothing", async () => {
      const revoked = await org.owner.api.post("/v1/api-keys", { name: "revoked" });
      expect((await org.owner.api.delete(`/v1/api-keys/${revoked.body.id}`)).body).toEqual({ success: true });
      const state = () => db.email.findMany({ where: { organization_id: org.organizationId }, orderBy: { id: "asc" } });
      const before = await state();
      const send = { from: "news@example.com", to: "someone@example.org", subject: "Hi", text: "Hello" };
      for (const op of emailsOperations) {
        const path = op.path.replace("{id}", newestFirst[0]);
        for (const token of [null, revoked.body.token as string]) {
          const result = await request(op.method, path, { token, body: op.body ? send : undefined });
          expect(result.status, `${op.method} ${path}`).toBe(401);
          expectError(result, 401, "UNAUTHORIZED");
        }
      }
      expect(await state()).toEqual(before);
    });
  });
});
