import { alternate, copyInto, dropContacts, seconds } from "../bench";
import { chunked, contactAt, COPY_COLUMNS, copyLine } from "../data";
import { atLeast } from "../stats";
import type { Scenario } from "./scenario";

/** Events per request: the most a batch takes. */
const BATCH = 1000;
/** Contacts the events are about. */
const CONTACTS = 10_000;
/** Requests in flight at once, as an application with a queue of events sends them. */
const CONCURRENCY = 4;

const SKUS = ["basic", "pro", "team", "enterprise"];

/** Event `i`: a purchase by contact `i % CONTACTS`, named by its id (even) or its email (odd). */
function eventAt(i: number, contactIds: string[]) {
  const n = i % CONTACTS;
  const who = i % 2 === 0 ? { contact_id: contactIds[n] } : { email: contactAt(n).email };
  return {
    name: "purchase",
    ...who,
    properties: { sku: SKUS[i % SKUS.length], amount: (i % 97) + 0.5, quantity: (i % 5) + 1 },
    occurred_at: new Date(Date.UTC(2026, 10, 1) + i * 1000).toISOString(),
  };
}

/** The same event as a row of `events` in COPY text format. */
function copyRow(organizationId: string, i: number, contactIds: string[]) {
  const e = eventAt(i, contactIds);
  return `${organizationId}\t${contactIds[i % CONTACTS]}\tpurchase\t${JSON.stringify(e.properties)}\tapi\t${e.occurred_at}\n`;
}

async function contactsOf(bench: Parameters<Scenario["run"]>[0], organizationId: string): Promise<string[]> {
  await copyInto(
    bench.pg,
    "contacts",
    COPY_COLUMNS,
    chunked(0, CONTACTS, (i) => copyLine(organizationId, contactAt(i))),
  );
  const { rows } = await bench.pg.query<{ id: string; email: string }>("SELECT id, email FROM contacts WHERE organization_id = $1", [organizationId]);
  const byEmail = new Map(rows.map((r) => [r.email, r.id]));
  return Array.from({ length: CONTACTS }, (_, i) => byEmail.get(contactAt(i).email)!);
}

export const eventsIngestScenario: Scenario = {
  id: "events-ingest",
  figures: [{ scenario: "events: batch ingest", unit: "events/s", target: "ratio >= 0.3" }],
  async run(bench) {
    const rounds = bench.quick ? 3 : 8;
    const perRound = BATCH * CONCURRENCY * 3;
    const product = await bench.createOrg("events");
    const baselineOrg = await bench.bareOrg("events baseline");
    const productContacts = await contactsOf(bench, product.organizationId);
    const baselineContacts = await contactsOf(bench, baselineOrg);
    await bench.pg.query("VACUUM ANALYZE contacts");
    await bench.http.json("POST", "/v1/events/batch", product.token, { events: [0, 1, 2].map((i) => eventAt(i, productContacts)) }, 202);

    const productRates: number[] = [];
    const baselineRates: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const from = round * perRound;
      const bodies = Array.from({ length: perRound / BATCH }, (_, b) =>
        Buffer.from(JSON.stringify({ events: Array.from({ length: BATCH }, (_, k) => eventAt(from + b * BATCH + k, productContacts)) })),
      );
      const copyChunks = [...chunked(from, from + perRound, (i) => copyRow(baselineOrg, i, baselineContacts))];
      const runProduct = async () => {
        let next = 0;
        const started = performance.now();
        const lane = async () => {
          while (next < bodies.length) {
            const { data } = await bench.http.json<{ data: unknown[] }>("POST", "/v1/events/batch", product.token, bodies[next++], 202);
            if (data.data.length !== BATCH) throw new Error(`the batch recorded ${data.data.length} events, not ${BATCH}`);
          }
        };
        await Promise.all(Array.from({ length: CONCURRENCY }, lane));
        productRates.push(perRound / seconds(started));
      };
      const runBaseline = async () =>
        baselineRates.push(perRound / (await copyInto(bench.pg, "events", "organization_id, contact_id, name, properties, source, occurred_at", copyChunks)));
      await alternate(round, runProduct, runBaseline);
    }
    for (const id of [product.organizationId, baselineOrg]) {
      await bench.pg.query("DELETE FROM event_outbox WHERE organization_id = $1", [id]);
      await bench.pg.query("DELETE FROM events WHERE organization_id = $1", [id]);
    }
    await bench.pg.query("VACUUM events, event_outbox");
    await dropContacts(bench.pg, [product.organizationId, baselineOrg]);
    return [
      atLeast(
        "events: batch ingest",
        "events/s",
        productRates,
        baselineRates,
        0.3,
        `${rounds} rounds of ${perRound.toLocaleString("en-US")} purchase events (half by contact_id, half by email) in requests of ${BATCH}, ${CONCURRENCY} at a time; baseline: COPY of the same rows into events, round for round`,
      ),
    ];
  },
};
