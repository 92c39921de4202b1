import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { from as copyFrom } from "pg-copy-streams";
import { describe, expect, it } from "vitest";
import { operations } from "@/lib/api/operations";
import { execute } from "@/lib/api/route";
import { pool } from "@/lib/db/pool";
import { createTestOrg } from "@/lib/testing/api";

// Run with IMPORT_BENCH=1: a million-row import against a raw COPY of the same rows.
const ROWS = 1_000_000;

describe.skipIf(!process.env.IMPORT_BENCH)("CSV import speed", () => {
  it("imports a million rows at least half as fast as a raw COPY", { timeout: 600_000 }, async () => {
    const lines = Array.from({ length: ROWS }, (_, i) => `user${i}@example.test,First${i},Last${i}\n`);
    const csv = "Email,First Name,Last Name\n" + lines.join("");
    console.info(`CSV: ${(csv.length / 1024 / 1024).toFixed(1)} MB`);

    const copyOrg = await createTestOrg();
    const client = await pool.connect();
    let started = performance.now();
    try {
      // Written in large chunks, as a fast COPY client does.
      const chunks: string[] = [];
      for (let i = 0; i < ROWS; i += 5000) {
        chunks.push(lines.slice(i, i + 5000).map((line) => `${copyOrg.organizationId}\t${line.replaceAll(",", "\t")}`).join(""));
      }
      await pipeline(Readable.from(chunks), client.query(copyFrom("COPY contacts (organization_id, email, first_name, last_name) FROM STDIN")));
    } finally {
      client.release();
    }
    const copySeconds = (performance.now() - started) / 1000;

    const importOrg = await createTestOrg();
    const operation = operations.find((op) => op.path === "/v1/contacts/import")!;
    const body = JSON.stringify({
      file_content: Buffer.from(csv).toString("base64"),
      column_mappings: [
        { csv_column: "Email", property_name: "email" },
        { csv_column: "First Name", property_name: "first_name" },
        { csv_column: "Last Name", property_name: "last_name" },
      ],
      handle_missing: "create",
    });
    started = performance.now();
    const response = await execute(
      operation,
      new Request("http://localhost/v1/contacts/import", {
        method: "POST",
        headers: { authorization: `Bearer ${importOrg.owner.token}`, "content-type": "application/json" },
        body,
      }),
    );
    const result = await response.json();
    const importSeconds = (performance.now() - started) / 1000;
    console.info(`raw COPY ${copySeconds.toFixed(2)} s, import ${importSeconds.toFixed(2)} s: ${((100 * copySeconds) / importSeconds).toFixed(0)}% of COPY speed`);
    expect(result).toEqual({ created: ROWS, updated: 0, skipped: 0, errors: [] });
    expect(copySeconds / importSeconds).toBeGreaterThanOrEqual(0.5);
  });
});
