import { setTimeout as sleep } from "node:timers/promises";
import { alternate, copyInto, dropContacts, seconds, type Bench } from "../bench";
import { chunked, contactAt, COPY_COLUMNS, copyLine, CSV_HEADER, CSV_MAPPINGS, csvLine, stageLine } from "../data";
import { atLeast, memory } from "../stats";
import type { Scenario } from "./scenario";

const MAX_FILE_BYTES = 50 * 1024 * 1024;

type ImportResult = { created: number; updated: number; skipped: number; errors: unknown[] };

/** The import request bodies: the rows split into CSV files under the 50 MB limit, as a user would split them. */
export function importBodies(total: number, fileRows: number, extra: { segment_id?: string } = {}): { bodies: Buffer[]; largestMb: number } {
  const bodies: Buffer[] = [];
  let largest = 0;
  for (let from = 0; from < total; from += fileRows) {
    const csv = Buffer.from(CSV_HEADER + [...chunked(from, Math.min(total, from + fileRows), (i) => csvLine(contactAt(i)))].join(""));
    if (csv.length > MAX_FILE_BYTES) throw new Error(`a CSV file of ${fileRows} rows is over 50 MB; use smaller files`);
    largest = Math.max(largest, csv.length);
    bodies.push(Buffer.from(JSON.stringify({ file_content: csv.toString("base64"), column_mappings: CSV_MAPPINGS, handle_missing: "create", ...extra })));
  }
  return { bodies, largestMb: largest / 1024 / 1024 };
}

export async function productImport(bench: Bench, token: string, bodies: Buffer[], expect: "created" | "updated", total: number) {
  const started = performance.now();
  let count = 0;
  for (const body of bodies) {
    const { data } = await bench.http.json<ImportResult>("POST", "/v1/contacts/import", token, body);
    if (data.errors.length > 0) throw new Error(`the import reported errors: ${JSON.stringify(data.errors.slice(0, 3))}`);
    count += data[expect];
  }
  const elapsed = seconds(started);
  if (count !== total) throw new Error(`the import ${expect} ${count} contacts, not ${total}`);
  return elapsed;
}

// The product's merge rules (empty cells keep a value, tags added, metadata merged) as one upsert.
const UPSERT = `
  INSERT INTO contacts AS c (organization_id, email, first_name, last_name, tags, metadata)
  SELECT $1::uuid, s.email, s.first_name, s.last_name, s.tags, s.metadata FROM bench_stage s
  ON CONFLICT (organization_id, email) DO UPDATE SET
    first_name = coalesce(EXCLUDED.first_name, c.first_name),
    last_name = coalesce(EXCLUDED.last_name, c.last_name),
    tags = c.tags || ARRAY(SELECT t FROM unnest(EXCLUDED.tags) AS t WHERE t <> ALL (c.tags)),
    metadata = c.metadata || EXCLUDED.metadata,
    updated_at = now()`;

/** The update baseline: the rows staged untimed, then one INSERT … SELECT … ON CONFLICT DO UPDATE, timed. */
async function baselineUpsert(bench: Bench, organizationId: string, stageChunks: string[], total: number) {
  const client = await bench.pg.connect();
  try {
    await client.query("BEGIN");
    await client.query("CREATE TEMP TABLE bench_stage (email text, first_name text, last_name text, tags text[], metadata jsonb) ON COMMIT DROP");
    await copyInto(client, "bench_stage", "email, first_name, last_name, tags, metadata", stageChunks);
    await client.query("ANALYZE bench_stage");
    const started = performance.now();
    const { rowCount } = await client.query(UPSERT, [organizationId]);
    await client.query("COMMIT");
    const elapsed = seconds(started);
    if (rowCount !== total) throw new Error(`the upsert touched ${rowCount} rows, not ${total}`);
    return elapsed;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

export const importScenario: Scenario = {
  id: "import",
  figures: [
    { scenario: "import: create", unit: "rows/s", target: "ratio >= 0.5" },
    { scenario: "import: update", unit: "rows/s", target: "ratio >= 0.4" },
    { scenario: "memory: import", unit: "MB RSS", target: "value - baseline <= 300 MB" },
  ],
  async run(bench) {
    const { contacts: total, importFileRows, importRepeats } = bench.sizes;
    bench.log(`generating ${total.toLocaleString("en-US")} CSV rows`);
    const { bodies, largestMb } = importBodies(total, importFileRows);
    const stageChunks = [...chunked(0, total, (i) => stageLine(contactAt(i)))];

    const create = { product: [] as number[], baseline: [] as number[] };
    const update = { product: [] as number[], baseline: [] as number[] };
    let idleMb = 0;
    let peakMb = 0;
    for (let repeat = 0; repeat < importRepeats; repeat++) {
      const product = await bench.createOrg(`import ${repeat}`);
      const baselineOrg = await bench.bareOrg(`import baseline ${repeat}`);
      const copyChunks = [...chunked(0, total, (i) => copyLine(baselineOrg, contactAt(i)))];
      if (repeat === 0) {
        // The memory figure: a freshly started server, warmed up, idle, then the import.
        await bench.server.restart();
        const warmup = await bench.createOrg("import warm-up");
        const tiny = importBodies(10, 10).bodies[0];
        await bench.http.json("POST", "/v1/contacts/import", warmup.token, tiny);
        await sleep(1000);
        idleMb = bench.server.rss.currentMb();
        bench.server.rss.resetPeak();
      }
      const runCreate = async (which: "product" | "baseline") => {
        const s =
          which === "product"
            ? await productImport(bench, product.token, bodies, "created", total)
            : await copyInto(bench.pg, "contacts", COPY_COLUMNS, copyChunks);
        create[which].push(total / s);
        bench.log(`  create ${which}: ${Math.round(total / s)} rows/s (${s.toFixed(1)} s)`);
      };
      const runUpdate = async (which: "product" | "baseline") => {
        const s =
          which === "product"
            ? await productImport(bench, product.token, bodies, "updated", total)
            : await baselineUpsert(bench, baselineOrg, stageChunks, total);
        update[which].push(total / s);
        bench.log(`  update ${which}: ${Math.round(total / s)} rows/s (${s.toFixed(1)} s)`);
      };
      await alternate(
        repeat,
        () => runCreate("product"),
        () => runCreate("baseline"),
      );
      await alternate(
        repeat,
        () => runUpdate("product"),
        () => runUpdate("baseline"),
      );
      if (repeat === 0) peakMb = bench.server.rss.peakMb();
      await dropContacts(bench.pg, [product.organizationId, baselineOrg]);
    }
    const files = `${bodies.length} file(s) of up to ${largestMb.toFixed(1)} MB`;
    return [
      atLeast("import: create", "rows/s", create.product, create.baseline, 0.5, `${files}; baseline: COPY into contacts`),
      atLeast("import: update", "rows/s", update.product, update.baseline, 0.4, "baseline: INSERT … SELECT … ON CONFLICT DO UPDATE from a staging table"),
      memory("memory: import", [peakMb], [idleMb], 300, `peak during the first create and update imports (${files}); baseline: the same server idle`),
    ];
  },
};
