import net from "node:net";
import path from "node:path";
import nodemailer from "nodemailer";
import { returnPathAddress } from "@/lib/feedback/verp";
import { rawArf, rawDsn } from "@/lib/testing/reports";
import { alternate, type Bench } from "../bench";
import { SendingWorker, startBareSmtpServer } from "../processes";
import { reaches, unavailable } from "../stats";
import type { Scenario } from "./scenario";
import { freePort } from "@/lib/testing/free-port";

const FIGURES = [{ scenario: "intake: reports recorded", unit: "reports/s", target: "value >= 500 reports/s" }];
const DOMAIN = "intake.bench.example";
const HOST = `bounces.${DOMAIN}`;
const CONNECTIONS = 10;
/** Reports sent through each side before the measured rounds. */
const WARMUP_REPORTS = 200;

/** `count` emails sent from a domain with a verified return path, to contacts of their own. */
async function seed(bench: Bench, count: number) {
  const org = await bench.createOrg("intake");
  await bench.pg.query(
    `INSERT INTO domains (organization_id, name, verification_token, status, verified_at, return_path, return_path_verified_at)
     VALUES ($1, $2, 'bench', 'verified', now(), 'bounces', now())`,
    [org.organizationId, DOMAIN],
  );
  await bench.pg.query(
    `WITH c AS (
       INSERT INTO contacts (organization_id, email) SELECT $1::uuid, 'intake' || g || '@recipients.example' FROM generate_series(1, $2::int) g RETURNING id, email)
     INSERT INTO emails (organization_id, message_id, from_email, to_email, subject, status, sent_at, contact_id)
     SELECT $1::uuid, '<' || gen_random_uuid() || '@${DOMAIN}>', 'news@${DOMAIN}', c.email, 'News', 'sent', now(), c.id FROM c`,
    [org.organizationId, count],
  );
  const { rows } = await bench.pg.query<{ id: string; to_email: string; message_id: string }>(
    "SELECT id, to_email, message_id FROM emails WHERE organization_id = $1 ORDER BY to_email",
    [org.organizationId],
  );
  await bench.pg.query("VACUUM ANALYZE emails, contacts");
  return { organizationId: org.organizationId, emails: rows };
}

/** One report per email: most delivered, some hard and soft bounces, a few complaints. */
function reports(emails: { id: string; to_email: string; message_id: string }[]) {
  return emails.map((email, i) => {
    const to = returnPathAddress(email.id, HOST);
    const kind = i % 50 === 0 ? "complaint" : i % 20 < 3 ? "hard" : i % 20 < 5 ? "soft" : "delivered";
    const raw =
      kind === "complaint"
        ? rawArf({ to, recipient: email.to_email, originalMessageId: email.message_id })
        : rawDsn({
            to,
            action: kind === "hard" ? "failed" : kind === "soft" ? "delayed" : "delivered",
            finalRecipient: email.to_email,
            originalMessageId: email.message_id,
            diagnostic: kind === "hard" ? "550 5.1.1 User unknown" : undefined,
          });
    return { to, raw };
  });
}

/** Puts the emails back as sent, so every run records the same outcomes from scratch. */
async function reset(bench: Bench, organizationId: string) {
  await bench.pg.query("DELETE FROM feedback_reports");
  await bench.pg.query(
    `UPDATE emails SET status = 'sent', delivered_at = NULL, bounced_at = NULL, complained_at = NULL, bounce_type = NULL, bounce_status = NULL, bounce_diagnostic = NULL
     WHERE organization_id = $1`,
    [organizationId],
  );
  for (const table of ["events", "event_outbox", "suppressions", "soft_bounce_streaks", "webhook_deliveries"])
    await bench.pg.query(`DELETE FROM ${table} WHERE organization_id = $1`, [organizationId]);
  await bench.pg.query("UPDATE contacts SET subscribed = true, unsubscribed_at = NULL WHERE organization_id = $1", [organizationId]);
  await bench.pg.query("VACUUM ANALYZE emails, feedback_reports");
}

/** Sends every report to `port` over pooled connections, as receiving systems would, and waits until `done()` counts them all. */
async function deliver(port: number, messages: { to: string; raw: string }[], done: () => Promise<number>, log?: (message: string) => void): Promise<number> {
  const transport = nodemailer.createTransport({
    host: "127.0.0.1",
    port,
    pool: true,
    maxConnections: CONNECTIONS,
    maxMessages: Infinity,
    ignoreTLS: true,
    getSocket: (_options, callback) => callback(null, { connection: net.connect({ host: "127.0.0.1", port, noDelay: true }) }),
  });
  const started = performance.now();
  let next = 0;
  const lane = async () => {
    while (next < messages.length) {
      const message = messages[next++];
      await transport.sendMail({ envelope: { from: "", to: message.to }, raw: message.raw });
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS * 4 }, lane));
  transport.close();
  log?.(`    all ${messages.length} accepted after ${Math.round(performance.now() - started)} ms`);
  let idleSince = performance.now();
  let last = -1;
  for (;;) {
    const count = await done();
    if (count >= messages.length) break;
    if (count > last) {
      last = count;
      idleSince = performance.now();
    } else if (performance.now() - idleSince > 60_000) throw new Error(`stalled: ${count} of ${messages.length} reports recorded`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return messages.length / ((performance.now() - started) / 1000);
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

export const intakeScenario: Scenario = {
  id: "intake",
  figures: FIGURES,
  async run(bench) {
    const count = bench.sizes.reports;
    const { organizationId, emails } = await seed(bench, count);
    const messages = reports(emails);
    const port = await freePort();
    // One client plays every receiving system here: its per-client caps (docs/SECURITY.md) would measure themselves.
    const env = {
      ...bench.serverEnv,
      INBOUND_SMTP_PORT: String(port),
      INBOUND_SMTP_LISTEN: "127.0.0.1",
      INBOUND_CONNECTIONS_PER_CLIENT: "0",
      INBOUND_REPORTS_PER_CLIENT_PER_SECOND: "0",
    };
    const listener = new SendingWorker(path.join(bench.dataDir, "inbound.log"), env);
    const worker = new SendingWorker(path.join(bench.dataDir, "worker.log"), env);
    listener.start("scripts/inbound.ts");
    worker.start("worker/index.ts");
    const baseline = await startBareSmtpServer(bench.databaseUrl);
    try {
      // The listener is up once it answers.
      const deadline = Date.now() + 60_000;
      while (!(await listening(port))) {
        if (Date.now() > deadline || listener.exitCode !== null)
          return FIGURES.map((f) => unavailable(f.scenario, f.unit, f.target, `the listener did not start; see ${bench.dataDir}/inbound.log`));
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const recorded = async () =>
        Number((await bench.pg.query<{ n: string }>("SELECT count(*) AS n FROM feedback_reports WHERE status IN ('processed', 'discarded')")).rows[0].n);
      const stored = async () => Number((await bench.pg.query<{ n: string }>("SELECT count(*) AS n FROM bench_bare_reports")).rows[0].n);
      // One small pass through each side, not measured: the worker and the listener have just
      // started, and a first round would also time their start-up and V8 compiling their code.
      const warmup = messages.slice(0, WARMUP_REPORTS);
      await reset(bench, organizationId);
      await deliver(port, warmup, recorded);
      await bench.pg.query("TRUNCATE bench_bare_reports");
      await deliver(baseline.port, warmup, stored);

      const product: number[] = [];
      const bare: number[] = [];
      for (let round = 0; round < bench.sizes.intakeRepeats; round++) {
        await alternate(
          round,
          async () => {
            await reset(bench, organizationId);
            const rate = await deliver(port, messages, recorded, bench.log);
            const wrong = await bench.pg.query("SELECT count(*)::int AS n FROM feedback_reports WHERE status <> 'processed' OR result LIKE '%already%'");
            if (wrong.rows[0].n > 0) throw new Error(`${wrong.rows[0].n} reports were not recorded as new outcomes`);
            product.push(rate);
            bench.log(`  product: ${Math.round(rate)} reports/s`);
          },
          async () => {
            await bench.pg.query("TRUNCATE bench_bare_reports");
            const rate = await deliver(baseline.port, messages, stored);
            bare.push(rate);
            bench.log(`  baseline: ${Math.round(rate)} reports/s`);
          },
        );
      }
      const note = `${count.toLocaleString("en-US")} DSN and ARF reports over ${CONNECTIONS} SMTP connections to the listener, until the worker has recorded every outcome (75 % delivered, 15 % hard, 8 % soft bounces, 2 % complaints); baseline: a bare smtp-server that only stores each message in a table`;
      return [reaches("intake: reports recorded", "reports/s", product, bare, 500, note)];
    } finally {
      baseline.stop();
      await listener.stop();
      await worker.stop();
      await bench.pg.query("DROP TABLE IF EXISTS bench_bare_reports");
    }
  },
};
