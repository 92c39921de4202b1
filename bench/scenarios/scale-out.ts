import { fork } from "node:child_process";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { alternate } from "../bench";
import { BARE, BARE_STATUS, load, RoundRobin } from "../http";
import { ProductServer, SendingWorker } from "../processes";
import { Sink } from "../sink";
import { atLeast, median, unavailable, type Result } from "../stats";
import { audience, productSend, WORKER_ENTRY } from "./broadcast-send";
import type { Scenario } from "./scenario";

/** How long the sink holds every reply: a server a 50 ms round trip away (four round trips a message). */
const REPLY_DELAY_MS = 50;
/** Enough that every worker claims some: each worker's first claims, preparation and SMTP connections happen before the timing. */
const WARMUP_RECIPIENTS = 150;
/** SMTP_RELAY_CONNECTIONS's default: the workers' connections each, and the bare senders'. */
const RELAY_CONNECTIONS = 5;

const WORKER_FIGURES = [
  { scenario: "scale-out: three workers, replies held 50 ms", unit: "emails/s", target: "ratio >= 2.5" },
  // Three workers' target per worker (2.5 / 3), for two.
  { scenario: "scale-out: two workers, replies held 50 ms", unit: "emails/s", target: "ratio >= 1.67" },
];
const WEB_FIGURES = [{ scenario: "scale-out: two web servers, GET /v1/broadcasts/{id}", unit: "req/s", target: "ratio >= 1.6" }];

const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");

/**
 * `processes` bare senders (bare-sender.ts), `connections` each, sending `count` messages between
 * them to the sink: what the machine allows that many processes waiting on it. Answers emails/s.
 */
async function bareSenders(sink: Sink, processes: number, count: number, connections: number): Promise<number> {
  const children = await Promise.all(
    Array.from({ length: processes }, async () => {
      const child = fork(path.join(import.meta.dirname, "..", "bare-sender.ts"), [], {
        execArgv: ["--import", "tsx"],
        stdio: ["ignore", "ignore", "inherit", "ipc"],
      });
      await new Promise((resolve) => child.once("message", resolve));
      return child;
    }),
  );
  try {
    await sink.reset();
    const started = Date.now();
    const share = Math.ceil(count / processes);
    await Promise.all(
      children.map((child, i) => {
        const done = new Promise((resolve) => child.once("message", resolve));
        child.send({ port: sink.port, count: share, connections, offset: i * share });
        return done;
      }),
    );
    const stats = await sink.waitFor(share * processes, 30_000);
    return (share * processes) / ((stats.lastAt! - started) / 1000);
  } finally {
    for (const child of children) child.disconnect();
  }
}

/**
 * One, two and three worker processes on the same database sending one broadcast each time through
 * a relay whose every reply takes 50 ms: sending is bound by waiting on the relay, not by the
 * machine's cores, so more workers should send proportionally more. Each worker runs with the
 * default settings (SMTP_RELAY_CONNECTIONS=5: about 25 emails/s at four round trips a message).
 * The baseline is one worker; the counts alternate (1, 2, 3 then 3, 2, 1).
 */
export const scaleWorkersScenario: Scenario = {
  id: "scale-workers",
  figures: WORKER_FIGURES,
  async run(bench) {
    if (!existsSync(path.join(process.cwd(), WORKER_ENTRY)))
      return WORKER_FIGURES.map((f) => unavailable(f.scenario, f.unit, f.target, `not available: ${WORKER_ENTRY}`));
    const recipients = bench.sizes.scaleOutRecipients;
    const { org, all } = await audience(bench, recipients);
    const { rows } = await bench.pg.query<{ id: string }>("INSERT INTO segments (organization_id, name) VALUES ($1, 'scale-out warm-up') RETURNING id", [
      org.organizationId,
    ]);
    const warmup = rows[0].id;
    await bench.pg.query(
      `INSERT INTO segment_contacts (segment_id, contact_id, organization_id)
       SELECT $1, id, organization_id FROM contacts WHERE organization_id = $2 ORDER BY email DESC LIMIT $3`,
      [warmup, org.organizationId, WARMUP_RECIPIENTS],
    );
    const relay = await Sink.start({ replyDelayMs: REPLY_DELAY_MS });
    const rates = new Map<number, number[]>([
      [1, []],
      [2, []],
      [3, []],
    ]);
    const bare = new Map<number, number[]>([
      [1, []],
      [2, []],
      [3, []],
    ]);
    const loads = [loadAverage()];
    const send = async (count: number, round: number) => {
      const workers = Array.from(
        { length: count },
        (_, i) => new SendingWorker(path.join(bench.dataDir, `worker-scale-${i + 1}.log`), { ...bench.serverEnv, SMTP_RELAY_URL: relay.url }),
      );
      try {
        await Promise.all(workers.map((w) => w.startReady(WORKER_ENTRY)));
        await productSend(bench, org, warmup, WARMUP_RECIPIENTS, `warm-up ${count}/${round}`, 90_000, relay);
        const r = await productSend(bench, org, all, recipients, `${count} workers, round ${round}`, 120_000, relay);
        rates.get(count)!.push(r.rate);
        bench.log(`  ${count} worker(s): ${Math.round(r.rate)} emails/s, first after ${r.firstMs} ms (load ${loadAverage()})`);
        const machine = await bareSenders(relay, count, recipients, RELAY_CONNECTIONS);
        bare.get(count)!.push(machine);
        bench.log(`  ${count} bare sender(s): ${Math.round(machine)} emails/s`);
      } finally {
        await Promise.all(workers.map((w) => w.stop()));
      }
    };
    try {
      for (let round = 0; round < bench.sizes.sendRepeats; round++) {
        const counts = round % 2 === 0 ? [1, 2, 3] : [3, 2, 1];
        for (const count of counts) await send(count, round);
        loads.push(loadAverage());
      }
    } finally {
      relay.stop();
    }
    const note =
      `${recipients.toLocaleString("en-US")} recipients at instant speed through the relay, every SMTP reply held ${REPLY_DELAY_MS} ms, ` +
      `default SMTP_RELAY_CONNECTIONS per worker; baseline: one worker; load average (1, 5, 15 min) ${loads.join(" → ")}; ` +
      `what the machine allows, bare nodemailer senders of ${RELAY_CONNECTIONS} connections in 1, 2, 3 processes: ` +
      [1, 2, 3].map((n) => `${Math.round(median(bare.get(n)!))}/s`).join(", ") +
      ` (${(median(bare.get(3)!) / median(bare.get(1)!)).toFixed(2)} and ${(median(bare.get(2)!) / median(bare.get(1)!)).toFixed(2)} times one)`;
    return [
      atLeast(WORKER_FIGURES[0].scenario, WORKER_FIGURES[0].unit, rates.get(3)!, rates.get(1)!, 2.5, note),
      atLeast(WORKER_FIGURES[1].scenario, WORKER_FIGURES[1].unit, rates.get(2)!, rates.get(1)!, 1.67, note),
    ] satisfies Result[];
  },
};

/**
 * Two web servers (`next start` twice, on one database) behind the benchmark's own round robin,
 * against one, serving `GET /v1/broadcasts/{id}` with an API key to the same closed-loop load.
 */
export const scaleWebScenario: Scenario = {
  id: "scale-web",
  figures: WEB_FIGURES,
  async run(bench) {
    const { loadSeconds, loadRounds } = bench.sizes;
    // Twice get-broadcast's connections: enough in flight to keep two servers busy.
    const connections = bench.sizes.connections * 2;
    const org = await bench.createOrg("scale-out reads");
    const { data: broadcast } = await bench.http.json<{ id: string }>(
      "POST",
      "/v1/broadcasts",
      org.token,
      { name: "Weekly news", subject: "News of the week", from_email: "news@bench.example", html_content: "<p>Hello</p>" },
      201,
    );
    const url = `/v1/broadcasts/${broadcast.id}`;
    const port = bench.server.port + 10;
    const second = new ProductServer(port, path.join(bench.dataDir, "server-2.log"), { ...bench.serverEnv, PORT: String(port) });
    const one = new RoundRobin("127.0.0.1", [bench.server.port], connections);
    const two = new RoundRobin("127.0.0.1", [bench.server.port, port], connections);
    // Only to warm the second server on its own.
    const secondAlone = new RoundRobin("127.0.0.1", [port], connections);
    const loads = [loadAverage()];
    try {
      await second.start();
      // Each server warmed alone until V8 has optimized the path (as get-broadcast does): through
      // the round robin each would get half of it, and a round robin runs at the pace of its slower server.
      const warmup = bench.quick ? 3 : 6;
      for (const client of [one, secondAlone]) {
        await load(client, url, org.token, connections, warmup);
        await load(client, BARE, undefined, connections, 1, BARE_STATUS);
      }
      const product: number[] = [];
      const baseline: number[] = [];
      const bare = { two: [] as number[], one: [] as number[] };
      let failures = "";
      const measure =
        (client: RoundRobin, into: number[], target = url, status = 200) =>
        async () => {
          const result = await load(client, target, target === url ? org.token : undefined, connections, loadSeconds, status);
          if (result.failed) failures = `${result.failed} failed requests, e.g. ${result.lastFailure}`;
          into.push(result.rps);
        };
      for (let round = 0; round < loadRounds; round++) {
        await alternate(round, measure(two, product), measure(one, baseline));
        // The framework's empty answer the same way: what two processes of it get from this machine.
        await alternate(round, measure(two, bare.two, BARE, BARE_STATUS), measure(one, bare.one, BARE, BARE_STATUS));
        bench.log(
          `  round ${round + 1}: two servers ${Math.round(product.at(-1)!)} req/s, one ${Math.round(baseline.at(-1)!)}; ` +
            `${BARE}: two ${Math.round(bare.two.at(-1)!)}, one ${Math.round(bare.one.at(-1)!)} (load ${loadAverage()})`,
        );
      }
      loads.push(loadAverage());
      const note =
        `${connections} keep-alive connections in all, ${loadRounds} rounds of ${loadSeconds} s; baseline: the same load on one server; ` +
        `what the machine allows, the framework's empty answer (${BARE}) the same way: two ${Math.round(median(bare.two))}, one ${Math.round(median(bare.one))} req/s ` +
        `(${(median(bare.two) / median(bare.one)).toFixed(2)} times one); ` +
        `${os.availableParallelism()} cores; load average (1, 5, 15 min) ${loads.join(" → ")}${failures ? `; ${failures}` : ""}`;
      return [atLeast(WEB_FIGURES[0].scenario, WEB_FIGURES[0].unit, product, baseline, 1.6, note)];
    } finally {
      one.close();
      two.close();
      secondAlone.close();
      await second.stop();
    }
  },
};
