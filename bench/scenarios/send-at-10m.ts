import { alternate } from "../bench";
import { atLeast } from "../stats";
import { audience, productSend } from "./broadcast-send";
import { seedHistory } from "./large-tables";
import { ownDatabase } from "./own-database";
import type { Scenario } from "./scenario";

const FIGURE = { scenario: "broadcast: send rate with 10M emails in the table", unit: "emails/s", target: "ratio >= 0.9" };
/** BENCH_HISTORY_EMAILS: fewer than ten million where the disk or the time will not take them (the note says how many). */
const HISTORY = Number(process.env.BENCH_HISTORY_EMAILS ?? 10_000_000);
/** Recipients of each send: 20 000 keep six sends within the hour on a loaded 2-core machine. */
const RECIPIENTS = 20_000;

export const sendAt10mScenario: Scenario = {
  id: "send-at-10m",
  figures: [FIGURE],
  async run(bench) {
    const history = bench.quick ? HISTORY / 20 : HISTORY;
    const { sendRepeats } = bench.sizes;
    const recipients = bench.quick ? 5_000 : RECIPIENTS;
    // The same send to two databases of their own, one whose emails table already holds the
    // history: a database cannot be both at once, and a new one each time would take an hour.
    const empty = await ownDatabase(bench, "empty", 0);
    const full = await ownDatabase(bench, "full", 1);
    const workers: ReturnType<typeof empty.startWorker>[] = [];
    try {
      const sides = [
        { side: empty, ...(await audience(empty.bench, recipients)) },
        { side: full, ...(await audience(full.bench, recipients)) },
      ];
      const historyOrg = await full.bench.createOrg("history");
      bench.log(`  seeding ${history.toLocaleString("en-US")} emails of history`);
      const seeded = performance.now();
      await seedHistory(full.bench.pg, historyOrg.organizationId, history, bench.log);
      const seedSeconds = (performance.now() - seeded) / 1000;
      const size = (await full.bench.pg.query<{ size: string }>("SELECT pg_size_pretty(pg_total_relation_size('emails')) AS size")).rows[0].size;
      bench.log(`  seeded in ${seedSeconds.toFixed(0)} s; the emails table is ${size}`);
      for (const s of sides) {
        workers.push(s.side.startWorker());
        await productSend(s.side.bench, s.org, s.warmup, 10, "warm-up", 90_000);
      }
      const rate = { full: [] as number[], empty: [] as number[] };
      for (let repeat = 0; repeat < sendRepeats; repeat++) {
        const send = (which: 0 | 1) => async () => {
          const s = sides[which];
          const r = await productSend(s.side.bench, s.org, s.all, recipients, `run ${repeat}`, 120_000);
          (which === 1 ? rate.full : rate.empty).push(r.rate);
          bench.log(`  ${which === 1 ? "with the history" : "empty table"}: ${Math.round(r.rate)} emails/s`);
        };
        await alternate(repeat, send(1), send(0));
      }
      const note =
        `${recipients.toLocaleString("en-US")} recipients at instant speed through the relay, to a database whose emails table holds ` +
        `${history.toLocaleString("en-US")} emails of another organization (a year's, bodies cleared; ${size} with its indexes); ` +
        `baseline: the same send to a database of its own with an empty emails table, alternating`;
      return [atLeast(FIGURE.scenario, FIGURE.unit, rate.full, rate.empty, 0.9, note)];
    } finally {
      for (const worker of workers) await worker.stop();
      await empty.close();
      await full.close();
    }
  },
};
