import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import type { ThreadCategory } from "@/lib/generated/prisma/enums";
import { client, createTestOrg, expectError, randomId, type TestOrg } from "@/lib/testing/api";
import { addInbox } from "@/lib/testing/sequence-fixtures";

type Seed = { minute: number; category: ThreadCategory | null; inboxId?: string; broadcastId?: string; automationId?: string; reply?: string };

const at = (minute: number) => new Date(Date.UTC(2026, 1, 1, 10, minute));

/** A thread with its first email and, when it has a category, a reply from the lead at `minute`. */
async function seedThread(organizationId: string, seed: Seed) {
  const thread = await db.thread.create({
    data: {
      organization_id: organizationId,
      subject: `Thread at ${seed.minute}`,
      category: seed.category,
      inbox_id: seed.inboxId,
      broadcast_id: seed.broadcastId,
      automation_id: seed.automationId,
      last_message_at: at(seed.minute),
    },
  });
  const base = { organization_id: organizationId, thread_id: thread.id, subject: thread.subject, to_email: "lead@example.org" };
  await db.email.create({ data: { ...base, message_id: `<${randomId()}@acme.test>`, from_email: "rep@acme.test", status: "sent", created_at: at(0) } });
  if (seed.category) {
    await db.email.create({
      data: {
        ...base,
        message_id: `<${randomId()}@example.org>`,
        direction: "inbound",
        status: "received",
        from_email: "lead@example.org",
        from_name: "Lee Lead",
        to_email: "rep@acme.test",
        text_content: seed.reply ?? "Sounds   good,\n tell me more.",
        created_at: at(seed.minute),
      },
    });
  }
  return thread.id;
}

const ids = (body: { data: { id: string }[] }) => body.data.map((t) => t.id);

describe("the unified inbox: GET /v1/threads and PATCH /v1/threads/{threadId}", () => {
  let org: TestOrg;
  let other: TestOrg;
  let inboxA: string;
  let inboxB: string;
  let broadcastId: string;
  const automationId = randomId();
  // Newest activity first: the order every list below must keep.
  let t: Record<"interested" | "meeting" | "fromB" | "automated" | "old" | "unanswered", string>;
  let theirs: string;

  beforeAll(async () => {
    org = await createTestOrg();
    other = await createTestOrg();
    inboxA = (await addInbox(org.organizationId)).id;
    inboxB = (await addInbox(org.organizationId, { from_email: "kai@sales.example.com" })).id;
    broadcastId = (await db.broadcast.create({ data: { organization_id: org.organizationId, name: "Outreach", subject: "Hi", from_email: "rep@acme.test" } }))
      .id;
    t = {
      interested: await seedThread(org.organizationId, { minute: 50, category: "interested", inboxId: inboxA, broadcastId }),
      meeting: await seedThread(org.organizationId, { minute: 40, category: "meeting", inboxId: inboxA, reply: "Call me Monday." }),
      fromB: await seedThread(org.organizationId, { minute: 30, category: "interested", inboxId: inboxB, broadcastId }),
      automated: await seedThread(org.organizationId, { minute: 20, category: "needs_reply", inboxId: inboxB, automationId }),
      old: await seedThread(org.organizationId, { minute: 10, category: "done", inboxId: inboxA }),
      // Sent, never answered: not in the unified inbox, however recent.
      unanswered: await seedThread(org.organizationId, { minute: 59, category: null, inboxId: inboxA, broadcastId }),
    };
    theirs = await seedThread(other.organizationId, { minute: 55, category: "interested" });
    await db.threadDraft.create({ data: { organization_id: org.organizationId, thread_id: t.meeting, text_content: "Monday works." } });
  });

  it("lists replied threads, newest activity first, with the latest reply's sender and text", async () => {
    const result = await org.owner.api.get("/v1/threads");
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ object: "list", has_more: false });
    expect(ids(result.body)).toEqual([t.interested, t.meeting, t.fromB, t.automated, t.old]);
    expect(result.body.data[0]).toEqual({
      id: t.interested,
      contact_id: null,
      inbox_id: inboxA,
      broadcast_id: broadcastId,
      subject: "Thread at 50",
      category: "interested",
      last_message_at: "2026-02-01T10:50:00.000Z",
      has_draft: false,
      from_email: "lead@example.org",
      from_name: "Lee Lead",
      snippet: "Sounds good, tell me more.",
    });
    expect(result.body.data[1]).toMatchObject({ id: t.meeting, has_draft: true, snippet: "Call me Monday." });
  });

  it("filters by category, inbox, broadcast and automation, together or alone", async () => {
    const list = async (query: string) => ids((await org.owner.api.get(`/v1/threads?${query}`)).body);
    expect(await list("category=interested")).toEqual([t.interested, t.fromB]);
    expect(await list(`inbox_id=${inboxB}`)).toEqual([t.fromB, t.automated]);
    expect(await list(`broadcast_id=${broadcastId}`)).toEqual([t.interested, t.fromB]);
    expect(await list(`automation_id=${automationId}`)).toEqual([t.automated]);
    expect(await list(`category=interested&inbox_id=${inboxB}`)).toEqual([t.fromB]);
    expect(await list(`inbox_id=${randomId()}`)).toEqual([]);
  });

  it("pages with after and before, newest first both ways", async () => {
    const first = await org.owner.api.get("/v1/threads?limit=2");
    expect(first.body).toMatchObject({ has_more: true });
    expect(ids(first.body)).toEqual([t.interested, t.meeting]);
    const second = await org.owner.api.get(`/v1/threads?limit=2&after=${t.meeting}`);
    expect(ids(second.body)).toEqual([t.fromB, t.automated]);
    expect(second.body.has_more).toBe(true);
    const last = await org.owner.api.get(`/v1/threads?limit=2&after=${t.automated}`);
    expect(last.body).toMatchObject({ has_more: false });
    expect(ids(last.body)).toEqual([t.old]);
    const back = await org.owner.api.get(`/v1/threads?limit=2&before=${t.old}`);
    expect(ids(back.body)).toEqual([t.fromB, t.automated]);
    expect(back.body.has_more).toBe(true);
    // A cursor whose thread left the filter since (marked done) still pages on.
    const filtered = await org.owner.api.get(`/v1/threads?category=interested&after=${t.meeting}`);
    expect(ids(filtered.body)).toEqual([t.fromB]);
  });

  it("answers 422 for a cursor that is not a replied thread of the organization, 400 for bad filters, 401 without credential", async () => {
    for (const cursor of [randomId(), theirs, t.unanswered]) {
      const result = await org.owner.api.get(`/v1/threads?after=${cursor}`);
      expect(result.status).toBe(422);
      expect(result.body).toMatchObject({ name: "validation_error", statusCode: 422 });
    }
    expect((await org.owner.api.get("/v1/threads?limit=101")).status).toBe(422);
    const error = expectError(await org.owner.api.get("/v1/threads?category=spam"), 400, "VALIDATION_ERROR");
    expect(error.details?.[0].path).toBe("category");
    expectError(await org.owner.api.get("/v1/threads?inbox_id=nope"), 400, "VALIDATION_ERROR");
    expectError(await client(null).get("/v1/threads"), 401, "UNAUTHORIZED");
  });

  it("keeps each organization to its own threads", async () => {
    expect(ids((await other.owner.api.get("/v1/threads")).body)).toEqual([theirs]);
  });

  it("PATCH sets the category a person chose; the thread answers it", async () => {
    const thread = await seedThread(org.organizationId, { minute: 5, category: "needs_reply" });
    const member = await org.addMember("member");
    const result = await member.api.patch(`/v1/threads/${thread}`, { category: "done", subject: "ignored" });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ id: thread, category: "done", subject: "Thread at 5", automation_id: null });
    expect(result.body.emails).toHaveLength(2);
    expect((await org.owner.api.get(`/v1/threads/${thread}`)).body.category).toBe("done");
    expect(ids((await org.owner.api.get("/v1/threads?category=done")).body)).toEqual([t.old, thread]);
  });

  it("PATCH validates the category and answers 404 for another organization's thread", async () => {
    for (const body of [{}, { category: "spam" }, { category: null }]) {
      const error = expectError(await org.owner.api.patch(`/v1/threads/${t.old}`, body), 400, "VALIDATION_ERROR");
      expect(error.details?.[0].path, JSON.stringify(body)).toBe("category");
    }
    expectError(await org.owner.api.patch(`/v1/threads/${theirs}`, { category: "done" }), 404, "NOT_FOUND");
    expectError(await org.owner.api.patch(`/v1/threads/${randomId()}`, { category: "done" }), 404, "NOT_FOUND");
    expect((await db.thread.findUniqueOrThrow({ where: { id: theirs } })).category).toBe("interested");
    expectError(await client(null).patch(`/v1/threads/${t.old}`, { category: "done" }), 401, "UNAUTHORIZED");
  });
});
