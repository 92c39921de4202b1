import { existsSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import nodemailer from "nodemailer";
import { alternate, copyInto, type Bench, type ProductOrg } from "../bench";
import { chunked, contactAt } from "../data";
import { HttpError } from "../http";
import { SendingWorker } from "../processes";
import type { Sink } from "../sink";
import { atLeast, below, unavailable, type Result } from "../stats";
import type { Scenario } from "./scenario";

const FIGURES = [
  { scenario: "broadcast: send rate", unit: "emails/s", target: "ratio >= 0.7" },
  { scenario: "broadcast: first email", unit: "ms", target: "value < 2000 ms" },
];
export const WORKER_ENTRY = "worker/index.ts";
const WARMUP_RECIPIENTS = 10;
const HTML = `<html><body><p>Hello,</p><p>${"Here is what happened this week. ".repeat(8)}</p><p><a href="https://bench.example/read">Read more</a></p></body></html>`;
const TEXT = "Hello, here is what happened this week.";

const notAvailable = (why: string): Result[] => FIGURES.map((f) => unavailable(f.scenario, f.unit, f.target, `not available: ${why}`));

/** Gives the organization bench.example as a verified domain, so its broadcasts may send from it. */
export async function verifiedDomain(bench: Bench, org: ProductOrg) {
  await bench.pg.query(
    "INSERT INTO domains (organization_id, name, verification_token, status, verified_at) VALUES ($1, 'bench.example', 'bench', 'verified', now())",
    [org.organizationId],
  );
}

/** An organization of `recipients` subscribed contacts, all in one segment (and the first few in a warm-up segment), with a verified domain. */
export async function audience(bench: Bench, recipients: number) {
  const org = await bench.createOrg("broadcast");
  await verifiedDomain(bench, org);
  await copyInto(
    bench.pg,
    "contacts",
    "organization_id, email, first_name, last_name",
    chunked(0, recipients, (i) => {
      const c = contactAt(i);
      return `${org.organizationId}\t${c.email}\t${c.first_name}\t${c.last_name}\n`;
    }),
  );
  const segment = async (name: string, size: number) => {
    const { rows } = await bench.pg.query<{ id: string }>("INSERT INTO segments (organization_id, name) VALUES ($1, $2) RETURNING id", [
      org.organizationId,
      name,
    ]);
    await bench.pg.query(
      `INSERT INTO segment_contacts (segment_id, contact_id, organization_id)
       SELECT $1, id, organization_id FROM contacts WHERE organization_id = $2 ORDER BY email LIMIT $3`,
      [rows[0].id, org.organizationId, size],
    );
    return rows[0].id;
  };
  const all = await segment("everyone", recipients);
  const warmup = await segment("warm-up", WARMUP_RECIPIENTS);
  await bench.pg.query("VACUUM ANALYZE contacts, segment_contacts");
  return { org, all, warmup };
}

export async function createBroadcast(bench: Bench, org: ProductOrg, segmentId: string, name: string) {
  const { data } = await bench.http.json<{ id: string }>(
    "POST",
    "/v1/broadcasts",
    org.token,
    {
      name,
      subject: `News of the week (${name})`,
      from_email: "news@bench.example",
      from_name: "Bench News",
      html_content: HTML,
      text_content: TEXT,
      segment_id: segmentId,
      sending_speed: "instant",
    },
    201,
  );
  return data.id;
}

/** Sends a broadcast and waits for its emails at the sink: emails/s and ms to the first, both from the send request. */
export async function productSend(bench: Bench, org: ProductOrg, segmentId: string, count: number, name: string, idleMs: number, sink: Sink = bench.sink) {
  const id = await createBroadcast(bench, org, segmentId, name);
  await sink.reset();
  const started = Date.now();
  await bench.http.json("POST", `/v1/broadcasts/${id}/send`, org.token, {});
  const stats = await sink.waitFor(count, idleMs);
  return { rate: count / ((stats.lastAt! - started) / 1000), firstMs: stats.firstAt! - started };
}

/**
 * The same number of messages from a bare nodemailer pool with the relay's settings (connections,
 * messages per connection, TCP_NODELAY sockets), as fast as it goes.
 */
export async function baselineSend(bench: Bench, count: number, sink: Sink = bench.sink, connections = bench.sizes.smtpConnections) {
  const port = sink.port;
  const transport = nodemailer.createTransport({
    host: "127.0.0.1",
    port,
    pool: true,
    maxConnections: connections,
    maxMessages: 1000,
    // Without it each message waits about 40 ms for the sink's delayed ACK (Nagle's algorithm).
    getSocket: (_options, callback) => callback(null, { connection: net.connect({ host: "127.0.0.1", port, noDelay: true }) }),
  });
  await sink.reset();
  const started = Date.now();
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const i = next++;
      await transport.sendMail({
        from: '"Bench News" <news@bench.example>',
        to: contactAt(i).email,
        subject: "News of the week (baseline)",
        html: HTML,
        text: TEXT,
        headers: { "List-Unsubscribe": "<https://bench.example/u/token>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
      });
    }
  };
  // More messages in flight than connections, so that no connection waits on the loop.
  await Promise.all(Array.from({ length: connections * 4 }, lane));
  const stats = await sink.waitFor(count, 30_000);
  transport.close();
  return { rate: count / ((stats.lastAt! - started) / 1000), firstMs: stats.firstAt! - started };
}

export const broadcastSendScenario: Scenario = {
  id: "broadcast-send",
  figures: FIGURES,
  async run(bench) {
    if (!existsSync(path.join(process.cwd(), WORKER_ENTRY))) return notAvailable(`${WORKER_ENTRY} does not exist yet`);
    const { recipients, sendRepeats } = bench.sizes;
    const { org, all, warmup } = await audience(bench, recipients);
    const worker = new SendingWorker(path.join(bench.dataDir, "worker.log"), bench.serverEnv);
    worker.start(WORKER_ENTRY);
    try {
      try {
        // Proves the pipeline end to end and lets the worker finish starting before anything is timed.
        await productSend(bench, org, warmup, WARMUP_RECIPIENTS, "warm-up", 90_000);
      } catch (error) {
        if (error instanceof HttpError && error.status === 404) return notAvailable("POST /v1/broadcasts/{id}/send answered 404");
        const exited = worker.exitCode === null ? "" : ` (the worker exited with ${worker.exitCode}; see ${bench.dataDir}/worker.log)`;
        return notAvailable(`the warm-up broadcast did not arrive: ${(error as Error).message}${exited}`);
      }
      const product = { rate: [] as number[], first: [] as number[] };
      const baseline = { rate: [] as number[], first: [] as number[] };
      for (let repeat = 0; repeat < sendRepeats; repeat++) {
        const runProduct = async () => {
          const r = await productSend(bench, org, all, recipients, `run ${repeat}`, 120_000);
          product.rate.push(r.rate);
          product.first.push(r.firstMs);
          bench.log(`  product: ${Math.round(r.rate)} emails/s, first after ${r.firstMs} ms`);
        };
        const runBaseline = async () => {
          const r = await baselineSend(bench, recipients);
          baseline.rate.push(r.rate);
          baseline.first.push(r.firstMs);
          bench.log(`  baseline: ${Math.round(r.rate)} emails/s, first after ${r.firstMs} ms`);
        };
        await alternate(repeat, runProduct, runBaseline);
      }
      const note = `${recipients.toLocaleString("en-US")} recipients at instant speed through the relay to a local SMTP sink; baseline: a nodemailer pool of ${bench.sizes.smtpConnections} connections to the same sink`;
      return [
        atLeast("broadcast: send rate", "emails/s", product.rate, baseline.rate, 0.7, note),
        below(
          "broadcast: first email",
          "ms",
          product.first,
          baseline.first,
          2000,
          "from the send request to the first message at the sink; baseline: the bare pool's first message",
        ),
      ];
    } finally {
      await worker.stop();
    }
  },
};
