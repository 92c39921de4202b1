import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import type { BroadcastStatus } from "@/lib/generated/prisma/enums";
import { client, createTestOrg, expectError, randomId, request, type TestOrg } from "@/lib/testing/api";
import { broadcastsOperations } from "./broadcasts";

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

const addInbox = (target: TestOrg, fields: { name?: string; from_email?: string; from_name?: string | null; reply_to?: string | null } = {}) =>
  db.inbox.create({
    data: {
      organization_id: target.organizationId,
      name: "Sales inbox",
      from_email: "sam@inbox.example",
      from_name: "Sam Seller",
      reply_to: "replies@inbox.example",
      smtp_host: "127.0.0.1",
      smtp_port: 2525,
      sender_confirmed_at: new Date(),
      ...fields,
    },
  });

const addSegment = (target: TestOrg) => db.segment.create({ data: { organization_id: target.organizationId, name: "Segment" } });
const addTopic = (target: TestOrg) => db.topic.create({ data: { organization_id: target.organizationId, name: "Topic" } });
const addTemplate = (target: TestOrg) => db.template.create({ data: { organization_id: target.organizationId, name: "Template", subject: "Subject" } });

/** Everything another organization could own that a broadcast body may name. */
async function ownRecords(target: TestOrg) {
  const [template, segment, segment2, topic, inbox, inbox2] = await Promise.all([
    addTemplate(target),
    addSegment(target),
    addSegment(target),
    addTopic(target),
    addInbox(target),
    addInbox(target, { from_email: "second@inbox.example" }),
  ]);
  return { template, segment, segment2, topic, inbox, inbox2 };
}

const setStatus = (id: string, status: BroadcastStatus) => db.broadcast.update({ where: { id }, data: { status } });

describe("Broadcasts", () => {
  let org: TestOrg;
  let other: TestOrg;
  let mine: Awaited<ReturnType<typeof ownRecords>>;
  let theirs: Awaited<ReturnType<typeof ownRecords>>;
  beforeAll(async () => {
    org = await createTestOrg();
    other = await createTestOrg();
    mine = await ownRecords(org);
    theirs = await ownRecords(other);
  });

  const createBroadcast = (target: TestOrg, body: Record<string, unknown> = {}) =>
    target.owner.api.post("/v1/broadcasts", { name: "Launch", subject: "We launched", from_email: "news@example.com", ...body });

  const snapshot = (target: TestOrg, id: string) => target.owner.api.get(`/v1/broadcasts/${id}`).then((r) => r.body);

  describe("POST /v1/broadcasts", () => {
    it("creates a draft (201) with every field of the record", async () => {
      const created = await createBroadcast(org, {
        from_name: "News",
        reply_to: "reply@example.com",
        preview_text: "Big news",
        html_content: "<p>Hello</p>",
        text_content: "Hello",
        content_json: null,
        template_id: mine.template.id,
        segment_id: mine.segment.id,
        topic_id: mine.topic.id,
        inbox_ids: [mine.inbox.id, mine.inbox2.id],
        sending_speed: "slow",
        scheduled_at: "2030-01-02T03:04:05+02:00",
        tags: ["launch", "q1"],
        sequence_exit_conditions: { exit_if_in_segment_ids: [mine.segment.id], exit_if_not_in_segment_ids: [mine.segment2.id] },
        sequence_mode: "marketing",
        sending_window: { days: ["mon", "wed"], start: "08:30", end: "24:00", timezone: "europe/berlin" },
        stop_on_company_reply: true,
      });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.any(String),
        organization_id: org.organizationId,
        name: "Launch",
        subject: "We launched",
        from_email: "news@example.com",
        from_name: "News",
        reply_to: "reply@example.com",
        preview_text: "Big news",
        html_content: "<p>Hello</p>",
        text_content: "Hello",
        content_json: null,
        template_id: mine.template.id,
        segment_id: mine.segment.id,
        topic_id: mine.topic.id,
        inbox_id: null,
        inbox_ids: [mine.inbox.id, mine.inbox2.id],
        sending_speed: "slow",
        status: "draft",
        total_recipients: 0,
        sent_count: 0,
        delivered_count: 0,
        opened_count: 0,
        clicked_count: 0,
        bounced_count: 0,
        soft_bounced_count: 0,
        complained_count: 0,
        replied_count: 0,
        unsubscribed_count: 0,
        failure_reason: null,
        paused_reason: null,
        paused_at: null,
        scheduled_at: "2030-01-02T01:04:05.000Z",
        started_at: null,
        completed_at: null,
        tags: ["launch", "q1"],
        sequence_exit_conditions: { exit_if_in_segment_ids: [mine.segment.id], exit_if_not_in_segment_ids: [mine.segment2.id] },
        sequence_mode: "marketing",
        sending_window: { days: ["mon", "wed"], start: "08:30", end: "24:00", timezone: "Europe/Berlin" },
        stop_on_company_reply: true,
        track_opens: true,
        track_clicks: true,
        utm: null,
        variants: null,
        ab_test: null,
        ab_decide_at: null,
        ab_winner_index: null,
        resend_of_id: null,
        resend_audience: null,
        created_by: org.owner.userId,
        created_at: expect.stringMatching(ISO_MS),
        updated_at: expect.stringMatching(ISO_MS),
      });
      const row = await db.broadcast.findUniqueOrThrow({ where: { id: created.body.id } });
      expect(row.organization_id).toBe(org.organizationId);
    });

    it("fills defaults and ignores server-owned fields", async () => {
      const member = await org.addMember("member");
      const created = await member.api.post("/v1/broadcasts", {
        name: "Minimal",
        subject: "S",
        from_email: "a@example.com",
        id: randomId(),
        organization_id: other.organizationId,
        status: "sent",
        sent_count: 99,
        created_by: other.owner.userId,
        created_at: "2001-01-01T00:00:00.000Z",
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        organization_id: org.organizationId,
        status: "draft",
        sent_count: 0,
        created_by: member.userId,
        from_name: null,
        reply_to: null,
        inbox_id: null,
        inbox_ids: [],
        sending_speed: null,
        sequence_mode: "sales",
        sequence_exit_conditions: null,
        sending_window: null,
        stop_on_company_reply: true,
        tags: [],
      });
      expect(created.body.created_at).not.toBe("2001-01-01T00:00:00.000Z");
    });

    it("takes the sender from the inbox for each field not given", async () => {
      const filled = await createBroadcast(org, { from_email: undefined, inbox_id: mine.inbox.id });
      expect(filled.status).toBe(201);
      expect(filled.body).toMatchObject({
        inbox_id: mine.inbox.id,
        from_email: "sam@inbox.example",
        from_name: "Sam Seller",
        reply_to: "replies@inbox.example",
        inbox_ids: [],
      });
      const mixed = await createBroadcast(org, { from_email: "own@example.com", reply_to: null, inbox_id: mine.inbox.id, inbox_ids: [] });
      expect(mixed.body).toMatchObject({ from_email: "own@example.com", from_name: "Sam Seller", reply_to: null });
    });

    it("requires from_email unless inbox_id supplies it", async () => {
      for (const patch of [{ from_email: undefined }, { from_email: undefined, inbox_id: null }, { from_email: undefined, inbox_ids: [mine.inbox.id] }]) {
        const error = expectError(await createBroadcast(org, patch), 400, "VALIDATION_ERROR");
        expect(error.details?.map((d) => d.path)).toEqual(["from_email"]);
      }
    });

    it("refuses inbox_id together with a non-empty inbox_ids", async () => {
      const error = expectError(await createBroadcast(org, { inbox_id: mine.inbox.id, inbox_ids: [mine.inbox2.id] }), 400, "VALIDATION_ERROR");
      expect(error.details?.map((d) => d.path)).toEqual(["inbox_ids"]);
    });

    it("refuses ids of another organization with 400 naming the field, and creates nothing", async () => {
      const cases: [string, Record<string, unknown>][] = [
        ["template_id", { template_id: theirs.template.id }],
        ["segment_id", { segment_id: theirs.segment.id }],
        ["topic_id", { topic_id: theirs.topic.id }],
        ["inbox_id", { inbox_id: theirs.inbox.id }],
        ["inbox_ids.1", { inbox_ids: [mine.inbox.id, theirs.inbox.id] }],
        ["sequence_exit_conditions.exit_if_in_segment_ids.0", { sequence_exit_conditions: { exit_if_in_segment_ids: [theirs.segment.id] } }],
        ["sequence_exit_conditions.exit_if_not_in_segment_ids.1", { sequence_exit_conditions: { exit_if_not_in_segment_ids: [mine.segment.id, randomId()] } }],
        ["template_id", { template_id: randomId() }],
      ];
      const before = await db.broadcast.count({ where: { organization_id: org.organizationId } });
      for (const [path, patch] of cases) {
        const error = expectError(await createBroadcast(org, patch), 400, "VALIDATION_ERROR");
        expect(error.details, path).toEqual([{ path, message: expect.any(String) }]);
      }
      expect(await db.broadcast.count({ where: { organization_id: org.organizationId } })).toBe(before);
    });

    it.each([
      ["name", { name: "" }],
      ["name", { name: undefined }],
      ["name", { name: "x".repeat(201) }],
      ["subject", { subject: "" }],
      ["subject", { subject: undefined }],
      ["subject", { subject: "a\u0000" }],
      ["from_email", { from_email: "nope" }],
      ["reply_to", { reply_to: "nope" }],
      ["preview_text", { preview_text: "x".repeat(501) }],
      ["html_content", { html_content: "x".repeat(1_000_001) }],
      ["text_content", { text_content: "x".repeat(1_000_001) }],
      ["template_id", { template_id: "t1" }],
      ["scheduled_at", { scheduled_at: "tomorrow" }],
      ["inbox_ids.0", { inbox_ids: ["x"] }],
      ["inbox_ids", { inbox_ids: "x" }],
      ["sending_speed", { sending_speed: "ludicrous" }],
      ["sequence_mode", { sequence_mode: "both" }],
      ["sequence_exit_conditions.exit_if_in_segment_ids.0", { sequence_exit_conditions: { exit_if_in_segment_ids: ["x"] } }],
      ["tags.0", { tags: ["Launch"] }],
      ["tags", { tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }],
    ])("refuses case %# with 400 naming %s", async (path, patch) => {
      const error = expectError(await createBroadcast(org, patch), 400, "VALIDATION_ERROR");
      expect(error.details?.map((d) => d.path)).toContain(path);
    });

    it("answers 401 without a credential", async () => {
      expectError(await client(null).post("/v1/broadcasts", { name: "a", subject: "b", from_email: "a@b.example" }), 401, "UNAUTHORIZED");
    });
  });

  describe("GET /v1/broadcasts", () => {
    it("returns every broadcast of the organization without limit, pages with limit", async () => {
      const fresh = await createTestOrg();
      const ids: string[] = [];
      for (let i = 0; i < 25; i++) ids.push((await createBroadcast(fresh, { name: `b${i}` })).body.id);
      await createBroadcast(other);
      const newestFirst = [...ids].reverse();

      const all = await fresh.owner.api.get("/v1/broadcasts");
      expect(all.status).toBe(200);
      expect(all.body).toMatchObject({ object: "list", has_more: false });
      expect(all.body.data.map((b: { id: string }) => b.id)).toEqual(newestFirst);

      const first = await fresh.owner.api.get("/v1/broadcasts?limit=10");
      expect(first.body.has_more).toBe(true);
      expect(first.body.data.map((b: { id: string }) => b.id)).toEqual(newestFirst.slice(0, 10));
      const next = await fresh.owner.api.get(`/v1/broadcasts?limit=10&after=${newestFirst[19]}`);
      expect(next.body.has_more).toBe(false);
      expect(next.body.data.map((b: { id: string }) => b.id)).toEqual(newestFirst.slice(20));
      const back = await fresh.owner.api.get(`/v1/broadcasts?limit=10&before=${newestFirst[10]}`);
      expect(back.body.data.map((b: { id: string }) => b.id)).toEqual(newestFirst.slice(0, 10));
    });

    it("answers the 422 body for bad paging parameters", async () => {
      const foreign = await createBroadcast(other);
      for (const query of [
        "limit=0",
        "limit=101",
        "limit=x",
        "after=1",
        `before=${randomId()}`,
        `after=${foreign.body.id}`,
        `after=${randomId()}&before=${randomId()}`,
      ]) {
        const result = await org.owner.api.get(`/v1/broadcasts?${query}`);
        expect(result.status, query).toBe(422);
        expect(result.body).toEqual({ name: "validation_error", statusCode: 422, message: expect.any(String) });
      }
    });

    it("answers 401 without a credential", async () => {
      expectError(await client(null).get("/v1/broadcasts"), 401, "UNAUTHORIZED");
    });
  });

  describe("GET /v1/broadcasts/{id}", () => {
    it("retrieves a broadcast whatever its status", async () => {
      const created = await createBroadcast(org);
      await setStatus(created.body.id, "sent");
      const got = await org.owner.api.get(`/v1/broadcasts/${created.body.id}`);
      expect(got.status).toBe(200);
      expect(got.body).toMatchObject({ ...created.body, status: "sent", updated_at: expect.any(String) });
    });

    it("answers 404 for missing and foreign ids, 400 for malformed ids, 401 without a credential", async () => {
      const foreign = await createBroadcast(other);
      expectError(await org.owner.api.get(`/v1/broadcasts/${randomId()}`), 404, "NOT_FOUND");
      expectError(await org.owner.api.get(`/v1/broadcasts/${foreign.body.id}`), 404, "NOT_FOUND");
      expect(expectError(await org.owner.api.get("/v1/broadcasts/nope"), 400, "VALIDATION_ERROR").details?.[0].path).toBe("id");
      expectError(await client(null).get(`/v1/broadcasts/${foreign.body.id}`), 401, "UNAUTHORIZED");
    });
  });

  describe("PUT /v1/broadcasts/{id}", () => {
    const update = (id: string, body: Record<string, unknown>, target = org) => target.owner.api.put(`/v1/broadcasts/${id}`, body);

    it("updates only the given fields and keeps the status when scheduled_at is set", async () => {
      const created = await createBroadcast(org, { tags: ["keep"], preview_text: "p" });
      const updated = await update(created.body.id, {
        name: "New name",
        subject: "New subject",
        from_email: "new@example.com",
        from_name: "New",
        reply_to: "r@example.com",
        preview_text: null,
        html_content: "<p>x</p>",
        text_content: null,
        template_id: mine.template.id,
        segment_id: mine.segment.id,
        topic_id: mine.topic.id,
        scheduled_at: "2031-05-06T07:08:09.123Z",
        sending_speed: "warmup",
        sequence_exit_conditions: { exit_if_in_segment_ids: [mine.segment2.id] },
        sequence_mode: "marketing",
        status: "sent",
        sent_count: 7,
        organization_id: other.organizationId,
      });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({
        id: created.body.id,
        organization_id: org.organizationId,
        name: "New name",
        subject: "New subject",
        from_email: "new@example.com",
        from_name: "New",
        reply_to: "r@example.com",
        preview_text: null,
        html_content: "<p>x</p>",
        text_content: null,
        template_id: mine.template.id,
        segment_id: mine.segment.id,
        topic_id: mine.topic.id,
        scheduled_at: "2031-05-06T07:08:09.123Z",
        sending_speed: "warmup",
        sequence_exit_conditions: { exit_if_in_segment_ids: [mine.segment2.id] },
        sequence_mode: "marketing",
        status: "draft",
        sent_count: 0,
        tags: ["keep"],
        created_at: created.body.created_at,
      });

      const cleared = await update(created.body.id, {
        reply_to: null,
        template_id: null,
        segment_id: null,
        topic_id: null,
        scheduled_at: null,
        sending_speed: null,
        sequence_exit_conditions: null,
        tags: [],
      });
      expect(cleared.body).toMatchObject({
        name: "New name",
        reply_to: null,
        template_id: null,
        segment_id: null,
        topic_id: null,
        scheduled_at: null,
        sending_speed: null,
        sequence_exit_conditions: null,
        tags: [],
      });
      expect((await update(created.body.id, {})).status).toBe(200);
    });

    it("updates a scheduled broadcast", async () => {
      const created = await createBroadcast(org);
      await setStatus(created.body.id, "scheduled");
      const updated = await update(created.body.id, { name: "Still editable" });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ name: "Still editable", status: "scheduled" });
    });

    it("fills the sender from a newly set inbox, except fields given in the same request", async () => {
      const created = await createBroadcast(org, { from_name: "Old", reply_to: "old@example.com" });
      const linked = await update(created.body.id, { inbox_id: mine.inbox.id, from_name: "Explicit" });
      expect(linked.body).toMatchObject({
        inbox_id: mine.inbox.id,
        from_name: "Explicit",
        from_email: "sam@inbox.example",
        reply_to: "replies@inbox.example",
      });
      const nameOnly = await addInbox(org, { name: "Named inbox", from_name: null, reply_to: null, from_email: "n@inbox.example" });
      const relinked = await update(created.body.id, { inbox_id: nameOnly.id });
      expect(relinked.body).toMatchObject({ from_name: "Named inbox", from_email: "n@inbox.example", reply_to: null });
      const unlinked = await update(created.body.id, { inbox_id: null });
      expect(unlinked.body).toMatchObject({ inbox_id: null, from_email: "n@inbox.example" });
    });

    it("never stores a single inbox and a rotation together", async () => {
      const created = await createBroadcast(org, { inbox_ids: [mine.inbox.id, mine.inbox2.id] });
      const single = await update(created.body.id, { inbox_id: mine.inbox.id });
      expect(single.body).toMatchObject({ inbox_id: mine.inbox.id, inbox_ids: [] });
      const rotation = await update(created.body.id, { inbox_ids: [mine.inbox2.id] });
      expect(rotation.body).toMatchObject({ inbox_id: null, inbox_ids: [mine.inbox2.id] });
      expect((await update(created.body.id, { inbox_ids: null })).body.inbox_ids).toEqual([]);
      await update(created.body.id, { inbox_ids: [mine.inbox2.id] });
      expect((await update(created.body.id, { inbox_ids: [] })).body.inbox_ids).toEqual([]);
      const both = await update(created.body.id, { inbox_id: null, inbox_ids: [mine.inbox.id] });
      expect(both.body).toMatchObject({ inbox_id: null, inbox_ids: [mine.inbox.id] });
      const emptyRotation = await update(created.body.id, { inbox_id: mine.inbox2.id, inbox_ids: [] });
      expect(emptyRotation.body).toMatchObject({ inbox_id: mine.inbox2.id, inbox_ids: [] });

      const before = await snapshot(org, created.body.id);
      const error = expectError(await update(created.body.id, { inbox_id: mine.inbox.id, inbox_ids: [mine.inbox2.id] }), 400, "VALIDATION_ERROR");
      expect(error.details?.map((d) => d.path)).toEqual(["inbox_ids"]);
      expect(await snapshot(org, created.body.id)).toEqual(before);
    });

    it("refuses ids of another organization with 400 naming the field, and changes nothing", async () => {
      const created = await createBroadcast(org, { template_id: mine.template.id });
      const before = await snapshot(org, created.body.id);
      const cases: [string, Record<string, unknown>][] = [
        ["template_id", { template_id: theirs.template.id }],
        ["segment_id", { segment_id: theirs.segment.id }],
        ["topic_id", { topic_id: theirs.topic.id }],
        ["inbox_id", { inbox_id: theirs.inbox.id }],
        ["inbox_ids.1", { inbox_ids: [mine.inbox.id, theirs.inbox.id] }],
        ["sequence_exit_conditions.exit_if_in_segment_ids.1", { sequence_exit_conditions: { exit_if_in_segment_ids: [mine.segment.id, theirs.segment.id] } }],
        ["sequence_exit_conditions.exit_if_not_in_segment_ids.0", { sequence_exit_conditions: { exit_if_not_in_segment_ids: [theirs.segment2.id] } }],
        ["topic_id", { name: "changed", topic_id: randomId() }],
      ];
      for (const [path, body] of cases) {
        const error = expectError(await update(created.body.id, body), 400, "VALIDATION_ERROR");
        expect(error.details, path).toEqual([{ path, message: expect.any(String) }]);
      }
      expect(await snapshot(org, created.body.id)).toEqual(before);
    });

    it.each([
      ["name", { name: "" }],
      ["subject", { subject: "" }],
      ["subject", { subject: "x".repeat(999) }],
      ["from_email", { from_email: "not-an-email" }],
      ["from_email", { from_email: null }],
      ["from_name", { from_name: "x".repeat(201) }],
      ["reply_to", { reply_to: "x" }],
      ["preview_text", { preview_text: "x".repeat(501) }],
      ["template_id", { template_id: "abc" }],
      ["segment_id", { segment_id: 1 }],
      ["topic_id", { topic_id: "" }],
      ["scheduled_at", { scheduled_at: "2030-13-01T00:00:00Z" }],
      ["inbox_id", { inbox_id: "inbox" }],
      ["inbox_ids.1", { inbox_ids: [randomId(), "bad"] }],
      ["inbox_ids", { inbox_ids: ["6f9619ff-8b86-d011-b42d-00cf4fc964ff", "6f9619ff-8b86-d011-b42d-00cf4fc964ff"] }],
      ["sending_speed", { sending_speed: "fast" }],
      ["sequence_exit_conditions", { sequence_exit_conditions: "none" }],
      ["sequence_exit_conditions.exit_if_not_in_segment_ids", { sequence_exit_conditions: { exit_if_not_in_segment_ids: "x" } }],
      ["sequence_mode", { sequence_mode: null }],
      ["tags.0", { tags: ["UPPER"] }],
      ["tags.0", { tags: ["x".repeat(51)] }],
      ["tags", { tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }],
      ["html_content", { html_content: "a\u0000" }],
    ])("refuses case %# with 400 naming %s and changes nothing", async (path, body) => {
      const created = await createBroadcast(org);
      const error = expectError(await update(created.body.id, body), 400, "VALIDATION_ERROR");
      expect(error.details?.map((d) => d.path)).toContain(path);
      expect(await snapshot(org, created.body.id)).toEqual(created.body);
    });

    it.each(["sending", "sent", "cancelled", "failed"] as const)("refuses to update a %s broadcast and changes nothing", async (status) => {
      const created = await createBroadcast(org);
      await setStatus(created.body.id, status);
      const before = await snapshot(org, created.body.id);
      expectError(await update(created.body.id, { name: "Changed" }), 400, "BROADCAST_NOT_EDITABLE");
      expect(await snapshot(org, created.body.id)).toEqual(before);
    });

    it("answers 404 for missing and foreign ids without changing anything, 401 without a credential", async () => {
      const foreign = await createBroadcast(other);
      expectError(await update(randomId(), { name: "x" }), 404, "NOT_FOUND");
      expectError(await update(foreign.body.id, { name: "Hijacked" }), 404, "NOT_FOUND");
      expectError(await client(null).put(`/v1/broadcasts/${foreign.body.id}`, { name: "Anon" }), 401, "UNAUTHORIZED");
      expect(await snapshot(other, foreign.body.id)).toEqual(foreign.body);
      expect(expectError(await update("123", { name: "x" }), 400, "VALIDATION_ERROR").details?.[0].path).toBe("id");
    });
  });

  describe("DELETE /v1/broadcasts/{id}", () => {
    it("deletes a broadcast and its steps", async () => {
      const created = await createBroadcast(org);
      await org.owner.api.post(`/v1/broadcasts/${created.body.id}/steps`, { delay_minutes: 60, text_content: "Follow-up" });
      const deleted = await org.owner.api.delete(`/v1/broadcasts/${created.body.id}`);
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({ success: true });
      expect(await db.broadcast.findUnique({ where: { id: created.body.id } })).toBeNull();
      expect(await db.sequenceStep.count({ where: { broadcast_id: created.body.id } })).toBe(0);
      expectError(await org.owner.api.delete(`/v1/broadcasts/${created.body.id}`), 404, "NOT_FOUND");
    });

    it.each(["scheduled", "sent", "cancelled", "failed"] as const)("deletes a %s broadcast", async (status) => {
      const created = await createBroadcast(org);
      await setStatus(created.body.id, status);
      expect((await org.owner.api.delete(`/v1/broadcasts/${created.body.id}`)).body).toEqual({ success: true });
      expect(await db.broadcast.findUnique({ where: { id: created.body.id } })).toBeNull();
    });

    it("refuses to delete a broadcast while it is sending", async () => {
      const created = await createBroadcast(org);
      await setStatus(created.body.id, "sending");
      expectError(await org.owner.api.delete(`/v1/broadcasts/${created.body.id}`), 400, "BROADCAST_NOT_EDITABLE");
      expect(await db.broadcast.findUnique({ where: { id: created.body.id } })).not.toBeNull();
    });

    it("answers 404 for missing and foreign ids without deleting, 400 for malformed ids, 401 without a credential", async () => {
      const foreign = await createBroadcast(other);
      expectError(await org.owner.api.delete(`/v1/broadcasts/${randomId()}`), 404, "NOT_FOUND");
      expectError(await org.owner.api.delete(`/v1/broadcasts/${foreign.body.id}`), 404, "NOT_FOUND");
      expectError(await org.owner.api.delete("/v1/broadcasts/x"), 400, "VALIDATION_ERROR");
      expectError(await client(null).delete(`/v1/broadcasts/${foreign.body.id}`), 401, "UNAUTHORIZED");
      expect(await db.broadcast.findUnique({ where: { id: foreign.body.id } })).not.toBeNull();
    });
  });

  describe("credentials", () => {
    it("answers 401 to a missing or revoked credential on every broadcast and sequence step operation, changing nothing", async () => {
      const revoked = await org.owner.api.post("/v1/api-keys", { name: "revoked" });
      expect((await org.owner.api.delete(`/v1/api-keys/${revoked.body.id}`)).body).toEqual({ success: true });
      const created = await createBroadcast(org);
      const step = await org.owner.api.post(`/v1/broadcasts/${created.body.id}/steps`, { delay_minutes: 5, text_content: "x" });
      const state = async () => ({
        broadcasts: await db.broadcast.findMany({ where: { organization_id: org.organizationId }, orderBy: { id: "asc" } }),
        steps: await db.sequenceStep.findMany({ where: { organization_id: org.organizationId }, orderBy: { id: "asc" } }),
      });
      const before = await state();
      for (const op of broadcastsOperations) {
        const path = op.path.replace(/\{(id|broadcastId)\}/, created.body.id).replace("{stepId}", step.body.id);
        for (const token of [null, revoked.body.token as string]) {
          const result = await request(op.method, path, {
            token,
            body: op.body ? { name: "Changed", subject: "Changed", from_email: "x@example.com", delay_minutes: 1, text_content: "changed" } : undefined,
          });
          expect(result.status, `${op.method} ${path}`).toBe(401);
          expectError(result, 401, "UNAUTHORIZED");
        }
      }
      expect(await state()).toEqual(before);
    });
  });
});
