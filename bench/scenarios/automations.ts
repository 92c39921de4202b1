import { existsSync } from "node:fs";
import path from "node:path";
import { alternate, copyInto, type Bench, type ProductOrg } from "../bench";
import { chunked, contactAt } from "../data";
import { HttpError } from "../http";
import { SendingWorker } from "../processes";
import { Sink } from "../sink";
import { atLeast, below, unavailable, type Result } from "../stats";
import { createBroadcast, verifiedDomain, WORKER_ENTRY } from "./broadcast-send";
import type { Scenario } from "./scenario";

const FIGURES = [
  { scenario: "automations: emails of runs due at once", unit: "emails/s", target: "ratio >= 0.8" },
  { scenario: "automations: broadcast beside runs waking", unit: "emails/s", target: "ratio >= 0.8" },
  { scenario: "automations: trigger to email", unit: "ms p95", target: "value < 2000 ms p95" },
];
const HTML = `<html><body><p>Hello {{first_name}},</p><p>${"Here is what happened this week. ".repeat(8)}</p><p><a href="https://bench.example/read">Read more</a></p></body></html>`;
const TEXT = "Hello, here is what happened this week.";
/** Runs are written due this far ahead, so that writing and analyzing them is not timed: the clock starts when they fall due. */
const DUE_IN_MS = 8_000;
const TRIGGER_SAMPLES = 20;

const notAvailable = (why: string, figures = FIGURES): Result[] => figures.map((f) => unavailable(f.scenario, f.unit, f.target, `not available: ${why}`));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `n` subscribed contacts of the organization, all in one segment; answers the segment. */
async function audience(bench: Bench, org: ProductOrg, n: number): Promise<string> {
  await copyInto(
    bench.pg,
    "contacts",
    "organization_id, email, first_name, last_name",
    chunked(0, n, (i) => {
      const c = contactAt(i);
      return `${org.organizationId}\t${c.email}\t${c.first_name}\t${c.last_name}\n`;
    }),
  );
  const { rows } = await bench.pg.query<{ id: string }>("INSERT INTO segments (organization_id, name) VALUES ($1, 'everyone') RETURNING id", [
    org.organizationId,
  ]);
  await bench.pg.query(
    `INSERT INTO segment_contacts (segment_id, contact_id, organization_id) SELECT $1, id, organization_id FROM contacts WHERE organization_id = $2`,
    [rows[0].id, org.organizationId],
  );
  await bench.pg.query("VACUUM ANALYZE contacts, segment_contacts");
  return rows[0].id;
}

/** An active automation made through the API: its id and the id of its first step. */
async function activeAutomation(bench: Bench, org: ProductOrg, body: Record<string, unknown>) {
  const { data } = await bench.http.json<{ id: string; steps: { id: string }[] }>("POST", "/v1/automations", org.token, body, 201);
  await bench.http.json("POST", `/v1/automations/${data.id}/activate`, org.token, {});
  return { id: data.id, firstStep: data.steps[0].id };
}

const sendStep = (subject: string) => ({
  type: "send_email",
  subject,
  html_content: HTML,
  text_content: TEXT,
  from_email: "news@bench.example",
  from_name: "Bench News",
});

/**
 * A run for every contact of the organization, in the automation's first step, all due at one
 * moment a little ahead (or, with `dueAt` null, in a day: runs waiting). Written in one INSERT …
 * SELECT and analyzed, as a real table of runs would be by then. Answers when they fall due.
 */
async function seedRuns(bench: Bench, org: ProductOrg, automation: { id: string; firstStep: string }, waiting = false): Promise<number> {
  const dueAt = Date.now() + (waiting ? 24 * 60 * 60_000 : DUE_IN_MS);
  await bench.pg.query(
    `INSERT INTO automation_runs (organization_id, automation_id, contact_id, status, current_step_id, next_run_at)
     SELECT organization_id, $2, id, $4::"AutomationRunStatus", $3, $5::timestamptz FROM contacts WHERE organization_id = $1`,
    [org.organizationId, automation.id, automation.firstStep, waiting ? "waiting" : "active", new Date(dueAt).toISOString()],
  );
  await bench.pg.query("ANALYZE automation_runs");
  return dueAt;
}

/** The product side: `n` runs whose one step sends an email fall due together; emails/s from that moment to the last at the sink. */
async function runsDue(bench: Bench, org: ProductOrg, n: number, round: number) {
  const automation = await activeAutomation(bench, org, {
    name: `Due at once ${round}`,
    trigger: { type: "event", event: `bench_due_${round}` },
    steps: [sendStep(`Your weekly news (${round})`)],
  });
  await bench.sink.reset();
  const dueAt = await seedRuns(bench, org, automation);
  await sleep(Math.max(0, dueAt - Date.now()));
  const stats = await bench.sink.waitFor(n, 120_000);
  return n / ((stats.lastAt! - dueAt) / 1000);
}

/** A broadcast to the segment through the same worker and relay: emails/s from the send request to the last at the sink. */
async function broadcastSend(bench: Bench, org: ProductOrg, segmentId: string, n: number, name: string, before?: () => Promise<void>) {
  const id = await createBroadcast(bench, org, segmentId, name);
  await bench.sink.reset();
  await before?.();
  const started = Date.now();
  await bench.http.json("POST", `/v1/broadcasts/${id}/send`, org.token, {});
  const stats = await bench.sink.waitFor(n, 120_000);
  return n / ((stats.lastAt! - started) / 1000);
}

/** An inbox of the organization on a sink of its own (so its mail is not counted with the relay's), proven by a verified domain. */
async function pacedInbox(bench: Bench, org: ProductOrg, sink: Sink) {
  const { rows } = await bench.pg.query<{ id: string }>(
    `INSERT INTO inboxes (organization_id, name, from_email, daily_limit, smtp_host, smtp_port, created_at, sender_confirmed_at)
     VALUES ($1, 'Sales', 'sales@bench.example', 10000, '127.0.0.1', $2, now() - interval '90 days', now()) RETURNING id`,
    [org.organizationId, sink.port],
  );
  return rows[0].id;
}

/** p95 of the samples. */
const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil(values.length * 0.95) - 1)];

export const automationsScenario: Scenario = {
  id: "automations",
  figures: FIGURES,
  async run(bench) {
    if (!existsSync(path.join(process.cwd(), WORKER_ENTRY))) return notAvailable(`${WORKER_ENTRY} does not exist yet`);
    const { recipients: n, sendRepeats } = bench.sizes;
    const runsOrg = await bench.createOrg("automations");
    const broadcastOrg = await bench.createOrg("automations-broadcast");
    const besideOrg = await bench.createOrg("automations-beside");
    for (const org of [runsOrg, broadcastOrg, besideOrg]) await verifiedDomain(bench, org);
    bench.log(`seeding ${n.toLocaleString("en-US")} contacts in each of three organizations`);
    await audience(bench, runsOrg, n);
    const segmentId = await audience(bench, broadcastOrg, n);
    await audience(bench, besideOrg, n);
    const inboxSink = await Sink.start();
    const inboxId = await pacedInbox(bench, besideOrg, inboxSink);
    const worker = new SendingWorker(path.join(bench.dataDir, "worker.log"), { ...bench.serverEnv, ALLOWED_PRIVATE_HOSTS: "127.0.0.1:*" });
    worker.start(WORKER_ENTRY);
    try {
      try {
        // The pipeline end to end (and the worker started) before anything is timed.
        const warm = await activeAutomation(bench, runsOrg, { name: "Warm-up", trigger: { type: "event", event: "warm_up" }, steps: [sendStep("Warm-up")] });
        await bench.sink.reset();
        await bench.pg.query(
          `INSERT INTO automation_runs (organization_id, automation_id, contact_id, current_step_id, next_run_at)
           SELECT organization_id, $2, id, $3, now() FROM contacts WHERE organization_id = $1 LIMIT 10`,
          [runsOrg.organizationId, warm.id, warm.firstStep],
        );
        await bench.sink.waitFor(10, 90_000);
      } catch (error) {
        if (error instanceof HttpError && error.status === 404) return notAvailable("POST /v1/automations answered 404");
        const exited = worker.exitCode === null ? "" : ` (the worker exited with ${worker.exitCode}; see ${bench.dataDir}/worker.log)`;
        return notAvailable(`the warm-up run's email did not arrive: ${(error as Error).message}${exited}`);
      }

      const runs: number[] = [];
      const alone: number[] = [];
      const beside: number[] = [];
      for (let round = 0; round < sendRepeats; round++) {
        await alternate(
          round,
          async () => {
            const rate = await runsDue(bench, runsOrg, n, round);
            runs.push(rate);
            bench.log(`  ${n} runs due at once: ${Math.round(rate)} emails/s`);
          },
          async () => {
            const rate = await broadcastSend(bench, broadcastOrg, segmentId, n, `alone ${round}`);
            alone.push(rate);
            bench.log(`  broadcast alone: ${Math.round(rate)} emails/s`);
          },
        );
        // The same broadcast while another organization's runs wake: their steps update the contact
        // and queue an email through a paced inbox, so what is measured is the engine's work beside
        // the broadcast, not two organizations splitting one relay's connections.
        const waking = await activeAutomation(bench, besideOrg, {
          name: `Waking ${round}`,
          trigger: { type: "event", event: `bench_wake_${round}` },
          inbox_ids: [inboxId],
          steps: [
            { type: "update_contact", add_tags: [`woke-${round}`] },
            { type: "send_email", subject: "Following up", html_content: HTML },
          ],
        });
        const rate = await broadcastSend(bench, broadcastOrg, segmentId, n, `beside ${round}`, async () => {
          const dueAt = await seedRuns(bench, besideOrg, waking);
          await sleep(Math.max(0, dueAt - Date.now()));
        });
        beside.push(rate);
        bench.log(`  broadcast beside ${n} runs waking: ${Math.round(rate)} emails/s`);
        await bench.http.json("DELETE", `/v1/automations/${waking.id}`, besideOrg.token);
      }
      const results = [
        atLeast(
          FIGURES[0].scenario,
          "emails/s",
          runs,
          alone,
          0.8,
          `${n.toLocaleString("en-US")} runs of one organization falling due at one moment, each sending an email through the relay, from that moment to the last email at the sink; baseline: a broadcast to as many contacts of another organization, same worker and relay`,
        ),
        atLeast(
          FIGURES[1].scenario,
          "emails/s",
          beside,
          alone,
          0.8,
          `the broadcast again while ${n.toLocaleString("en-US")} runs of another organization fall due (update the contact, queue an email through a paced inbox); baseline: the broadcast alone`,
        ),
      ];
      results.push(await triggerLatency(bench, runsOrg, n));
      return results;
    } finally {
      await worker.stop();
      inboxSink.stop();
    }
  },
};

/** With `n` runs waiting in a day-long wait, a custom event through POST /v1/events until its run's email is at the sink. */
async function triggerLatency(bench: Bench, org: ProductOrg, n: number): Promise<Result> {
  const figure = FIGURES[2];
  const waiting = await activeAutomation(bench, org, {
    name: "Waiting",
    trigger: { type: "event", event: "bench_idle" },
    steps: [{ type: "wait", minutes: 1440 }],
  });
  await seedRuns(bench, org, waiting, true);
  await activeAutomation(bench, org, { name: "Triggered", trigger: { type: "event", event: "bench_ping" }, steps: [sendStep("Ping")] });
  const samples: number[] = [];
  for (let i = 0; i < TRIGGER_SAMPLES; i++) {
    await bench.sink.reset();
    const started = Date.now();
    try {
      await bench.http.json("POST", "/v1/events", org.token, { name: "bench_ping", email: contactAt(i).email }, 202);
    } catch (error) {
      if (error instanceof HttpError && error.status === 404) return notAvailable("POST /v1/events answered 404", [figure])[0];
      throw error;
    }
    const stats = await bench.sink.waitFor(1, 30_000);
    samples.push(stats.lastAt! - started);
  }
  bench.log(`  trigger to email: ${samples.join(", ")} ms`);
  return below(
    figure.scenario,
    "ms p95",
    [p95(samples)],
    [],
    2000,
    `${TRIGGER_SAMPLES} custom events, one at a time, each starting a run whose first step sends an email, with ${n.toLocaleString("en-US")} runs of the organization waiting`,
  );
}
