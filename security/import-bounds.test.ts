import { readFileSync, writeFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { MAX_RECORD_CHARS } from "@/lib/services/contact-import-csv";
import { createTestOrg, expectError, request, type TestOrg } from "@/lib/testing/api";

// The import's answer listed every rejected row and echoed whole cells: 2.7 MB of invalid
// one-character rows took +487 MB of memory and answered 72 MB; 40 MB ended in a 500 at +2 GB;
// three at once took 3.6 GB. The bound: +300 MB for any file up to the 50 MB limit.

const BOUND_MB = 300;
const mappings = [{ csv_column: "email", property_name: "email" }];

/** The process's peak resident memory since the last reset, in MB (Linux keeps it in VmHWM). */
const peakMb = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync("/proc/self/status", "utf8"))![1]) / 1024;
const residentMb = () => process.memoryUsage().rss / (1024 * 1024);

/** How far above its resident memory at the start the process went while `work` ran, in MB. */
async function memoryGrowth(work: () => Promise<unknown>): Promise<number> {
  // Writing 5 to clear_refs resets the peak to the current resident size.
  writeFileSync("/proc/self/clear_refs", "5");
  const before = residentMb();
  await work();
  return peakMb() - before;
}

const importBody = (csv: string) => JSON.stringify({ file_content: Buffer.from(csv).toString("base64"), column_mappings: mappings, handle_missing: "create" });
const importCsv = (org: TestOrg, body: string) => request("POST", "/v1/contacts/import", { token: org.owner.token, rawBody: body });

// About 3 MB: 1.5 million rows of one character, none an email.
const ROWS = 1_500_000;
const bomb = `email\n${"x\n".repeat(ROWS)}`;

let org: TestOrg;
beforeAll(async () => {
  org = await createTestOrg("Import bounds");
});

describe("CSV import bounds", () => {
  it("answers a file of invalid rows with the first 1 000 errors and their count, within the memory bound", async () => {
    const body = importBody(bomb);
    let result: Awaited<ReturnType<typeof importCsv>> | undefined;
    const growth = await memoryGrowth(async () => (result = await importCsv(org, body)));
    expect(result!.status).toBe(200);
    expect(result!.body.errors).toHaveLength(1000);
    expect(result!.body.errors[0]).toEqual({ row: 2, email: "x", error: "email is not a valid email address" });
    expect(result!.body.errors.at(-1).row).toBe(1001);
    expect(result!.body).toMatchObject({ created: 0, updated: 0, skipped: ROWS, errors_total: ROWS });
    expect(JSON.stringify(result!.body).length).toBeLessThan(200_000);
    expect(growth).toBeLessThan(BOUND_MB);
  });

  it("keeps three such imports at once within the same bound", async () => {
    const others = await Promise.all([createTestOrg("Import bounds 2"), createTestOrg("Import bounds 3")]);
    const body = importBody(bomb);
    let results: Awaited<ReturnType<typeof importCsv>>[] = [];
    const growth = await memoryGrowth(async () => (results = await Promise.all([org, ...others].map((o) => importCsv(o, body)))));
    for (const result of results) expect(result.body).toMatchObject({ skipped: ROWS, errors_total: ROWS });
    expect(growth).toBeLessThan(BOUND_MB);
  });

  it("echoes at most 320 characters of a cell, and keeps long values out of the error messages", async () => {
    const long = `${"a".repeat(200_000)}@example.test`;
    const csv = `email,subscribed\n${long},yes\nok@example.test,${"maybe".repeat(100_000)}\n`;
    const result = await request("POST", "/v1/contacts/import", {
      token: org.owner.token,
      body: {
        file_content: Buffer.from(csv).toString("base64"),
        column_mappings: [...mappings, { csv_column: "subscribed", property_name: "subscribed" }],
        handle_missing: "create",
      },
    });
    expect(result.status).toBe(200);
    expect(result.body.errors).toHaveLength(2);
    expect(result.body.errors[0].email).toBe(long.slice(0, 320));
    expect(result.body.errors[1].error.length).toBeLessThan(200);
    expect(JSON.stringify(result.body).length).toBeLessThan(2_000);
  });

  it("refuses a row longer than a million characters with a 400 instead of parsing it over and over", async () => {
    const csv = `email,notes\nlong@example.test,"${"n".repeat(MAX_RECORD_CHARS)}"\n`;
    const result = await importCsv(org, importBody(csv));
    expect(expectError(result, 400, "VALIDATION_ERROR").details).toEqual([
      { path: "file_content", message: `a row of the CSV file is longer than ${MAX_RECORD_CHARS} characters` },
    ]);
  });
});
