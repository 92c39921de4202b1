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
// Enough emails queued when the cancel lands that the worker's sweep takes dozens of batches.
const RECIPIENTS = 40_000;
const INBOXES = 2;
// Emails already at the inboxes' SMTP connections when the cancel lands finish (5 per inbox), and
// perhaps a few handed over in the milliseconds before the worker hears of the cancel.
const IN_FLIGHT = INBOXES * 5 + 5;
/** Most accepted emails a killed worker may not have recorded (lib/sending/sender.ts, maxUnrecorded). */
const MOST_UNRECORDED = 40;
const LEASE_MS = 10_000;

/**
 * The backend of a worker's sweep in the middle of a batch: its UPDATE running, or its transaction
 * still open. Matched by what the statement sets, whatever alias or form the UPDATE takes (with
 * `UPDATE emails e SET`, the exact text of before matched nothing and the test waited in vain).
 */
const sweepingNow = async () =>
  (
    await db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid() AND state IN ('active', 'idle in transaction')
        AND query LIKE '%UPDATE emails%SET status = ''cancelled'', last_error = ''The broadcast was cancelled''%'`
  )[0].n > 0;

/** Arrivals after `since`, once the sink has been quiet for 2 s. */
async function settle(sink: SmtpSink, since: number) {
  let seen = sink.messages.length;
  let quietSince = Date.now();
  while (Date.now() - quietSince < 2000) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    if (sink.messages.length !== seen) {
      seen = sink.messages.length;
      quietSince = Date.now();
    }
  }
  const after = sink.messages.filter((m) => m.receivedAt > since);
  return { after: after.length, lastMs: after.length ? after[after.length - 1].receivedAt - since : 0 };
}

describe("a worker SIGKILLed in the middle of a batched cancel", () => {
  let sink: SmtpSink;
  let org: TestOrg;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    // Slow answers: most of the broadcast is still queued when it is cancelled.
    sink = await startSmtpSink({ parse: false, answerDelayMs: 100 });
    await ensureQueueSchema(url());
    org = await createTestOrg();
  });
  afterAll(async () => {
    for (const worker of workers) if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill("SIGKILL");
    await sink.close();
  });

  it("the sweep of another worker finishes it; nothing is sent after the cancel answered", async () => {
    const b = await seedBulkBroadcast(db, url(), sink, {
      recipients: RECIPIENTS,
      inboxes: INBOXES,
      prefix: "cancelkill",
      start: false,
      organizationId: org.organizationId,
    });
    const first = startWorkerProcess(url());
    workers.push(first);
    await startBulkBroadcast(db, b);
    await waitUntil(
      async () => sink.messages.length >= 100 && (await db.broadcast.findUniqueOrThrow({ where: { id: b.broadcastId } })).fanned_out_at !== null,
      180_000,
      "the fan-out to finish while emails go out",
    );

    const answer = await org.owner.api.post(`/v1/broadcasts/${b.broadcastId}/cancel`);
    const answeredAt = Date.now();
    expect(answer.body).toMatchObject({ status: "cancelled" });
    // The request cancelled the first batch; the worker's sweep is on the rest when it dies.
    await waitUntil(sweepingNow, 30_000, "the worker's sweep in the middle of a batch");
    first.child.kill("SIGKILL");
    await first.exited;
    const killedAt = Date.now();
    const left = await db.email.count({ where: { broadcast_id: b.broadcastId, status: { in: ["queued", "scheduled"] } } });
    const cancelledAtKill = await db.email.count({ where: { broadcast_id: b.broadcastId, status: "cancelled" } });
    expect(left).toBeGreaterThan(0);
    expect(cancelledAtKill).toBeGreaterThan(0);
    expect(await db.broadcastCancellation.count({ where: { broadcast_id: b.broadcastId } })).toBe(1);

    const second = startWorkerProcess(url());
    workers.push(second);
    const secondStartedAt = Date.now();
    await waitUntil(
      async () =>
        (await db.email.count({ where: { broadcast_id: b.broadcastId, status: { in: ["queued", "scheduled"] } } })) === 0 &&
        (await db.broadcastCancellation.count({ where: { broadcast_id: b.broadcastId } })) === 0 &&
        (await claimedEmails(db, b.broadcastId)) === 0,
      LEASE_MS * 6,
      `the second worker to finish the cancel (${left} left at the kill)`,
    );
    const stop = await settle(sink, answeredAt);
    // Counters reach the record within a second or two (deltas folded by the worker).
    await new Promise((resolve) => setTimeout(resolve, 2500));
    second.child.kill("SIGTERM");
    await second.exited;

    const count = countDeliveries(sink.messages, b.recipients);
    const sent = await db.email.count({ where: { broadcast_id: b.broadcastId, status: "sent" } });
    const cancelled = await db.email.count({ where: { broadcast_id: b.broadcastId, status: "cancelled" } });
    console.log(
      `[faults] cancel-kill: ${stop.after} emails reached the server after the cancel answered (the last ${stop.lastMs} ms after it); ` +
        `killed ${killedAt - answeredAt} ms after the answer with ${cancelledAtKill} cancelled and ${left} left, which the second worker's sweep cancelled; ` +
        `${count.reached} reached, ${sent} recorded sent, ${cancelled} cancelled`,
    );
    expect(stop.after).toBeLessThanOrEqual(IN_FLIGHT);
    expect(sink.messages.filter((m) => m.receivedAt > secondStartedAt)).toEqual([]);
    expect(count.extra).toBe(0);
    expect(count.reached).toBeGreaterThanOrEqual(sent);
    expect(count.reached - sent).toBeLessThanOrEqual(MOST_UNRECORDED);
    expect(sent + cancelled).toBe(RECIPIENTS);
    expect((await db.broadcast.findUniqueOrThrow({ where: { id: b.broadcastId } })).sent_count).toBe(sent);
  });
});
