import { existsSync } from "node:fs";
import path from "node:path";
import { alternate } from "../bench";
import { SendingWorker } from "../processes";
import { Sink } from "../sink";
import { atLeast, unavailable, type Result } from "../stats";
import { audience, baselineSend, productSend, WORKER_ENTRY } from "./broadcast-send";
import type { Scenario } from "./scenario";

const FIGURES = [{ scenario: "broadcast: relay answering in 50 ms", unit: "emails/s", target: "ratio >= 0.8" }];
/** How long the relay takes to answer each message. */
const ANSWER_MS = 50;
/** The worker's SMTP_RELAY_CONNECTIONS, and the bare pool's connections. */
const CONNECTIONS = 20;
const WARMUP_RECIPIENTS = 10;

/**
 * One worker against a relay that answers each message in 50 ms, the way a relay in another data
 * centre does: its throughput is its connections', so the worker must keep all of them busy —
 * while it writes down each accepted email before that connection ends another message
 * (lib/sending/smtp-pool.ts). Baseline: a bare nodemailer pool of as many connections to the
 * same relay, as fast as it goes.
 */
export const slowRelayScenario: Scenario = {
  id: "slow-relay",
  figures: FIGURES,
  async run(bench) {
    if (!existsSync(path.join(process.cwd(), WORKER_ENTRY)))
      return FIGURES.map((f) => unavailable(f.scenario, f.unit, f.target, `not available: ${WORKER_ENTRY}`));
    const recipients = bench.sizes.slowRelayRecipients;
    const { org, all, warmup } = await audience(bench, recipients);
    const relay = await Sink.start({ answerMs: ANSWER_MS });
    const worker = new SendingWorker(path.join(bench.dataDir, "worker-slow-relay.log"), {
      ...bench.serverEnv,
      SMTP_RELAY_URL: relay.url,
      SMTP_RELAY_CONNECTIONS: String(CONNECTIONS),
    });
    worker.start(WORKER_ENTRY);
    try {
      await productSend(bench, org, warmup, WARMUP_RECIPIENTS, "warm-up", 90_000, relay);
      const product: number[] = [];
      const baseline: number[] = [];
      for (let repeat = 0; repeat < bench.sizes.sendRepeats; repeat++) {
        await alternate(
          repeat,
          async () => {
            const r = await productSend(bench, org, all, recipients, `slow relay ${repeat}`, 120_000, relay);
            product.push(r.rate);
            bench.log(`  product: ${Math.round(r.rate)} emails/s, first after ${r.firstMs} ms`);
          },
          async () => {
            const r = await baselineSend(bench, recipients, relay, CONNECTIONS);
            baseline.push(r.rate);
            bench.log(`  baseline: ${Math.round(r.rate)} emails/s`);
          },
        );
      }
      const note =
        `${recipients.toLocaleString("en-US")} recipients at instant speed, one worker with SMTP_RELAY_CONNECTIONS=${CONNECTIONS}, ` +
        `to a relay answering each message in ${ANSWER_MS} ms (at most ${Math.round((CONNECTIONS * 1000) / ANSWER_MS)}/s); baseline: a nodemailer pool of ${CONNECTIONS} connections to it`;
      return [atLeast(FIGURES[0].scenario, FIGURES[0].unit, product, baseline, 0.8, note)] satisfies Result[];
    } finally {
      await worker.stop();
      relay.stop();
    }
  },
};
