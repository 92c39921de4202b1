import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { createTestOrg, type TestOrg } from "@/lib/testing/api";
import { drain, seedSegment, sinkInbox, verifiedDomain } from "@/lib/testing/sending-fixtures";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { completeFinishedBroadcasts } from "./complete-broadcasts";
import { decideDueAbTests, fanOut, startBroadcast, startOverdueBroadcasts } from "./fan-out";
import { createSender } from "./sender";

let sink: SmtpSink;
let org: TestOrg;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(() => sink.close());
// An organization per test: the housekeeping's rounds and the sender look at a whole organization.
beforeEach(async () => {
  org = await createTestOrg();
  await verifiedDomain(org.organizationId, "acme.test");
});

/** `count` contacts in a new segment, written set-based. */
async function bulkSegment(count: number) {
  const segment = await db.segment.create({ data: { organization_id: org.organizationId, name: `AB ${randomUUID().slice(0, 8)}` } });
  const tag = randomUUID().slice(0, 8);
  await db.$executeRaw`
    WITH added AS (
      INSERT INTO contacts (organization_id, email)
      SELECT ${org.organizationId}::uuid, 'ab' || g || '-' || ${tag} || '@example.test' FROM generate_series(1, ${count}::int) g
      RETURNING id)
    INSERT INTO segment_contacts (segment_id, contact_id, organization_id) SELECT ${segment.id}::uuid, id, ${org.organizationId}::uuid FROM added`;
  return segment.id;
}

const abBroadcast = (segmentId: string, data: Partial<Prisma.BroadcastUncheckedCreateInput> = {}) =>
  db.broadcast.create({
    data: {
      organization_id: org.organizationId,
      name: "A/B",
      subject: "Original",
      from_email: "news@acme.test",
      html_content: "<p>Original body</p>",
      status: "scheduled",
      scheduled_at: new Date(),
      sending_speed: "instant",
      segment_id: segmentId,
      variants: [{ subject: "Subject A" }, { subject: "Subject B" }],
      ab_test: { test_percent: 20, metric: "unique_opens", wait_minutes: 60 },
      ...data,
    },
  });

const firstEmails = (broadcastId: string) =>
  db.email.findMany({ where: { broadcast_id: broadcastId, sequence_position: 0 }, select: { id: true, contact_id: true, variant_index: true, subject: true } });

const broadcastRow = (id: string) => db.broadcast.findUniqueOrThrow({ where: { id } });

/** People open `count` of the variant's test emails (opened_at is set by people's opens only: lib/tracking). */
async function opens(broadcastId: string, variant: number, count: number) {
  const emails = await db.email.findMany({ where: { broadcast_id: broadcastId, variant_index: variant }, take: count, select: { id: true } });
  await db.email.updateMany({ where: { id: { in: emails.map((e) => e.id) } }, data: { opened_at: new Date() } });
}

const minutesAfter = (at: Date, minutes: number) => new Date(at.getTime() + minutes * 60_000);

/** The test share handed to the receiving servers the moment it was written (no sender runs here). */
const sendTestShare = (broadcastId: string) =>
  db.$executeRaw`
    UPDATE emails SET status = 'sent', sent_at = created_at, attempts = 1
    WHERE broadcast_id = ${broadcastId}::uuid AND variant_index IS NOT NULL AND status = 'queued'`;

/** Asks the housekeeping once the test's wait is over: `wait_minutes` after its last email was sent (and not before its first due time). */
async function decideAfterWait(broadcastId: string) {
  const [{ last_sent }] = await db.$queryRaw<{ last_sent: Date }[]>`
    SELECT max(sent_at) AS last_sent FROM emails WHERE broadcast_id = ${broadcastId}::uuid AND variant_index IS NOT NULL`;
  const { ab_test, ab_decide_at } = await broadcastRow(broadcastId);
  const waited = minutesAfter(last_sent, (ab_test as { wait_minutes: number }).wait_minutes);
  return decideDueAbTests({ now: new Date(Math.max(waited.getTime(), ab_decide_at!.getTime())), organizationId: org.organizationId });
}

describe("A/B test of a broadcast", () => {
  it("sends the test share (20 % of 1 000) split exactly between the variants, then waits for the winner", async () => {
    const broadcast = await abBroadcast(await bulkSegment(1000));
    expect(await startBroadcast(broadcast.id)).toBe("started");

    const emails = await firstEmails(broadcast.id);
    expect(emails).toHaveLength(200);
    const byVariant = Map.groupBy(emails, (e) => e.variant_index);
    expect(byVariant.get(0)).toHaveLength(100);
    expect(byVariant.get(1)).toHaveLength(100);
    expect(new Set(byVariant.get(0)!.map((e) => e.subject))).toEqual(new Set(["Subject A"]));
    expect(new Set(byVariant.get(1)!.map((e) => e.subject))).toEqual(new Set(["Subject B"]));

    const waiting = await broadcastRow(broadcast.id);
    expect(waiting).toMatchObject({ status: "sending", fanned_out_at: null, ab_winner_index: null, total_recipients: 200 });
    expect(waiting.ab_cutoffs).toHaveLength(2);
    expect(waiting.ab_decide_at!.getTime()).toBeGreaterThan(Date.now() + 50 * 60_000);
    // Waiting is neither finished nor a stalled fan-out to resume.
    await db.email.updateMany({ where: { broadcast_id: broadcast.id }, data: { status: "sent", sent_at: new Date() } });
    expect(await completeFinishedBroadcasts([broadcast.id])).toBe(0);
    const status = (await org.owner.api.get(`/v1/broadcasts/${broadcast.id}/status`)).body;
    expect(status).toMatchObject({ sending: false, reasons: [{ code: "AB_TEST_WAITING", resumes_at: waiting.ab_decide_at!.toISOString() }] });
    await db.$executeRaw`UPDATE broadcasts SET updated_at = now() - interval '1 hour' WHERE id = ${broadcast.id}::uuid`;
    expect(await startOverdueBroadcasts({ organizationId: org.organizationId })).toBe(0);
    expect(await firstEmails(broadcast.id)).toHaveLength(200);
  });

  it("chooses the winner by its clock once the wait is over, and sends the rest that variant", async () => {
    const broadcast = await abBroadcast(await bulkSegment(1000));
    await startBroadcast(broadcast.id);
    await sendTestShare(broadcast.id);
    await opens(broadcast.id, 0, 3);
    await opens(broadcast.id, 1, 10);
    const decideAt = (await broadcastRow(broadcast.id)).ab_decide_at!;

    // A minute before its time nothing is decided, however often it is asked.
    expect(await decideDueAbTests({ now: minutesAfter(decideAt, -1), organizationId: org.organizationId })).toBe(0);
    expect(await fanOut(broadcast.id, { now: minutesAfter(decideAt, -1) })).toBe("started");
    expect((await broadcastRow(broadcast.id)).ab_winner_index).toBeNull();
    expect(await firstEmails(broadcast.id)).toHaveLength(200);

    expect(await decideDueAbTests({ now: decideAt, organizationId: org.organizationId })).toBe(1);
    const decided = await broadcastRow(broadcast.id);
    expect(decided).toMatchObject({ ab_winner_index: 1, ab_decided_at: decideAt });
    // The round only decides; the rest is written by the broadcast's start job, queued for now.
    expect(await firstEmails(broadcast.id)).toHaveLength(200);
    const [job] = await db.$queryRaw<{ identifier: string; payload: unknown }[]>`
      SELECT t.identifier, j.payload FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
      WHERE j.key = ${broadcast.id}`;
    expect(job).toEqual({ identifier: "broadcast:start", payload: { broadcastId: broadcast.id, organizationId: org.organizationId } });
    await startBroadcast(broadcast.id);
    const after = await broadcastRow(broadcast.id);
    expect(after).toMatchObject({ status: "sending", total_recipients: 1000 });
    expect(after.fanned_out_at).toBeInstanceOf(Date);

    const emails = await firstEmails(broadcast.id);
    expect(emails).toHaveLength(1000);
    expect(new Set(emails.map((e) => e.contact_id)).size).toBe(1000);
    const rest = emails.filter((e) => e.variant_index === null);
    expect(rest).toHaveLength(800);
    expect(new Set(rest.map((e) => e.subject))).toEqual(new Set(["Subject B"]));
    // Decided once: asking again changes nothing.
    expect(await decideDueAbTests({ now: minutesAfter(decideAt, 10), organizationId: org.organizationId })).toBe(0);
    expect((await broadcastRow(broadcast.id)).ab_winner_index).toBe(1);
  });

  it("writes the test share and the rest through an inbox at the broadcast's pace (emails.paced), as the claim reads them", async () => {
    const inbox = await sinkInbox(org.organizationId, sink);
    for (const [speed, paced] of [
      ["auto", true],
      ["slow", true],
      ["instant", false],
    ] as const) {
      const broadcast = await abBroadcast(await bulkSegment(50), { inbox_id: inbox.id, from_email: inbox.from_email, sending_speed: speed });
      await startBroadcast(broadcast.id);
      await sendTestShare(broadcast.id);
      await opens(broadcast.id, 1, 2);
      expect(await decideAfterWait(broadcast.id)).toBe(1);
      await startBroadcast(broadcast.id);
      const emails = await db.email.findMany({ where: { broadcast_id: broadcast.id }, select: { variant_index: true, paced: true, inbox_id: true } });
      expect(emails).toHaveLength(50);
      expect(emails.filter((e) => e.variant_index !== null)).toHaveLength(10);
      expect(emails.every((e) => e.inbox_id === inbox.id && e.paced === paced)).toBe(true);
    }
  });

  it("gives a tie, or a test nobody opened, to the first variant", async () => {
    for (const opened of [0, 4]) {
      const broadcast = await abBroadcast(await bulkSegment(100), {
        variants: [{ subject: "A" }, { subject: "B" }, { subject: "C" }],
        ab_test: { test_percent: 30, metric: "unique_opens", wait_minutes: 5 },
      });
      await startBroadcast(broadcast.id);
      await sendTestShare(broadcast.id);
      expect(Map.groupBy(await firstEmails(broadcast.id), (e) => e.variant_index).get(2)).toHaveLength(10);
      await opens(broadcast.id, 1, opened);
      await opens(broadcast.id, 2, opened);
      const { ab_decide_at } = await broadcastRow(broadcast.id);
      await decideDueAbTests({ now: ab_decide_at!, organizationId: org.organizationId });
      expect((await broadcastRow(broadcast.id)).ab_winner_index).toBe(opened === 0 ? 0 : 1);
    }
  });

  it("counts the wait from when the test share went out: a share not yet sent (a window, a daily limit) or sent late postpones the choice", async () => {
    const broadcast = await abBroadcast(await bulkSegment(100));
    await startBroadcast(broadcast.id);
    const written = (await broadcastRow(broadcast.id)).ab_decide_at!;
    // Its time comes with the share still queued (held for a sending window's opening): nothing is decided, it looks again in a minute.
    expect(await decideDueAbTests({ now: written, organizationId: org.organizationId })).toBe(0);
    expect(await broadcastRow(broadcast.id)).toMatchObject({ ab_winner_index: null, ab_decide_at: minutesAfter(written, 1) });

    // The window opens half an hour later: the share goes out then, but for one email a server deferred (a retry does not hold the test).
    const out = minutesAfter(written, 30);
    const [deferred] = await firstEmails(broadcast.id);
    await db.email.update({ where: { id: deferred.id }, data: { attempts: 1, next_attempt_at: minutesAfter(out, 60) } });
    await db.email.updateMany({ where: { broadcast_id: broadcast.id, status: "queued", attempts: 0 }, data: { status: "sent", sent_at: out, attempts: 1 } });
    await opens(broadcast.id, 1, 2);
    expect(await decideDueAbTests({ now: minutesAfter(written, 2), organizationId: org.organizationId })).toBe(0);
    expect((await broadcastRow(broadcast.id)).ab_decide_at).toEqual(minutesAfter(out, 60));
    expect(await decideDueAbTests({ now: minutesAfter(out, 59), organizationId: org.organizationId })).toBe(0);
    expect(await decideDueAbTests({ now: minutesAfter(out, 60), organizationId: org.organizationId })).toBe(1);
    expect(await broadcastRow(broadcast.id)).toMatchObject({ ab_winner_index: 1, ab_decided_at: minutesAfter(out, 60) });
  });

  it("compares the variants' rates over the emails that could show an open, as the report does", async () => {
    const broadcast = await abBroadcast(await bulkSegment(100));
    await startBroadcast(broadcast.id);
    await sendTestShare(broadcast.id);
    // Half of A's ten were refused by the receiving server; 2 of its 5 accepted were opened (40 %), 3 of B's 10 (30 %).
    const a = (await firstEmails(broadcast.id)).filter((e) => e.variant_index === 0);
    await db.email.updateMany({ where: { id: { in: a.slice(0, 5).map((e) => e.id) } }, data: { status: "bounced", sent_at: null, bounced_at: new Date() } });
    await db.email.updateMany({ where: { id: { in: a.slice(5, 7).map((e) => e.id) } }, data: { opened_at: new Date() } });
    await opens(broadcast.id, 1, 3);
    expect(await decideAfterWait(broadcast.id)).toBe(1);
    expect((await broadcastRow(broadcast.id)).ab_winner_index).toBe(0);
    // The report's denominators are the same (its opens come from the recorded events, which this test does not write).
    const report = (await org.owner.api.get(`/v1/broadcasts/${broadcast.id}/report`)).body;
    expect(report.variants).toEqual([
      expect.objectContaining({ index: 0, recipients: 10, open_tracked: 5, winner: true }),
      expect.objectContaining({ index: 1, recipients: 10, open_tracked: 10, winner: false }),
    ]);
  });

  it("puts every contact in the same variant when the fan-out resumes after a crash, or runs twice at once", async () => {
    const segmentId = await bulkSegment(600);
    const broadcast = await abBroadcast(segmentId, { ab_test: { test_percent: 50, metric: "unique_clicks", wait_minutes: 5 } });
    await startBroadcast(broadcast.id);
    const first = new Map((await firstEmails(broadcast.id)).map((e) => [e.contact_id, e.variant_index]));
    expect(first.size).toBe(300);

    // As if the worker had died half-way through the test share.
    const kept = await db.email.findMany({ where: { broadcast_id: broadcast.id }, take: 120, select: { id: true } });
    await db.email.deleteMany({ where: { broadcast_id: broadcast.id, id: { notIn: kept.map((e) => e.id) } } });
    await db.$executeRaw`UPDATE broadcasts SET ab_decide_at = NULL, total_recipients = 120, updated_at = now() - interval '1 hour' WHERE id = ${broadcast.id}::uuid`;
    const resumed = await Promise.all([startOverdueBroadcasts({ organizationId: org.organizationId }), fanOut(broadcast.id), fanOut(broadcast.id)]);
    expect(resumed[0]).toBe(1);

    const again = await firstEmails(broadcast.id);
    expect(again).toHaveLength(300);
    expect(new Map(again.map((e) => [e.contact_id, e.variant_index]))).toEqual(first);
    expect((await broadcastRow(broadcast.id)).total_recipients).toBe(300);
  });

  it("fails an A/B broadcast whose audience is empty, as any other", async () => {
    const { segmentId } = await seedSegment(org.organizationId, [{ subscribed: false }]);
    const broadcast = await abBroadcast(segmentId);
    expect(await startBroadcast(broadcast.id)).toBe("failed");
    expect(await broadcastRow(broadcast.id)).toMatchObject({ status: "failed", failure_reason: expect.stringContaining("No recipients") });
  });

  it("sends each variant's own content to its share and the winner's to the rest", async () => {
    const inbox = await sinkInbox(org.organizationId, sink);
    const { segmentId, contacts } = await seedSegment(
      org.organizationId,
      Array.from({ length: 10 }, (_, i) => ({ email: `variant-${i}-${randomUUID().slice(0, 6)}@example.test`, first_name: `P${i}` })),
    );
    const broadcast = await abBroadcast(segmentId, {
      inbox_id: inbox.id,
      from_email: inbox.from_email,
      html_content: null,
      variants: [
        { subject: "A for {{first_name}}", html_content: "<p>Body A {{first_name}}</p>" },
        { subject: "B for {{first_name}}", html_content: "<p>Body B {{first_name}}</p>" },
      ],
      ab_test: { test_percent: 40, metric: "unique_clicks", wait_minutes: 1 },
    });
    await startBroadcast(broadcast.id);
    const sender = createSender({ organizationId: org.organizationId });
    await drain(sender, org.organizationId);
    const test = await firstEmails(broadcast.id);
    expect(test.map((e) => e.variant_index).sort()).toEqual([0, 0, 1, 1]);
    const clicked = test.find((e) => e.variant_index === 1)!;
    await db.email.update({ where: { id: clicked.id }, data: { clicked_at: new Date() } });

    expect(await decideAfterWait(broadcast.id)).toBe(1);
    await startBroadcast(broadcast.id);
    await drain(sender, org.organizationId);
    sender.close();

    const emails = await db.email.findMany({ where: { broadcast_id: broadcast.id }, include: { contact: true } });
    expect(emails).toHaveLength(10);
    for (const email of emails) {
      const variant = email.variant_index ?? 1;
      const letter = variant === 0 ? "A" : "B";
      const mail = sink.messages.find((m) => m.messageId === email.message_id)!;
      expect(mail.parsed.subject).toBe(`${letter} for ${email.contact!.first_name}`);
      expect(mail.parsed.html).toContain(`Body ${letter} ${email.contact!.first_name}`);
    }
    expect(new Set(emails.map((e) => e.contact_id))).toEqual(new Set(contacts.map((c) => c.id)));
  });
});
