import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTestOrg, type TestOrg } from "@/lib/testing/api";
import { seedBulkBroadcast, startBulkBroadcast } from "@/lib/testing/bulk-broadcast";
import { claimedEmails } from "@/lib/testing/claims";
import { countDeliveries } from "@/lib/testing/deliveries";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { startWorkerProcess, waitUntil, type WorkerProcess } from "@/lib/testing/worker-process";
import { ensureQueueSchema } from "@/lib/sending/queue";

const url = () => process.env.DATABASE_URL!;
const RECIPIENTS = 3000;
const INBOXES = 2;
// Emails already at an SMTP server's connections when the pause lands finish (5 per inbox), and
// perhaps one or two handed over in the milliseconds before the worker hears of the pause.
const IN_FLIGHT = INBOXES * 5 + 5;
/** The worker's lease (WORKER_LEASE_SECONDS): what it holds is given back at once, not left until the lease runs out. */
const LEASE_MS = 10_000;

/** Arrivals after `since`, once the sink has been quiet for 2 s: how many, and when the last came. */
async function settle(sink: SmtpSink, since: number) {
  let seen = sink.messages.length;
  let quietSince = Date.now();
  while (Date.now() - quietSince < 2000) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    if (sink.messages.length !== seen) {
      seen = sink.messages.length;
      quietSince = Date.now();
    }
    if (Date.now() - since > 60_000) throw new Error("the sink never went quiet");
  }
  const after = sink.messages.filter((m) => m.receivedAt > since);
  return { after: after.length, lastMs: after.length ? after[after.length - 1].receivedAt - since : 0 };
}

describe("pause, resume and cancel while a worker sends", () => {
  let sink: SmtpSink;
  let worker: WorkerProcess;
  let org: TestOrg;

  beforeAll(async () => {
    sink = await startSmtpSink({ parse: false, answerDelayMs: 20 });
    await ensureQueueSchema(url());
    org = await createTestOrg();
    worker = startWorkerProcess(url());
  });
  afterAll(async () => {
    if (worker?.child.exitCode === null) worker.child.kill("SIGKILL");
    await sink.close();
  });

  it("a pause stops sending within seconds and holds the rest; resume sends each remaining email once", async () => {
    const b = await seedBulkBroadcast(db, url(), sink, {
      recipients: RECIPIENTS,
      inboxes: INBOXES,
      prefix: "pause",
      start: false,
      organizationId: org.organizationId,
    });
    await startBulkBroadcast(db, b);
    await waitUntil(() => sink.messages.length >= 300, 180_000, "300 emails");

    const paused = await org.owner.api.post(`/v1/broadcasts/${b.broadcastId}/pause`);
    const pausedAt = Date.now();
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ id: b.broadcastId, status: "paused", paused_reason: "manual" });
    const stop = await settle(sink, pausedAt);
    const status = (await org.owner.api.get(`/v1/broadcasts/${b.broadcastId}/status`)).body;
    expect(status).toMatchObject({ status: "paused", sending: false, reasons: [expect.objectContaining({ code: "PAUSED" })] });
    // Given back by the worker: no claim left; the rest waits queued, stepped over by every claim.
    await waitUntil(async () => (await claimedEmails(db, b.broadcastId)) === 0, LEASE_MS, "nothing left claimed");
    const held = await db.email.count({ where: { broadcast_id: b.broadcastId, status: "queued" } });
    const outBeforeResume = sink.messages.length;

    const resumed = await org.owner.api.post(`/v1/broadcasts/${b.broadcastId}/resume`);
    expect(resumed.body).toMatchObject({ status: "sending", paused_reason: null });
    await waitUntil(
      async () => (await db.broadcast.findUniqueOrThrow({ where: { id: b.broadcastId } })).status === "sent",
      300_000,
      "the broadcast to be sent",
    );

    console.log(
      `[faults] pause: ${stop.after} emails reached the server after the pause answered, the last ${stop.lastMs} ms after it; ` +
        `${held} held while paused (${outBeforeResume} out), all sent once after resume`,
    );
    expect(stop.after).toBeLessThanOrEqual(IN_FLIGHT);
    expect(stop.lastMs).toBeLessThan(10_000);
    expect(held).toBeGreaterThan(0);
    const count = countDeliveries(sink.messages, b.recipients);
    expect(count.missing).toEqual([]);
    expect(count.extra).toBe(0);
    expect(await db.broadcast.findUniqueOrThrow({ where: { id: b.broadcastId } })).toMatchObject({ sent_count: RECIPIENTS, paused_reason: null });
  });

  it("a cancel stops sending within seconds; what went out is what is counted", async () => {
    const b = await seedBulkBroadcast(db, url(), sink, {
      recipients: RECIPIENTS,
      inboxes: INBOXES,
      prefix: "cancel",
      start: false,
      organizationId: org.organizationId,
    });
    const before = sink.messages.length;
    await startBulkBroadcast(db, b);
    await waitUntil(() => sink.messages.length - before >= 300, 180_000, "300 emails");

    expect((await org.owner.api.post(`/v1/broadcasts/${b.broadcastId}/cancel`)).body).toMatchObject({ status: "cancelled" });
    const cancelledAt = Date.now();
    const stop = await settle(sink, cancelledAt);
    // The cancel cancels every queued email, claimed or not, in batches (its request the first, the
    // worker's sweep the rest); the worker gives back its claims.
    await waitUntil(
      async () =>
        (await claimedEmails(db, b.broadcastId)) === 0 &&
        (await db.email.count({ where: { broadcast_id: b.broadcastId, status: { in: ["queued", "scheduled"] } } })) === 0,
      LEASE_MS,
      "nothing left to send",
    );
    // The counters reach the record within a second or two (deltas folded by the worker).
    await new Promise((resolve) => setTimeout(resolve, 2500));

    console.log(`[faults] cancel: ${stop.after} emails reached the server after the cancel answered, the last ${stop.lastMs} ms after it`);
    expect(stop.after).toBeLessThanOrEqual(IN_FLIGHT);
    expect(stop.lastMs).toBeLessThan(10_000);
    const count = countDeliveries(sink.messages.slice(before), b.recipients);
    expect(count.extra).toBe(0);
    const sent = await db.email.count({ where: { broadcast_id: b.broadcastId, status: "sent" } });
    expect(sent).toBe(count.reached);
    expect(await db.email.count({ where: { broadcast_id: b.broadcastId, status: "cancelled" } })).toBe(RECIPIENTS - sent);
    expect((await db.broadcast.findUniqueOrThrow({ where: { id: b.broadcastId } })).sent_count).toBe(sent);
  });
});
