import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import type { SendingSpeed } from "@/lib/generated/prisma/enums";
import { createTestOrg } from "@/lib/testing/api";
import { drain, seedSegment, sinkInbox } from "@/lib/testing/sending-fixtures";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { startBroadcast } from "./fan-out";
import { createSender } from "./sender";
import { dailyCap, PACING_GAPS, resolveSpeed, WARMUP_DAILY_STEP, WARMUP_FIRST_DAY } from "@/lib/domain/sending-speeds";

let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(() => sink.close());

const DAY = 24 * 60 * 60_000;

async function broadcastOver(organizationId: string, inboxIds: string[], recipients: number, speed: SendingSpeed) {
  const { segmentId } = await seedSegment(
    organizationId,
    Array.from({ length: recipients }, (_, i) => ({ email: `r${i}-${randomUUID().slice(0, 4)}-${organizationId.slice(0, 8)}@example.test` })),
  );
  const broadcast = await db.broadcast.create({
    data: {
      organization_id: organizationId,
      name: "Paced",
      subject: "Hi {{email}}",
      from_email: "ignored@acme.test",
      text_content: "Hello",
      segment_id: segmentId,
      inbox_id: inboxIds.length === 1 ? inboxIds[0] : null,
      inbox_ids: inboxIds.length > 1 ? inboxIds : [],
      sending_speed: speed,
      status: "scheduled",
      scheduled_at: new Date(),
    },
  });
  expect(await startBroadcast(broadcast.id)).toBe("started");
  return broadcast.id;
}

const mailsTo = (domainTag: string) => sink.messages.filter((m) => m.envelopeTo[0].includes(domainTag));

describe("inbox rotation", () => {
  it("spreads recipients within one email of even, each email with its inbox's identity", async () => {
    const org = await createTestOrg();
    const inboxes = [
      await sinkInbox(org.organizationId, sink, { from_name: "Rotation One" }),
      await sinkInbox(org.organizationId, sink, { from_name: "Rotation Two" }),
      await sinkInbox(org.organizationId, sink, { from_name: null, name: "Rotation Three" }),
    ];
    const broadcastId = await broadcastOver(
      org.organizationId,
      inboxes.map((i) => i.id),
      11,
      "instant",
    );
    const sender = createSender({ organizationId: org.organizationId });
    await drain(sender, org.organizationId);
    sender.close();

    const mails = mailsTo(org.organizationId.slice(0, 8));
    expect(mails).toHaveLength(11);
    const shares = inboxes.map((inbox) => mails.filter((m) => m.user === inbox.smtp_username).length);
    expect(shares.reduce((a, b) => a + b)).toBe(11);
    expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1);

    const rows = await db.email.findMany({ where: { broadcast_id: broadcastId } });
    for (const mail of mails) {
      const inbox = inboxes.find((i) => i.smtp_username === mail.user)!;
      expect(mail.envelopeFrom).toBe(inbox.from_email);
      expect(mail.parsed.from?.value[0]).toEqual({ address: inbox.from_email, name: inbox.from_name ?? inbox.name });
      const row = rows.find((r) => r.to_email === mail.envelopeTo[0])!;
      expect(row.inbox_id).toBe(inbox.id);
      expect(mail.parsed.messageId).toBe(row.message_id);
      expect(row.message_id.endsWith(`@${inbox.from_email.split("@")[1]}>`)).toBe(true);
    }
  });
});

describe("pacing", () => {
  // 1/100 of the real clock: `normal` (20–40 s) becomes 200–400 ms between two emails of an inbox.
  const scale = 1 / 100;

  async function gapsAt(speed: SendingSpeed, inboxCount: number, recipients: number) {
    const org = await createTestOrg();
    const inboxes = [];
    for (let i = 0; i < inboxCount; i++) inboxes.push(await sinkInbox(org.organizationId, sink));
    await broadcastOver(
      org.organizationId,
      inboxes.map((i) => i.id),
      recipients,
      speed,
    );
    const sender = createSender({ organizationId: org.organizationId, paceScale: scale });
    await drain(sender, org.organizationId, { idleMs: 2 });
    sender.close();
    const mails = mailsTo(org.organizationId.slice(0, 8));
    expect(mails).toHaveLength(recipients);
    const perInbox = inboxes.map((inbox) => mails.filter((m) => m.user === inbox.smtp_username).map((m) => m.receivedAt));
    const gaps = perInbox.flatMap((times) => times.slice(1).map((t, i) => t - times[i]));
    return { gaps, perInbox };
  }

  /**
   * Pacing is decided when an email is claimed, but measured where it arrives: one delivery held up by a busy
   * machine shortens the gap after it. So each inbox's k-th email must come at least k gaps after its first,
   * give or take one gap, rather than every single gap being long.
   */
  function expectPaced(perInbox: number[][], minGapMs: number) {
    for (const times of perInbox) {
      times.forEach((t, k) => expect(t - times[0]).toBeGreaterThanOrEqual((k - 1) * minGapMs));
    }
  }

  it("keeps `normal` within its documented per-inbox rate, with jittered gaps", async () => {
    const { minMs, maxMs } = PACING_GAPS.normal;
    const { gaps, perInbox } = await gapsAt("normal", 2, 10);
    expect(gaps).toHaveLength(8);
    const mean = gaps.reduce((a, b) => a + b) / gaps.length;
    expectPaced(perInbox, minMs * scale);
    expect(mean).toBeGreaterThanOrEqual(minMs * scale * 0.8);
    expect(mean).toBeLessThanOrEqual(maxMs * scale * 3);
    expect(new Set(gaps.map((g) => Math.round(g / 10))).size).toBeGreaterThan(1);
  });

  it("`slow` is slower than `normal` by about its documented factor", async () => {
    const slow = await gapsAt("slow", 1, 4);
    const slowMean = slow.gaps.reduce((a, b) => a + b) / slow.gaps.length;
    expectPaced(slow.perInbox, PACING_GAPS.slow.minMs * scale);
    expect(slowMean).toBeGreaterThanOrEqual(PACING_GAPS.slow.minMs * scale * 0.8);
    expect(slowMean).toBeLessThanOrEqual(PACING_GAPS.slow.maxMs * scale * 3);
  });

  it("on the real clock a paced inbox takes one email and waits its gap; `instant` takes a whole batch at once", async () => {
    const org = await createTestOrg();
    const paced = await sinkInbox(org.organizationId, sink);
    await broadcastOver(org.organizationId, [paced.id], 3, "normal");
    const sender = createSender({ organizationId: org.organizationId });
    const before = Date.now();
    expect(await sender.runOnce()).toBe(1);
    const after = Date.now();
    expect(await sender.runOnce()).toBe(0);
    const next = (await db.inbox.findUniqueOrThrow({ where: { id: paced.id } })).next_send_at!.getTime();
    expect(next).toBeGreaterThanOrEqual(before + PACING_GAPS.normal.minMs - 1_000);
    expect(next).toBeLessThanOrEqual(after + PACING_GAPS.normal.maxMs + 1_000);

    const fast = await sinkInbox(org.organizationId, sink);
    await broadcastOver(org.organizationId, [fast.id], 20, "instant");
    expect(await sender.runOnce()).toBe(20);
    sender.close();
  });
});

describe("daily limits and warm-up", () => {
  it("stops an inbox at its daily limit and says when it resumes", async () => {
    const org = await createTestOrg();
    const inbox = await sinkInbox(org.organizationId, sink, { daily_limit: 3 });
    const broadcastId = await broadcastOver(org.organizationId, [inbox.id], 5, "instant");
    const sender = createSender({ organizationId: org.organizationId });
    for (let i = 0; i < 3; i++) await sender.runOnce();
    sender.close();
    expect(await db.email.count({ where: { broadcast_id: broadcastId, status: "sent" } })).toBe(3);
    expect(await db.email.count({ where: { broadcast_id: broadcastId, status: "queued" } })).toBe(2);

    const status = (await org.owner.api.get(`/v1/broadcasts/${broadcastId}/status`)).body;
    const midnight = new Date();
    midnight.setUTCHours(24, 0, 0, 0);
    expect(status).toMatchObject({ status: "sending", sending: false, progress: { total: 5, queued: 2, sent: 3 } });
    expect(status.reasons).toEqual([
      expect.objectContaining({ code: "DAILY_LIMIT_REACHED", resumes_at: midnight.toISOString(), message: expect.stringContaining("daily limit of 3") }),
    ]);
  });

  it("ramps a warming inbox's daily volume day by day", async () => {
    const now = new Date();
    const inbox = { created_at: now, warmup_started_at: null, last_error_at: null, daily_limit: 40 };
    expect(dailyCap("warmup", inbox, now)).toBe(WARMUP_FIRST_DAY);
    expect(dailyCap("warmup", { ...inbox, warmup_started_at: new Date(now.getTime() - 1 * DAY) }, now)).toBe(WARMUP_FIRST_DAY + WARMUP_DAILY_STEP);
    expect(dailyCap("warmup", { ...inbox, warmup_started_at: new Date(now.getTime() - 2 * DAY) }, now)).toBe(WARMUP_FIRST_DAY + 2 * WARMUP_DAILY_STEP);
    expect(dailyCap("warmup", { ...inbox, warmup_started_at: new Date(now.getTime() - 100 * DAY) }, now)).toBe(40);
    expect(dailyCap("normal", inbox, now)).toBe(40);

    const org = await createTestOrg();
    const warming = await sinkInbox(org.organizationId, sink, { daily_limit: 50 });
    const broadcastId = await broadcastOver(org.organizationId, [warming.id], 14, "warmup");
    const sender = createSender({ organizationId: org.organizationId, paceScale: 0 });
    for (let i = 0; i < 40 && (await db.email.count({ where: { broadcast_id: broadcastId, status: "sent" } })) < 14; i++) await sender.runOnce();
    expect(await db.email.count({ where: { broadcast_id: broadcastId, status: "sent" } })).toBe(WARMUP_FIRST_DAY);
    const started = await db.inbox.findUniqueOrThrow({ where: { id: warming.id } });
    expect(started.warmup_started_at).toBeInstanceOf(Date);
    const status = (await org.owner.api.get(`/v1/broadcasts/${broadcastId}/status`)).body;
    expect(status.reasons[0]).toMatchObject({ code: "DAILY_LIMIT_REACHED", message: expect.stringContaining(`warm-up allowance of ${WARMUP_FIRST_DAY}`) });

    // A day later the allowance has grown by one step.
    await db.inbox.update({ where: { id: warming.id }, data: { warmup_started_at: new Date(Date.now() - DAY - 60_000) } });
    for (let i = 0; i < 20; i++) await sender.runOnce();
    sender.close();
    expect(await db.email.count({ where: { broadcast_id: broadcastId, status: "sent" } })).toBe(14);
  });

  it("`auto` warms up a young inbox, slows down after a failure, and is `normal` otherwise", () => {
    const now = new Date();
    const old = { created_at: new Date(now.getTime() - 60 * DAY), warmup_started_at: null, last_error_at: null, daily_limit: 50 };
    expect(resolveSpeed(null, { ...old, created_at: new Date(now.getTime() - 3 * DAY) }, now)).toBe("warmup");
    expect(resolveSpeed("auto", { ...old, last_error_at: new Date(now.getTime() - 60_000) }, now)).toBe("slow");
    expect(resolveSpeed("auto", old, now)).toBe("normal");
    expect(resolveSpeed("very_slow", old, now)).toBe("very_slow");
  });

  it("a paused inbox sends nothing and says so", async () => {
    const org = await createTestOrg();
    const inbox = await sinkInbox(org.organizationId, sink, { paused: true });
    const broadcastId = await broadcastOver(org.organizationId, [inbox.id], 2, "instant");
    const sender = createSender({ organizationId: org.organizationId });
    expect(await sender.runOnce()).toBe(0);
    sender.close();
    const status = (await org.owner.api.get(`/v1/broadcasts/${broadcastId}/status`)).body;
    expect(status).toMatchObject({ sending: false, reasons: [expect.objectContaining({ code: "INBOX_PAUSED" })] });
  });
});
