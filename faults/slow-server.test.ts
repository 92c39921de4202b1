import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import type { OrgContext } from "@/lib/domain/context";
import { seedBulkBroadcast, startBulkBroadcast, type BulkBroadcast } from "@/lib/testing/bulk-broadcast";
import { countDeliveries } from "@/lib/testing/deliveries";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { startWorkerProcess, waitUntil, type WorkerProcess } from "@/lib/testing/worker-process";
import { ensureQueueSchema } from "@/lib/sending/queue";
import { cancelBroadcast } from "@/lib/services/broadcast-sending";

// The fault tests run one file at a time, so this one's worker may use the suite's database.
const url = () => process.env.DATABASE_URL!;
const FAST_RECIPIENTS = 2000;
const SLOW_RECIPIENTS = 1000;
const SLOW_ANSWER_MS = 500;

/** The service's context for an organization made by seedBulkBroadcast (which has no members). */
const asOwnerOf = (organizationId: string): OrgContext => ({
  userId: "00000000-0000-0000-0000-000000000000",
  userEmail: "owner@bulk.test",
  apiKeyId: null,
  organizationId,
  role: "owner",
});

type Run = { rate: number; firstMs: number; lastAt: number };

/** Starts the broadcast now and waits for all of it at the sink: emails/s and the first email's delay, from the start. */
async function timedSend(sink: SmtpSink, b: BulkBroadcast): Promise<Run> {
  const before = sink.messages.length;
  const started = Date.now();
  await startBulkBroadcast(db, b);
  await waitUntil(() => sink.messages.length - before >= b.recipients.length, 300_000, `${b.recipients.length} emails`);
  const mine = sink.messages.slice(before);
  const first = mine[0].receivedAt;
  const last = mine[mine.length - 1].receivedAt;
  return { rate: b.recipients.length / ((last - started) / 1000), firstMs: first - started, lastAt: last };
}

describe("one tenant's slow SMTP server beside another's fast one", () => {
  let fast: SmtpSink;
  let slow: SmtpSink;
  let worker: WorkerProcess;

  beforeAll(async () => {
    fast = await startSmtpSink({ parse: false });
    slow = await startSmtpSink({ parse: false, answerDelayMs: SLOW_ANSWER_MS });
    await ensureQueueSchema(url());
    worker = startWorkerProcess(url());
  });
  afterAll(async () => {
    if (worker?.child.exitCode === null) worker.child.kill("SIGKILL");
    await fast.close();
    await slow.close();
  });

  it("holds only its own tenant back; cancelling it settles within seconds", async () => {
    const alone = await seedBulkBroadcast(db, url(), fast, { recipients: FAST_RECIPIENTS, inboxes: 1, prefix: "alone", start: false });
    const beside = await seedBulkBroadcast(db, url(), fast, { recipients: FAST_RECIPIENTS, inboxes: 1, prefix: "beside", start: false });
    const slowOne = await seedBulkBroadcast(db, url(), slow, { recipients: SLOW_RECIPIENTS, inboxes: 1, prefix: "slow", start: false });

    // A first small broadcast, so that neither measured run pays for the worker's start.
    await timedSend(fast, await seedBulkBroadcast(db, url(), fast, { recipients: 10, inboxes: 1, prefix: "warmup", start: false }));
    const runAlone = await timedSend(fast, alone);

    await startBulkBroadcast(db, slowOne);
    await waitUntil(() => slow.messages.length >= 10, 120_000, "the slow server to be busy");
    const runBeside = await timedSend(fast, beside);
    const slowDoneByThen = slow.messages.filter((m) => m.receivedAt <= runBeside.lastAt).length;

    // Cancel the slow one: how long until its server receives nothing more.
    const cancelledAt = Date.now();
    await cancelBroadcast(asOwnerOf(slowOne.organizationId), slowOne.broadcastId);
    const afterCancel = () => slow.messages.filter((m) => m.receivedAt > cancelledAt);
    await waitUntil(
      async () => (await db.email.count({ where: { broadcast_id: slowOne.broadcastId, status: "sending" } })) === 0,
      60_000,
      "the cancel to settle",
    );
    const settledMs = Date.now() - cancelledAt;
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const lastSlow = afterCancel().at(-1)?.receivedAt;

    const ratio = runBeside.rate / runAlone.rate;
    console.log(
      `[faults] slow server (${SLOW_ANSWER_MS} ms answers) beside a fast one: the fast tenant's ${FAST_RECIPIENTS} emails at ${runAlone.rate.toFixed(0)}/s alone ` +
        `(first after ${runAlone.firstMs} ms) and ${runBeside.rate.toFixed(0)}/s beside it (first after ${runBeside.firstMs} ms): ratio ${ratio.toFixed(2)}; ` +
        `the slow tenant had ${slowDoneByThen} of ${SLOW_RECIPIENTS} out by then; after its cancel, ${afterCancel().length} more reached its server ` +
        `(the last ${lastSlow ? lastSlow - cancelledAt : 0} ms after), nothing in flight after ${settledMs} ms`,
    );

    // Structural, not timing: the fast tenant finished while the slow one was still far from done.
    expect(slowDoneByThen).toBeLessThan(SLOW_RECIPIENTS / 2);
    for (const b of [alone, beside]) {
      const count = countDeliveries(fast.messages, b.recipients);
      expect(count.missing).toEqual([]);
    }
    expect(countDeliveries(fast.messages, [...alone.recipients, ...beside.recipients]).extra).toBe(0);
    // After the cancel only the emails already at the slow server's connections finish (5 of them).
    expect(afterCancel().length).toBeLessThanOrEqual(10);
    expect(settledMs).toBeLessThan(30_000);
    const states = await db.email.groupBy({ by: ["status"], where: { broadcast_id: slowOne.broadcastId }, _count: { _all: true } });
    expect(states.map((s) => s.status).sort()).toEqual(["cancelled", "sent"]);
  });
});
