import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTestOrg } from "@/lib/testing/api";
import { drain, seedSegment, sinkInbox } from "@/lib/testing/sending-fixtures";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { claimDueEmails } from "./claim";
import { classifyFailure } from "./deliver";
import { startBroadcast } from "./fan-out";
import { releaseExpiredLeases } from "./leases";
import { createSender } from "./sender";
import { emailEventsOf } from "@/lib/testing/events";

let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink({ credentials: { user: "outcomes", pass: "right" } });
});
afterAll(() => sink.close());

async function broadcastTo(organizationId: string, inboxId: string, emails: string[]) {
  const { segmentId } = await seedSegment(
    organizationId,
    emails.map((email) => ({ email })),
  );
  const broadcast = await db.broadcast.create({
    data: {
      organization_id: organizationId,
      name: "Outcomes",
      subject: "Hello",
      from_email: "x@acme.test",
      html_content: "<p>Hello</p>",
      segment_id: segmentId,
      inbox_id: inboxId,
      sending_speed: "instant",
      status: "scheduled",
      scheduled_at: new Date(),
    },
  });
  expect(await startBroadcast(broadcast.id)).toBe("started");
  return broadcast.id;
}

const received = (address: string) => sink.messages.filter((m) => m.envelopeTo.includes(address));

describe("SMTP outcomes", () => {
  it("retries 421/451 with backoff until accepted; bounces and suppresses a 550 without retrying", async () => {
    const org = await createTestOrg();
    const tag = org.organizationId.slice(0, 8);
    const [busy, closing, gone, fine] = ["busy", "closing", "gone", "fine"].map((name) => `${name}-${tag}@example.test`);
    sink.reject(busy, 451, 2);
    sink.reject(closing, 421, 1);
    sink.reject(gone, 550);
    const inbox = await sinkInbox(org.organizationId, sink, { smtp_username: "outcomes", password: "right" });
    const broadcastId = await broadcastTo(org.organizationId, inbox.id, [busy, closing, gone, fine]);

    const sender = createSender({ organizationId: org.organizationId, retryDelaysMs: [40, 40, 40] });
    await sender.runOnce();
    const afterFirst = await db.email.findMany({ where: { broadcast_id: broadcastId } });
    const byAddress = <T extends { to_email: string }>(rows: T[], address: string) => rows.find((r) => r.to_email === address)!;
    expect(byAddress(afterFirst, busy)).toMatchObject({ status: "queued", attempts: 1, last_error: expect.stringContaining("451") });
    const deferred = byAddress(afterFirst, busy);
    expect(deferred.next_attempt_at!.getTime() - deferred.updated_at.getTime()).toBe(40);
    expect(byAddress(afterFirst, gone)).toMatchObject({ status: "bounced", attempts: 1 });

    await drain(sender, org.organizationId);
    sender.close();

    const rows = await Promise.all(
      (await db.email.findMany({ where: { broadcast_id: broadcastId } })).map(async (row) => ({ ...row, events: await emailEventsOf(row.id) })),
    );
    expect(byAddress(rows, busy)).toMatchObject({ status: "sent", attempts: 3, last_error: null });
    expect(byAddress(rows, closing)).toMatchObject({ status: "sent", attempts: 2 });
    expect(byAddress(rows, fine)).toMatchObject({ status: "sent", attempts: 1 });
    expect(sink.attempts.get(busy)).toBe(3);
    expect(received(busy)).toHaveLength(1);
    expect(received(closing)).toHaveLength(1);

    const bounced = byAddress(rows, gone);
    expect(bounced).toMatchObject({ status: "bounced", attempts: 1, sent_at: null, last_error: expect.stringContaining("550") });
    expect(bounced.bounced_at).toBeInstanceOf(Date);
    expect(bounced.events.map((e) => e.name)).toEqual(["email.bounced"]);
    expect(bounced.events[0].properties).toMatchObject({ bounce: { type: "hard", code: 550 } });
    expect(sink.attempts.get(gone)).toBe(1);
    expect(received(gone)).toHaveLength(0);
    expect(await db.suppression.findFirst({ where: { organization_id: org.organizationId, email: gone } })).toMatchObject({ reason: "hard_bounce" });

    const broadcast = await db.broadcast.findUniqueOrThrow({ where: { id: broadcastId } });
    expect(broadcast).toMatchObject({ status: "sent", total_recipients: 4, sent_count: 3, bounced_count: 1 });
    const inboxAfter = await db.inbox.findUniqueOrThrow({ where: { id: inbox.id } });
    expect(inboxAfter.last_error).toBeNull();
  });

  it("fails an email after its last attempt, with the last error", async () => {
    const org = await createTestOrg();
    const never = `never-${org.organizationId.slice(0, 8)}@example.test`;
    sink.reject(never, 451);
    const inbox = await sinkInbox(org.organizationId, sink, { smtp_username: "outcomes", password: "right" });
    const broadcastId = await broadcastTo(org.organizationId, inbox.id, [never]);
    const sender = createSender({ organizationId: org.organizationId, retryDelaysMs: [10, 10] });
    await drain(sender, org.organizationId);
    sender.close();
    const row = await db.email.findFirstOrThrow({ where: { broadcast_id: broadcastId } });
    expect(row).toMatchObject({ status: "failed", attempts: 3, last_error: expect.stringContaining("451") });
    expect((await emailEventsOf(row.id)).map((e) => e.name)).toEqual(["email.failed"]);
    expect(sink.attempts.get(never)).toBe(3);
    const broadcast = await db.broadcast.findUniqueOrThrow({ where: { id: broadcastId } });
    expect(broadcast).toMatchObject({ status: "failed", sent_count: 0, failure_reason: expect.stringContaining("451") });
  });

  it("a refused login is the inbox's failure: retried, shown on the inbox, never a bounce", async () => {
    const org = await createTestOrg();
    const address = `login-${org.organizationId.slice(0, 8)}@example.test`;
    const inbox = await sinkInbox(org.organizationId, sink, { smtp_username: "outcomes", password: "wrong" });
    const broadcastId = await broadcastTo(org.organizationId, inbox.id, [address]);
    const sender = createSender({ organizationId: org.organizationId, retryDelaysMs: [60_000] });
    await sender.runOnce();
    sender.close();
    const row = await db.email.findFirstOrThrow({ where: { broadcast_id: broadcastId } });
    expect(row).toMatchObject({ status: "queued", bounced_at: null, attempts: 1 });
    expect(await db.suppression.count({ where: { organization_id: org.organizationId } })).toBe(0);
    const failing = await db.inbox.findUniqueOrThrow({ where: { id: inbox.id } });
    expect(failing.last_error).toMatch(/535|credentials/i);
    const status = (await org.owner.api.get(`/v1/broadcasts/${broadcastId}/status`)).body;
    expect(status).toMatchObject({
      sending: false,
      reasons: [
        expect.objectContaining({ code: "WAITING", resumes_at: row.next_attempt_at!.toISOString() }),
        expect.objectContaining({ code: "INBOX_FAILING" }),
      ],
    });
  });

  it("withdraws a queued email whose contact unsubscribed or whose address was suppressed since the fan-out", async () => {
    const org = await createTestOrg();
    const tag = org.organizationId.slice(0, 8);
    const [left, blocked, stays] = ["left", "blocked", "stays"].map((n) => `${n}-${tag}@example.test`);
    const inbox = await sinkInbox(org.organizationId, sink, { smtp_username: "outcomes", password: "right" });
    const broadcastId = await broadcastTo(org.organizationId, inbox.id, [left, blocked, stays]);
    await db.contact.updateMany({ where: { organization_id: org.organizationId, email: left }, data: { subscribed: false } });
    await db.suppression.create({ data: { organization_id: org.organizationId, email: blocked, reason: "complaint" } });
    const sender = createSender({ organizationId: org.organizationId });
    await drain(sender, org.organizationId);
    sender.close();
    const rows = await db.email.findMany({ where: { broadcast_id: broadcastId } });
    expect(Object.fromEntries(rows.map((r) => [r.to_email, r.status]))).toEqual({ [left]: "cancelled", [blocked]: "cancelled", [stays]: "sent" });
    expect(received(left)).toHaveLength(0);
    expect(received(blocked)).toHaveLength(0);
    expect(await db.broadcast.findUniqueOrThrow({ where: { id: broadcastId } })).toMatchObject({ status: "sent", sent_count: 1 });
  });
});

describe("crash recovery", () => {
  it("an email whose lease ran out is due again; of a broadcast paused meanwhile, queued and not claimed; of one cancelled, cancelled", async () => {
    const org = await createTestOrg();
    const tag = org.organizationId.slice(0, 8);
    const inbox = await sinkInbox(org.organizationId, sink, { smtp_username: "outcomes", password: "right" });
    const kept = await broadcastTo(org.organizationId, inbox.id, [`kept-${tag}@example.test`]);
    const claimed = await claimDueEmails({ batchSize: 10, leaseMs: 1, paceScale: 1, organizationIds: [org.organizationId] });
    expect(claimed).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const email = await db.email.findFirstOrThrow({ where: { broadcast_id: kept } });
    // The claim holds it (still `queued`): no other claim takes it while the lease lasts.
    expect(await db.emailClaim.findUnique({ where: { email_id: email.id } })).not.toBeNull();
    expect(email).toMatchObject({ status: "queued", attempts: 0 });
    expect(await releaseExpiredLeases(org.organizationId)).toBe(1);
    expect(await db.emailClaim.findUnique({ where: { email_id: email.id } })).toBeNull();
    // An attempt counts when it has an outcome: one that died with its worker did not.
    expect(await db.email.findFirstOrThrow({ where: { broadcast_id: kept } })).toMatchObject({ status: "queued", attempts: 0 });

    await claimDueEmails({ batchSize: 10, leaseMs: 1, paceScale: 1, organizationIds: [org.organizationId] });
    await db.broadcast.update({ where: { id: kept }, data: { status: "paused", paused_reason: "manual" } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await releaseExpiredLeases(org.organizationId);
    expect(await db.email.findFirstOrThrow({ where: { broadcast_id: kept } })).toMatchObject({ status: "queued", attempts: 0 });
    expect(await claimDueEmails({ batchSize: 10, leaseMs: 60_000, paceScale: 1, organizationIds: [org.organizationId] })).toEqual([]);

    await db.broadcast.update({ where: { id: kept }, data: { status: "sending", paused_reason: null } });
    await claimDueEmails({ batchSize: 10, leaseMs: 1, paceScale: 1, organizationIds: [org.organizationId] });
    await db.broadcast.update({ where: { id: kept }, data: { status: "cancelled" } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await releaseExpiredLeases(org.organizationId);
    expect(await db.email.findFirstOrThrow({ where: { broadcast_id: kept } })).toMatchObject({ status: "cancelled", attempts: 0 });
    expect(await db.emailClaim.count({ where: { email_id: email.id } })).toBe(0);
  });

  it("leaves an expired claim whose email is being recorded to its recorder, and ends the claim of an email that is gone", async () => {
    const org = await createTestOrg();
    const tag = org.organizationId.slice(0, 8);
    const inbox = await sinkInbox(org.organizationId, sink, { smtp_username: "outcomes", password: "right" });
    const broadcastId = await broadcastTo(org.organizationId, inbox.id, [`late-${tag}@example.test`]);
    expect(await claimDueEmails({ batchSize: 10, leaseMs: 1, paceScale: 1, organizationIds: [org.organizationId] })).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const email = await db.email.findFirstOrThrow({ where: { broadcast_id: broadcastId } });

    // A recorder holds the email's row: the release skips it rather than wait (waiting deadlocked).
    await db.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM emails WHERE id = ${email.id}::uuid FOR NO KEY UPDATE`;
      expect(await releaseExpiredLeases(org.organizationId)).toBe(0);
    });
    expect(await db.emailClaim.count({ where: { email_id: email.id } })).toBe(1);

    // Unscoped, as workers run: a claim left by an email deleted meanwhile ends too.
    const orphan = crypto.randomUUID();
    await db.emailClaim.create({ data: { email_id: orphan, locked_until: new Date(Date.now() - 1000) } });
    await releaseExpiredLeases();
    expect(await db.emailClaim.count({ where: { email_id: { in: [email.id, orphan] } } })).toBe(0);
    expect(await db.email.findUniqueOrThrow({ where: { id: email.id } })).toMatchObject({ status: "queued", attempts: 0 });
  });
});

describe("classifyFailure", () => {
  it("sorts SMTP answers into bounces, deferrals and inbox problems", () => {
    expect(classifyFailure({ responseCode: 550, command: "RCPT TO", code: "EENVELOPE" })).toMatchObject({ permanent: true, inboxProblem: false });
    expect(classifyFailure({ responseCode: 554, command: "DATA", code: "EMESSAGE" })).toMatchObject({ permanent: true });
    expect(classifyFailure({ responseCode: 451, command: "RCPT TO" })).toMatchObject({ permanent: false, inboxProblem: false });
    expect(classifyFailure({ responseCode: 535, command: "AUTH PLAIN", code: "EAUTH" })).toMatchObject({ permanent: false, inboxProblem: true });
    expect(classifyFailure({ responseCode: 553, command: "MAIL FROM" })).toMatchObject({ permanent: false, inboxProblem: true });
    expect(classifyFailure(Object.assign(new Error("connect ECONNREFUSED"), { code: "ESOCKET" }))).toMatchObject({ permanent: false, inboxProblem: true });
  });
});
