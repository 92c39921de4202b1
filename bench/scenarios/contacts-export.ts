import { setTimeout as sleep } from "node:timers/promises";
import { to as copyTo } from "pg-copy-streams";
import { alternate, seconds, type Bench } from "../bench";
import { contactsOrg } from "../fixtures";
import { atLeast, memory } from "../stats";
import type { Scenario } from "./scenario";

const REPEATS = { full: 3, quick: 3 };

/** Lines (rows and header) in a CSV stream, counted on the way by the newlines outside quotes. */
function lineCounter() {
  let quoted = false;
  let lines = 0;
  return {
    add(chunk: Buffer) {
      for (let i = 0; i < chunk.length; i++) {
        const byte = chunk[i];
        if (byte === 0x22) quoted = !quoted;
        else if (byte === 0x0a && !quoted) lines++;
      }
    },
    get lines() {
      return lines;
    },
  };
}

/**
 * `GET /v1/contacts/export` of the organization of a million contacts (issue 27: ≥ 0.5 of COPY of the
 * same rows), against `COPY (SELECT … the same rows, same order) TO STDOUT WITH (FORMAT csv)` read by
 * the benchmark through pg: the product adds the API's checks, the formula guard of every text cell,
 * a column per typed property and HTTP. Both read to the end and counted. The server's RSS peak
 * during the product's export, against the same server idle, shows the stream holds nothing.
 */
export const contactsExportScenario: Scenario = {
  id: "contacts-export",
  figures: [
    { scenario: "contacts export (CSV)", unit: "rows/s", target: "ratio >= 0.5" },
    { scenario: "memory: contacts export", unit: "MB RSS", target: "value - baseline <= 100 MB" },
  ],
  async run(bench: Bench) {
    const org = await contactsOrg(bench);
    const n = bench.sizes.contacts;
    const baselineSql = `COPY (SELECT c.id, c.email, c.first_name, c.last_name, c.subscribed, c.unsubscribed_at, array_to_string(c.tags, ',') AS tags,
        c.metadata, c.created_at, c.updated_at FROM contacts c WHERE c.organization_id = '${org.organizationId}'
        ORDER BY c.created_at DESC, c.id DESC) TO STDOUT WITH (FORMAT csv, HEADER true)`;
    const product = async () => {
      const counter = lineCounter();
      const started = performance.now();
      const reply = await bench.http.request("GET", "/v1/contacts/export", { token: org.token, onChunk: (chunk) => counter.add(chunk) });
      const elapsed = seconds(started);
      if (reply.status !== 200 || counter.lines !== n + 1) throw new Error(`the export answered ${reply.status} with ${counter.lines} lines, not ${n + 1}`);
      return n / elapsed;
    };
    const baseline = async () => {
      const client = await bench.pg.connect();
      try {
        const counter = lineCounter();
        const started = performance.now();
        const stream = client.query(copyTo(baselineSql));
        for await (const chunk of stream) counter.add(chunk as Buffer);
        const elapsed = seconds(started);
        if (counter.lines !== n + 1) throw new Error(`COPY wrote ${counter.lines} lines, not ${n + 1}`);
        return n / elapsed;
      } finally {
        client.release();
      }
    };

    // Warm both sides once (the route, the plan, the table's pages).
    await product();
    await baseline();
    const rates: number[] = [];
    const baselines: number[] = [];
    const peaks: number[] = [];
    const idles: number[] = [];
    const rounds = bench.quick ? REPEATS.quick : REPEATS.full;
    for (let round = 0; round < rounds; round++) {
      await alternate(
        round,
        async () => {
          await sleep(500);
          idles.push(bench.server.rss.currentMb());
          bench.server.rss.resetPeak();
          rates.push(await product());
          peaks.push(bench.server.rss.peakMb());
          bench.log(
            `  export: ${Math.round(rates.at(-1)!).toLocaleString("en-US")} rows/s, peak ${peaks.at(-1)!.toFixed(0)} MB (idle ${idles.at(-1)!.toFixed(0)})`,
          );
        },
        async () => {
          baselines.push(await baseline());
          bench.log(`  COPY: ${Math.round(baselines.at(-1)!).toLocaleString("en-US")} rows/s`);
        },
      );
    }
    const note = `${n.toLocaleString("en-US")} contacts, 10 columns, through HTTP against COPY read by pg`;
    return [
      atLeast("contacts export (CSV)", "rows/s", rates, baselines, 0.5, note),
      memory("memory: contacts export", peaks, idles, 100, "the server's RSS while it streams the export, against the same server idle"),
    ];
  },
};
