import path from "node:path";
import { db } from "@/lib/db";
import { recordFeedback } from "@/lib/feedback/record-feedback";
import { recordOpen } from "@/lib/tracking/record-open";
import { signOpenToken } from "@/lib/tracking/token";
import { audience, productSend, verifiedDomain, WORKER_ENTRY } from "./broadcast-send";
import { seedBroadcast, seedBroadcastEmails } from "./large-tables";
import type { Bench } from "../bench";
import { SendingWorker } from "../processes";
import { atLeast, below, max } from "../stats";
import type { Scenario } from "./scenario";

const FIGURES = [
  { scenario: "cancel a 1M-recipient broadcast: answer", unit: "ms", target: "value < 1000 ms" },
  { scenario: "cancel a 1M-recipient broadcast: longest outcome wait", unit: "ms", target: "value < 1000 ms" },
  { scenario: "cancel a 1M-recipient broadcast: another organization's send", unit: "emails/s", target: "ratio >= 0.8" },
];
const OTHER_RECIPIENTS = 5_000;
/** Emails already out per broadcast, whose opens and delivery reports keep coming while it is cancelled. */
const SENT = 20_000;
const PERSON = { userAgent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36", ip: "192.0.2.9" };
/** Outcomes arriving a second: opens and delivery reports of a broadcast in its first hours. */
const RATE = 20;

type Outcome = { at: number; ms: number; failed: boolean };

/**
 * Records outcomes of the broadcast's sent emails as they arrive from outside, `RATE` a second
 * (open loop: one starts every 1/RATE s whatever the others do): a person's first open and a
 * delivery report, alternately, each adding to a counter on the broadcast's row. Each is timed
 * from its arrival. Runs until stopped.
 */
function outcomeStream(organizationId: string, sent: string[]) {
  const outcomes: Outcome[] = [];
  const pending = new Set<Promise<void>>();
  let next = 0;
  const record = async (id: string, open: boolean) => {
    const at = performance.now();
    let failed = false;
    try {
      if (open) await recordOpen(signOpenToken(id), PERSON);
      else
        await db.$transaction((tx) =>
          recordFeedback(tx, [{ emailId: id, organizationId, kind: "delivered", status: "2.0.0", diagnostic: null, source: "smtp" }]),
        );
    } catch {
      // Given up on (its transaction's 5 s limit): lost, as the web request or the listener would lose it.
      failed = true;
    }
    outcomes.push({ at, ms: performance.now() - at, failed });
  };
  const timer = setInterval(() => {
    if (next >= sent.length) return;
    const id = sent[next++];
    const running = record(id, next % 2 === 0).finally(() => pending.delete(running));
    pending.add(running);
  }, 1000 / RATE);
  return {
    outcomes,
    stop: async () => {
      clearInterval(timer);
      await Promise.all(pending);
    },
  };
}

const queuedLeft = async (bench: Bench, broadcastId: string) =>
  Number((await bench.pg.query(`SELECT count(*) FROM emails WHERE broadcast_id = $1 AND status IN ('queued', 'scheduled')`, [broadcastId])).rows[0].count);

/**
 * A broadcast in full flow, its outcomes streaming in: `cancel` runs, then the stream goes on until
 * nothing of it is queued. Answers the cancel's time, the longest outcome wait from the cancel to
 * then, and the longest in the 3 s before it.
 */
async function cancelInFlow(bench: Bench, organizationId: string, broadcastId: string, cancel: () => Promise<unknown>, beside?: () => Promise<number>) {
  const sent = (await bench.pg.query<{ id: string }>(`SELECT id FROM emails WHERE broadcast_id = $1 AND status = 'sent'`, [broadcastId])).rows.map((r) => r.id);
  await bench.pg.query(`UPDATE broadcasts SET status = 'sending' WHERE id = $1`, [broadcastId]);
  await bench.sink.reset();
  await bench.sink.waitFor(500, 60_000);
  const stream = outcomeStream(organizationId, sent);
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const cancelledAt = performance.now();
  await cancel();
  const answerMs = performance.now() - cancelledAt;
  // Started once the cancel answered: the sink then counts only what is sent from here on.
  const besideRate = beside?.() ?? Promise.resolve(0);
  const sweepStarted = Date.now();
  while ((await queuedLeft(bench, broadcastId)) > 0) await new Promise((resolve) => setTimeout(resolve, 100));
  const sweepMs = Date.now() - sweepStarted;
  const otherRate = await besideRate;
  await new Promise((resolve) => setTimeout(resolve, 500));
  await stream.stop();
  const during = stream.outcomes.filter((o) => o.at + o.ms >= cancelledAt).map((o) => o.ms);
  const lost = stream.outcomes.filter((o) => o.failed).length;
  const before = stream.outcomes.filter((o) => o.at >= cancelledAt - 3000 && o.at + o.ms < cancelledAt).map((o) => o.ms);
  return { answerMs, sweepMs, during, before, lost, otherRate };
}

export const cancelLargeScenario: Scenario = {
  id: "cancel-large",
  figures: FIGURES,
  async run(bench) {
    const recipients = bench.quick ? 50_000 : 1_000_000;
    const org = await bench.createOrg("cancel");
    await verifiedDomain(bench, org);
    const batched = await seedBroadcast(bench.pg, org.organizationId, "Cancelled in batches", "paused");
    const oneUpdate = await seedBroadcast(bench.pg, org.organizationId, "Cancelled in one UPDATE", "paused");
    for (const [id, tag] of [
      [batched, "b"],
      [oneUpdate, "u"],
    ]) {
      bench.log(`  seeding ${recipients.toLocaleString("en-US")} queued and ${SENT.toLocaleString("en-US")} sent emails of a broadcast`);
      await seedBroadcastEmails(bench.pg, org.organizationId, id, SENT, "sent", `${tag}sent`);
      await seedBroadcastEmails(bench.pg, org.organizationId, id, recipients, "queued", `${tag}queued`);
    }
    // The first cancel a server process answers also checks the job queue's schema: done here, untimed.
    const warmup = await seedBroadcast(bench.pg, org.organizationId, "Warm-up", "sending");
    await seedBroadcastEmails(bench.pg, org.organizationId, warmup, 10, "queued", "warm");
    await bench.http.json("POST", `/v1/broadcasts/${warmup}/cancel`, org.token, {});
    await bench.pg.query("VACUUM ANALYZE emails");
    // Another organization, whose broadcast starts as the cancel answers: its claims share the worker and the queue indexes.
    const other = await audience(bench, OTHER_RECIPIENTS);
    let run = 0;
    const otherSend = async () => (await productSend(bench, other.org, other.all, OTHER_RECIPIENTS, `beside ${++run}`, 300_000)).rate;
    const worker = new SendingWorker(path.join(bench.dataDir, "worker.log"), bench.serverEnv);
    worker.start(WORKER_ENTRY);
    try {
      await productSend(bench, other.org, other.warmup, 10, "warm-up", 90_000);
      const now = await cancelInFlow(
        bench,
        org.organizationId,
        batched,
        () => bench.http.json("POST", `/v1/broadcasts/${batched}/cancel`, org.token, {}),
        otherSend,
      );
      const alone = await otherSend();
      bench.log(
        `  batched: answered in ${now.answerMs.toFixed(0)} ms, the sweep done ${now.sweepMs} ms later; longest outcome ${max(now.during).toFixed(0)} ms, ${now.lost} lost; ` +
          `another organization's send at ${Math.round(now.otherRate)} emails/s meanwhile, ${Math.round(alone)} alone`,
      );
      // The cancel as it was before issue 29: one UPDATE of every queued email under the broadcast's row lock.
      const before = await cancelInFlow(bench, org.organizationId, oneUpdate, async () => {
        const client = await bench.pg.connect();
        try {
          await client.query("BEGIN");
          await client.query("SELECT 1 FROM broadcasts WHERE id = $1 FOR NO KEY UPDATE", [oneUpdate]);
          await client.query(
            `UPDATE emails SET status = 'cancelled', last_error = 'The broadcast was cancelled', updated_at = now()
             WHERE broadcast_id = $1 AND organization_id = $2 AND status IN ('queued', 'scheduled')`,
            [oneUpdate, org.organizationId],
          );
          await client.query("UPDATE broadcasts SET status = 'cancelled', completed_at = now() WHERE id = $1", [oneUpdate]);
          await client.query("SELECT pg_notify('mailplatform_broadcast_stopped', $1)", [oneUpdate]);
          await client.query("COMMIT");
        } finally {
          client.release();
        }
      });
      bench.log(`  one UPDATE: answered in ${before.answerMs.toFixed(0)} ms; longest outcome ${max(before.during).toFixed(0)} ms, ${before.lost} lost`);
      const note =
        `${recipients.toLocaleString("en-US")} queued emails of a broadcast sending through the relay, its opens and delivery reports arriving at ${RATE}/s ` +
        `(each adds to the broadcast's counters); baseline: the one-UPDATE cancel of before, on a twin broadcast`;
      return [
        atLeast(
          FIGURES[2].scenario,
          FIGURES[2].unit,
          [now.otherRate],
          [alone],
          0.8,
          `${OTHER_RECIPIENTS.toLocaleString("en-US")} recipients of another organization through the same worker and relay, started as the cancel answered, ` +
            `while the sweep went on; baseline: the same send alone after the sweep`,
        ),
        below(
          FIGURES[0].scenario,
          "ms",
          [now.answerMs],
          [before.answerMs],
          1000,
          `${note}; the worker's sweep finished ${(now.sweepMs / 1000).toFixed(1)} s after the answer`,
        ),
        below(
          FIGURES[1].scenario,
          "ms",
          [max(now.during)],
          [max(before.during)],
          1000,
          `${now.during.length} outcomes from the cancel to the end of its sweep, ${now.lost} lost (longest in the 3 s before: ${max(now.before).toFixed(0)} ms); ` +
            `the one-UPDATE cancel: ${before.during.length} outcomes, ${before.lost} lost at their transaction's 5 s limit`,
        ),
      ];
    } finally {
      await worker.stop();
    }
  },
};
