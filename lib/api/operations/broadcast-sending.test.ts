import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { startBroadcast } from "@/lib/sending/fan-out";
import { client, createTestOrg, expectError, randomId, type TestOrg } from "@/lib/testing/api";
import { seedSegment, verifiedDomain } from "@/lib/testing/sending-fixtures";

type Job = { key: string; task_identifier: string; run_at: Date; payload: { broadcastId: string; organizationId: string } };

// The public view leaves the payload out; the job's own table has it.
const jobOf = async (broadcastId: string) =>
  (
    await db.$queryRaw<Job[]>`
      SELECT j.key, t.identifier AS task_identifier, j.run_at, j.payload
      FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
      WHERE j.key = ${broadcastId}`
  )[0];

const inAnHour = () => new Date(Date.now() + 60 * 60_000).toISOString();

describe("sending broadcasts", () => {
  let org: TestOrg;
  let other: TestOrg;
  let segmentId: string;
  let emptySegmentId: string;

  beforeAll(async () => {
    org = await createTestOrg();
    other = await createTestOrg();
    await verifiedDomain(org.organizationId, "acme.test");
    segmentId = (await seedSegment(org.organizationId, [{ first_name: "A" }, { first_name: "B" }])).segmentId;
    emptySegmentId = (await seedSegment(org.organizationId, [])).segmentId;
  });

  const draft = async (fields: Record<string, unknown> = {}, as = org) => {
    const created = await as.owner.api.post("/v1/broadcasts", {
      name: "News",
      subject: "Hello",
      from_email: "news@acme.test",
      html_content: "<p>Hi</p>",
      segment_id: as === org ? segmentId : undefined,
      ...fields,
    });
    expect(created.status).toBe(201);
    return created.body as { id: string };
  };

  it("sends now: scheduled at once, with one start job keyed by the broadcast", async () => {
    const { id } = await draft();
    const before = Date.now();
    const sent = await org.owner.api.post(`/v1/broadcasts/${id}/send`);
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ id, status: "scheduled", total_recipients: 0 });
    expect(new Date(sent.body.scheduled_at).getTime()).toBeGreaterThanOrEqual(before - 5);
    expect(new Date(sent.body.scheduled_at).getTime()).toBeLessThanOrEqual(Date.now());
    const job = await jobOf(id);
    expect(job).toMatchObject({ task_identifier: "broadcast:start", payload: { broadcastId: id, organizationId: org.organizationId } });
    expect(job.run_at.toISOString()).toBe(sent.body.scheduled_at);

    expect(await startBroadcast(id)).toBe("started");
    const started = (await org.owner.api.get(`/v1/broadcasts/${id}`)).body;
    expect(started).toMatchObject({ status: "sending", total_recipients: 2 });
    expect(await db.email.count({ where: { broadcast_id: id, status: "queued" } })).toBe(2);
    // A second run of the job changes nothing.
    expect(await startBroadcast(id)).toBe("skipped");
    expect(await db.email.count({ where: { broadcast_id: id } })).toBe(2);
    expectError(await org.owner.api.post(`/v1/broadcasts/${id}/send`), 400, "BROADCAST_NOT_EDITABLE");
  });

  it("schedules for later and reschedules the same job when sent again", async () => {
    const { id } = await draft({ segment_id: emptySegmentId });
    const later = inAnHour();
    const first = await org.owner.api.post(`/v1/broadcasts/${id}/send`, { scheduled_at: later });
    expect(first.body).toMatchObject({ status: "scheduled", scheduled_at: later });
    const status = await org.owner.api.get(`/v1/broadcasts/${id}/status`);
    expect(status.body).toMatchObject({ status: "scheduled", sending: false, reasons: [{ code: "SCHEDULED", resumes_at: later }] });
    // Not yet: a job that runs early leaves it alone.
    expect(await startBroadcast(id)).toBe("skipped");

    const sooner = new Date(Date.now() + 30 * 60_000).toISOString();
    const second = await org.owner.api.post(`/v1/broadcasts/${id}/send`, { scheduled_at: sooner });
    expect(second.body).toMatchObject({ status: "scheduled", scheduled_at: sooner });
    const jobs = await db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE key = ${id}`;
    expect(jobs[0].n).toBe(1);
    expect((await jobOf(id)).run_at.toISOString()).toBe(sooner);
  });

  it("refuses a broadcast without audience, content or a verified sender, naming what is missing", async () => {
    const { id } = await draft({ segment_id: null, html_content: null });
    const error = expectError(await org.owner.api.post(`/v1/broadcasts/${id}/send`), 400, "BROADCAST_NOT_SENDABLE");
    expect(error.details?.map((d) => d.path).sort()).toEqual(["html_content", "segment_id"]);

    const empty = await draft({ segment_id: emptySegmentId });
    const noOne = expectError(await org.owner.api.post(`/v1/broadcasts/${empty.id}/send`), 400, "BROADCAST_NOT_SENDABLE");
    expect(noOne.details).toEqual([{ path: "segment_id", message: expect.stringContaining("no subscribed") }]);

    const unverified = await draft({ from_email: "news@elsewhere.test" });
    expectError(await org.owner.api.post(`/v1/broadcasts/${unverified.id}/send`), 400, "DOMAIN_NOT_VERIFIED");

    for (const broadcast of [id, empty.id, unverified.id]) {
      expect((await org.owner.api.get(`/v1/broadcasts/${broadcast}`)).body.status).toBe("draft");
      expect(await jobOf(broadcast)).toBeUndefined();
    }
  });

  it("validates scheduled_at and the path id", async () => {
    const { id } = await draft();
    const past = expectError(await org.owner.api.post(`/v1/broadcasts/${id}/send`, { scheduled_at: "2020-01-01T00:00:00.000Z" }), 400, "VALIDATION_ERROR");
    expect(past.details?.[0].path).toBe("scheduled_at");
    const malformed = expectError(await org.owner.api.post(`/v1/broadcasts/${id}/send`, { scheduled_at: "tomorrow" }), 400, "VALIDATION_ERROR");
    expect(malformed.details?.[0].path).toBe("scheduled_at");
    expectError(await org.owner.api.post(`/v1/broadcasts/not-a-uuid/send`), 400, "VALIDATION_ERROR");
    expect((await org.owner.api.get(`/v1/broadcasts/${id}`)).body.status).toBe("draft");
  });

  it("cancels a scheduled broadcast: its job is gone and it never starts", async () => {
    const { id } = await draft();
    await org.owner.api.post(`/v1/broadcasts/${id}/send`, { scheduled_at: inAnHour() });
    const cancelled = await org.owner.api.post(`/v1/broadcasts/${id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ id, status: "cancelled" });
    expect(await jobOf(id)).toBeUndefined();
    expect(await startBroadcast(id)).toBe("skipped");
    expect(await db.email.count({ where: { broadcast_id: id } })).toBe(0);
    expect((await org.owner.api.get(`/v1/broadcasts/${id}/status`)).body).toMatchObject({
      status: "cancelled",
      sending: false,
      reasons: [{ code: "CANCELLED" }],
    });
    expectError(await org.owner.api.post(`/v1/broadcasts/${id}/cancel`), 400, "BROADCAST_NOT_CANCELLABLE");
    expectError(await org.owner.api.post(`/v1/broadcasts/${id}/send`), 400, "BROADCAST_NOT_EDITABLE");
  });

  it("cancels a sending broadcast: queued emails are cancelled, sent ones stay", async () => {
    const { id } = await draft();
    await org.owner.api.post(`/v1/broadcasts/${id}/send`);
    await startBroadcast(id);
    const [first] = await db.email.findMany({ where: { broadcast_id: id }, take: 1 });
    await db.email.update({ where: { id: first.id }, data: { status: "sent", sent_at: new Date() } });
    const cancelled = await org.owner.api.post(`/v1/broadcasts/${id}/cancel`);
    expect(cancelled.body.status).toBe("cancelled");
    const statuses = (await db.email.findMany({ where: { broadcast_id: id } })).map((e) => e.status).sort();
    expect(statuses).toEqual(["cancelled", "sent"]);
    const status = await org.owner.api.get(`/v1/broadcasts/${id}/status`);
    expect(status.body.progress).toEqual({ total: 2, queued: 0, sent: 1, bounced: 0, failed: 0, cancelled: 1 });
  });

  it("refuses to cancel a draft", async () => {
    const { id } = await draft();
    expectError(await org.owner.api.post(`/v1/broadcasts/${id}/cancel`), 400, "BROADCAST_NOT_CANCELLABLE");
  });

  it("fails a scheduled broadcast whose segment emptied before its time, with the reason", async () => {
    const { segmentId: shrinking, contacts } = await seedSegment(org.organizationId, [{}]);
    const { id } = await draft({ segment_id: shrinking });
    await org.owner.api.post(`/v1/broadcasts/${id}/send`);
    await db.contact.update({ where: { id: contacts[0].id }, data: { subscribed: false } });
    expect(await startBroadcast(id)).toBe("failed");
    const status = (await org.owner.api.get(`/v1/broadcasts/${id}/status`)).body;
    expect(status).toMatchObject({ status: "failed", sending: false, reasons: [{ code: "NO_RECIPIENTS" }] });
  });

  it("explains a draft and a sending broadcast's relay problems", async () => {
    const { id } = await draft();
    expect((await org.owner.api.get(`/v1/broadcasts/${id}/status`)).body).toEqual({
      status: "draft",
      sending: false,
      reasons: [{ code: "DRAFT", message: expect.any(String) }],
      progress: { total: 0, queued: 0, sent: 0, bounced: 0, failed: 0, cancelled: 0 },
    });
    await org.owner.api.post(`/v1/broadcasts/${id}/send`);
    await startBroadcast(id);
    await db.domain.updateMany({ where: { organization_id: org.organizationId, name: "acme.test" }, data: { status: "failed" } });
    try {
      const status = (await org.owner.api.get(`/v1/broadcasts/${id}/status`)).body;
      expect(status.status).toBe("sending");
      expect(status.sending).toBe(false);
      expect(status.reasons.map((r: { code: string }) => r.code)).toContain("DOMAIN_NOT_VERIFIED");
    } finally {
      await db.domain.updateMany({ where: { organization_id: org.organizationId, name: "acme.test" }, data: { status: "verified" } });
    }
  });

  it("404s on another organization's broadcast and changes nothing; 401 without a credential", async () => {
    const theirs = await draft({}, other);
    expectError(await org.owner.api.post(`/v1/broadcasts/${theirs.id}/send`), 404, "NOT_FOUND");
    expectError(await org.owner.api.post(`/v1/broadcasts/${theirs.id}/cancel`), 404, "NOT_FOUND");
    expectError(await org.owner.api.get(`/v1/broadcasts/${theirs.id}/status`), 404, "NOT_FOUND");
    expectError(await org.owner.api.post(`/v1/broadcasts/${randomId()}/send`), 404, "NOT_FOUND");
    expect((await other.owner.api.get(`/v1/broadcasts/${theirs.id}`)).body.status).toBe("draft");
    expect(await jobOf(theirs.id)).toBeUndefined();
    expectError(await client(null).post(`/v1/broadcasts/${theirs.id}/send`), 401, "UNAUTHORIZED");
    expectError(await client(null).post(`/v1/broadcasts/${theirs.id}/cancel`), 401, "UNAUTHORIZED");
    expectError(await client(null).get(`/v1/broadcasts/${theirs.id}/status`), 401, "UNAUTHORIZED");
  });

  it("pauses a sending broadcast with its reason, holds its queued emails, explains it, and resumes where it stopped", async () => {
    const { id } = await draft();
    await org.owner.api.post(`/v1/broadcasts/${id}/send`);
    await startBroadcast(id);
    const [first] = await db.email.findMany({ where: { broadcast_id: id }, take: 1 });
    await db.email.update({ where: { id: first.id }, data: { status: "sent", sent_at: new Date() } });

    const paused = await org.owner.api.post(`/v1/broadcasts/${id}/pause`);
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ id, status: "paused", paused_reason: "manual" });
    expect(new Date(paused.body.paused_at).getTime()).toBeGreaterThan(Date.now() - 60_000);
    // Held by the claim, which reads only sending broadcasts' emails: the pause writes none of them.
    expect((await db.email.findMany({ where: { broadcast_id: id } })).map((e) => e.status).sort()).toEqual(["queued", "sent"]);
    const status = (await org.owner.api.get(`/v1/broadcasts/${id}/status`)).body;
    expect(status).toMatchObject({ status: "paused", sending: false, reasons: [{ code: "PAUSED", message: expect.stringContaining("by a person") }] });
    expect(status.progress).toMatchObject({ total: 2, queued: 1, sent: 1 });
    expectError(await org.owner.api.post(`/v1/broadcasts/${id}/pause`), 400, "BROADCAST_NOT_PAUSABLE");
    expectError(await org.owner.api.post(`/v1/broadcasts/${id}/send`), 400, "BROADCAST_NOT_EDITABLE");

    const resumed = await org.owner.api.post(`/v1/broadcasts/${id}/resume`);
    expect(resumed.body).toMatchObject({ id, status: "sending", paused_reason: null, paused_at: null });
    expect((await db.email.findMany({ where: { broadcast_id: id } })).map((e) => e.status).sort()).toEqual(["queued", "sent"]);
    expectError(await org.owner.api.post(`/v1/broadcasts/${id}/resume`), 400, "BROADCAST_NOT_RESUMABLE");
  });

  it("deletes a paused broadcast: its unsent emails are cancelled, not left to be sent as emails of no broadcast", async () => {
    const { id } = await draft();
    await org.owner.api.post(`/v1/broadcasts/${id}/send`);
    await startBroadcast(id);
    const emails = await db.email.findMany({ where: { broadcast_id: id }, select: { id: true } });
    expect(emails).toHaveLength(2);
    expect((await org.owner.api.post(`/v1/broadcasts/${id}/pause`)).body.status).toBe("paused");
    expect((await org.owner.api.delete(`/v1/broadcasts/${id}`)).status).toBe(200);
    const left = await db.email.findMany({ where: { id: { in: emails.map((e) => e.id) } }, select: { status: true, broadcast_id: true } });
    expect(left).toEqual([
      { status: "cancelled", broadcast_id: null },
      { status: "cancelled", broadcast_id: null },
    ]);
  });

  it("resumes a fan-out the pause interrupted: its start job is queued again", async () => {
    const { id } = await draft();
    await org.owner.api.post(`/v1/broadcasts/${id}/send`);
    // Started, but not one email record yet: the fan-out had not begun when the pause came.
    await db.broadcast.update({ where: { id }, data: { status: "sending", started_at: new Date() } });
    await db.$executeRaw`SELECT graphile_worker.remove_job(${id})`;
    expect((await org.owner.api.post(`/v1/broadcasts/${id}/pause`)).body.status).toBe("paused");
    expect(await startBroadcast(id)).toBe("skipped");
    expect((await org.owner.api.post(`/v1/broadcasts/${id}/resume`)).body.status).toBe("sending");
    expect(await jobOf(id)).toMatchObject({ task_identifier: "broadcast:start" });
    expect(await startBroadcast(id)).toBe("started");
    expect(await db.email.count({ where: { broadcast_id: id, status: "queued" } })).toBe(2);
  });

  it("cancels a paused broadcast; refuses to pause or resume a draft, a scheduled or a cancelled one", async () => {
    const { id } = await draft();
    expectError(await org.owner.api.post(`/v1/broadcasts/${id}/pause`), 400, "BROADCAST_NOT_PAUSABLE");
    expectError(await org.owner.api.post(`/v1/broadcasts/${id}/resume`), 400, "BROADCAST_NOT_RESUMABLE");
    await org.owner.api.post(`/v1/broadcasts/${id}/send`, { scheduled_at: inAnHour() });
    expectError(await org.owner.api.post(`/v1/broadcasts/${id}/pause`), 400, "BROADCAST_NOT_PAUSABLE");
    await org.owner.api.post(`/v1/broadcasts/${id}/send`);
    await startBroadcast(id);
    await org.owner.api.post(`/v1/broadcasts/${id}/pause`);
    const cancelled = await org.owner.api.post(`/v1/broadcasts/${id}/cancel`);
    expect(cancelled.body).toMatchObject({ status: "cancelled", paused_reason: null });
    expect((await db.email.findMany({ where: { broadcast_id: id } })).map((e) => e.status)).toEqual(["cancelled", "cancelled"]);
    expectError(await org.owner.api.post(`/v1/broadcasts/${id}/resume`), 400, "BROADCAST_NOT_RESUMABLE");
  });

  it("404s pause and resume of another organization's broadcast", async () => {
    const theirs = await draft({}, other);
    expectError(await org.owner.api.post(`/v1/broadcasts/${theirs.id}/pause`), 404, "NOT_FOUND");
    expectError(await org.owner.api.post(`/v1/broadcasts/${theirs.id}/resume`), 404, "NOT_FOUND");
    expectError(await client(null).post(`/v1/broadcasts/${theirs.id}/pause`), 401, "UNAUTHORIZED");
  });

  it("lets a member send and cancel", async () => {
    const member = await org.addMember("member");
    const { id } = await draft();
    expect((await member.api.post(`/v1/broadcasts/${id}/send`, { scheduled_at: inAnHour() })).status).toBe(200);
    expect((await member.api.post(`/v1/broadcasts/${id}/cancel`)).status).toBe(200);
  });
});
