import net from "node:net";
import path from "node:path";
import nodemailer from "nodemailer";
import { addDomain } from "@/lib/services/domains";
import { alternate } from "../bench";
import { SendingWorker, startBareSmtpServer } from "../processes";
import { atLeast, unavailable } from "../stats";
import type { Scenario } from "./scenario";
import { freePort } from "@/lib/testing/free-port";

const FIGURES = [{ scenario: "SMTP submission: messages recorded", unit: "messages/s", target: "ratio >= 0.5" }];
const DOMAIN = "submission.bench.example";
const CONNECTIONS = 10;
const MESSAGES = { full: 3000, quick: 600 };
const REPEATS = 3;

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

/** A message as an application would submit it: a receipt with HTML and text. */
const message = (round: string, i: number) => ({
  from: `Shop <orders@${DOMAIN}>`,
  to: `customer-${round}-${i}@recipients.example`,
  subject: `Your order ${round}-${i}`,
  html: `<p>Hello, your order <b>${round}-${i}</b> has shipped.</p>`,
  text: `Hello, your order ${round}-${i} has shipped.`,
});

/** Submits `count` messages over pooled connections; answers messages per second until the last is answered 250. */
async function submit(port: number, count: number, round: string, auth?: { user: string; pass: string }): Promise<number> {
  const transport = nodemailer.createTransport({
    host: "127.0.0.1",
    port,
    pool: true,
    maxConnections: CONNECTIONS,
    maxMessages: Infinity,
    ignoreTLS: true,
    auth,
    getSocket: (_options, callback) => callback(null, { connection: net.connect({ host: "127.0.0.1", port, noDelay: true }) }),
  });
  const started = performance.now();
  let next = 0;
  const lane = async () => {
    while (next < count) await transport.sendMail(message(round, next++));
  };
  try {
    await Promise.all(Array.from({ length: CONNECTIONS * 2 }, lane));
  } finally {
    transport.close();
  }
  return count / ((performance.now() - started) / 1000);
}

/**
 * Messages submitted over SMTP with an API key (`npm run submission` as its own process), each
 * parsed, checked and written as an email as POST /v1/emails would (answered 250 once it is), against
 * a bare smtp-server that only stores each message in a table. Ten pooled connections each side.
 */
export const submissionScenario: Scenario = {
  id: "submission",
  figures: FIGURES,
  async run(bench) {
    const org = await bench.createOrg("submission");
    await addDomain(org.organizationId, DOMAIN, { verified: true });
    const count = bench.quick ? MESSAGES.quick : MESSAGES.full;
    const port = await freePort();
    // One client plays every application here: the per-client cap would measure itself.
    const env = { ...bench.serverEnv, SUBMISSION_SMTP_PORT: String(port), SUBMISSION_SMTP_LISTEN: "127.0.0.1", SUBMISSION_CONNECTIONS_PER_CLIENT: "0" };
    const listener = new SendingWorker(path.join(bench.dataDir, "submission.log"), env);
    listener.start("scripts/submission.ts");
    const baseline = await startBareSmtpServer(bench.databaseUrl);
    const auth = { user: "apikey", pass: org.token };
    try {
      const deadline = Date.now() + 60_000;
      while (!(await listening(port))) {
        if (Date.now() > deadline || listener.exitCode !== null)
          return FIGURES.map((f) => unavailable(f.scenario, f.unit, f.target, `the listener did not start; see ${bench.dataDir}/submission.log`));
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await submit(port, 100, "warm", auth);
      await submit(baseline.port, 100, "warm");
      const product: number[] = [];
      const bare: number[] = [];
      for (let round = 0; round < REPEATS; round++) {
        await alternate(
          round,
          async () => {
            product.push(await submit(port, count, `p${round}`, auth));
            bench.log(`  product: ${Math.round(product.at(-1)!)} messages/s`);
          },
          async () => {
            bare.push(await submit(baseline.port, count, `b${round}`));
            bench.log(`  baseline: ${Math.round(bare.at(-1)!)} messages/s`);
          },
        );
      }
      const written = await bench.pg.query<{ n: number }>("SELECT count(*)::int AS n FROM emails WHERE organization_id = $1", [org.organizationId]);
      if (written.rows[0].n !== REPEATS * count + 100) throw new Error(`${written.rows[0].n} emails written, not ${REPEATS * count + 100}`);
      const note = `${count.toLocaleString("en-US")} messages (HTML and text) over ${CONNECTIONS} connections with AUTH, each answered once its email is written; baseline: a bare smtp-server that only stores each message in a table`;
      return [atLeast("SMTP submission: messages recorded", "messages/s", product, bare, 0.5, note)];
    } finally {
      baseline.stop();
      await listener.stop();
      await bench.pg.query("DELETE FROM emails WHERE organization_id = $1", [org.organizationId]);
      await bench.pg.query("DELETE FROM threads WHERE organization_id = $1", [org.organizationId]);
      await bench.pg.query("DROP TABLE IF EXISTS bench_bare_reports");
    }
  },
};
