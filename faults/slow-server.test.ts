import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import type { OrgContext } from "@/lib/domain/context";
import { seedBulkBroadcast, startBulkBroadcast, type BulkBroadcast } from "@/lib/testing/bulk-broadcast";
import { claimedEmails } from "@/lib/testing/claims";
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
/** What one inbox's server gets at once (lib/sending/transports.ts): its pace is this many per answer time. */
const SLOW_CONNECTIONS = 5;
/** Small broadcasts whose first email is timed, alone and beside the slow server, this many of each. */
const FIRSTS = 5;
const FIRST_RECIPIENTS = 20;
/** The slow tenants beside which they are timed, one each: more than its first claim takes. */
const FIRST_SLOW_RECIPIENTS = 200;
/** Before each, nothing at all for this long. */
const QUIET_MS = 3000;
/** The figure: another tenant's first email beside the slow server within this of its time alone. */
const FIRST_EMAIL_MARGIN_MS = 1000;
/** The worker's lease (WORKER_LEASE_SECONDS): a cancel must settle by the worker giving emails back, not by leases running out. */
const LEASE_MS = 10_000;

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

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

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

  it("holds only its own tenant back, whose pace it keeps; others' first emails do not wait for it; cancelling it settles within seconds", async () => {
    const seed = (recipients: number, prefix: string, sink = fast) => seedBulkBroadcast(db, url(), sink, { recipients, inboxes: 1, prefix, start: false });
    const alone = await seed(FAST_RECIPIENTS, "alone");
    const beside = await seed(FAST_RECIPIENTS, "beside");
    const slowOne = await seed(SLOW_RECIPIENTS, "slow", slow);
    const firsts: { alone: BulkBroadcast; slow: BulkBroadcast; beside: BulkBroadcast }[] = [];
    for (let i = 0; i < FIRSTS; i++) {
      firsts.push({
        alone: await seed(FIRST_RECIPIENTS, `first-alone-${i}-`),
        slow: await seed(FIRST_SLOW_RECIPIENTS, `first-slow-${i}-`, slow),
        beside: await seed(FIRST_RECIPIENTS, `first-beside-${i}-`),
      });
    }

    // A first small broadcast, so that neither measured run pays for the worker's start.
    await timedSend(fast, await seedBulkBroadcast(db, url(), fast, { recipients: 10, inboxes: 1, prefix: "warmup", start: false }));
    const runAlone = await timedSend(fast, alone);

    // Another tenant's first email, alone and beside a slow tenant that has just started (its first
    // claim, sized for a server not yet measured, fills its queue): each after a few quiet seconds,
    // when the worker no longer counts the previous tenant's inbox as at work. Alternated, so that
    // both sides meet the machine alike.
    const firstAlone: number[] = [];
    const firstBeside: number[] = [];
    for (const first of firsts) {
      await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
      firstAlone.push((await timedSend(fast, first.alone)).firstMs);
      await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
      await startBulkBroadcast(db, first.slow);
      await waitUntil(() => slow.unanswered() === SLOW_CONNECTIONS, 60_000, "the slow server to be busy");
      firstBeside.push((await timedSend(fast, first.beside)).firstMs);
      await cancelBroadcast(asOwnerOf(first.slow.organizationId), first.slow.broadcastId);
      await waitUntil(async () => (await claimedEmails(db, first.slow.broadcastId)) === 0 && slow.unanswered() === 0, 60_000, "the slow tenant cancelled");
    }

    // The fast tenant's throughput beside a slow tenant in full flow, and the slow tenant's pace meanwhile.
    const slowStart = slow.messages.length;
    await startBulkBroadcast(db, slowOne);
    await waitUntil(() => slow.messages.length >= slowStart + 10 && slow.unanswered() === SLOW_CONNECTIONS, 120_000, "the slow server to be busy");
    const slowFrom = { at: Date.now(), count: slow.messages.length };
    const slowPace = (SLOW_CONNECTIONS * 1000) / SLOW_ANSWER_MS;
    const runBeside = await timedSend(fast, beside);
    await waitUntil(() => Date.now() - slowFrom.at >= 5_000, 10_000, "five seconds of the slow tenant");
    const slowRate = (slow.messages.length - slowFrom.count) / ((Date.now() - slowFrom.at) / 1000);
    const slowDoneByThen = slow.messages.length - slowStart;

    // Cancel the slow one: how long until the worker holds none of its emails, and what still reaches its server.
    const cancelledAt = Date.now();
    await cancelBroadcast(asOwnerOf(slowOne.organizationId), slowOne.broadcastId);
    const afterCancel = () => slow.messages.filter((m) => m.receivedAt > cancelledAt);
    await waitUntil(async () => (await claimedEmails(db, slowOne.broadcastId)) === 0, 60_000, "the cancel to settle");
    const settledMs = Date.now() - cancelledAt;
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const lastSlow = afterCancel().at(-1)?.receivedAt;

    const ratio = runBeside.rate / runAlone.rate;
    console.log(
      `[faults] slow server (${SLOW_ANSWER_MS} ms answers) beside a fast one: the fast tenant's ${FAST_RECIPIENTS} emails at ${runAlone.rate.toFixed(0)}/s alone ` +
        `and ${runBeside.rate.toFixed(0)}/s beside it: ratio ${ratio.toFixed(2)}; first emails of other tenants alone ${firstAlone.join(", ")} ms, ` +
        `beside it ${firstBeside.join(", ")} ms (medians ${median(firstAlone)} and ${median(firstBeside)}); the slow tenant at ${slowRate.toFixed(1)}/s meanwhile ` +
        `(its server's pace ${slowPace}/s), ${slowDoneByThen} of ${SLOW_RECIPIENTS} out by then; after its cancel, ${afterCancel().length} more reached its server ` +
        `(the last ${lastSlow ? lastSlow - cancelledAt : 0} ms after), nothing claimed after ${settledMs} ms`,
    );

    // Structural, not timing: the fast tenant finished while the slow one was still far from done.
    expect(slowDoneByThen).toBeLessThan(SLOW_RECIPIENTS / 2);
    for (const b of [alone, beside, ...firsts.flatMap((f) => [f.alone, f.beside])]) {
      const count = countDeliveries(fast.messages, b.recipients);
      expect(count.missing).toEqual([]);
      expect(count.extra).toBe(0);
    }
    // The acceptance figure: every first email beside the slow server within a second of the time alone.
    expect(Math.max(...firstBeside)).toBeLessThanOrEqual(median(firstAlone) + FIRST_EMAIL_MARGIN_MS);
    // The slow tenant keeps the pace its own server allows (generously: half of it).
    expect(slowRate).toBeGreaterThanOrEqual(slowPace / 2);
    // After the cancel only the emails already at the slow server's connections finish (5 of them).
    expect(afterCancel().length).toBeLessThanOrEqual(10);
    // The worker gave the rest back: it did not keep them until their lease ran out.
    expect(settledMs).toBeLessThan(LEASE_MS);
    const states = await db.email.groupBy({ by: ["status"], where: { broadcast_id: slowOne.broadcastId }, _count: { _all: true } });
    expect(states.map((s) => s.status).sort()).toEqual(["cancelled", "sent"]);
  });
});
