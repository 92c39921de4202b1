import Papa from "papaparse";

// A spreadsheet reads a cell starting with one of these as a formula (=HYPERLINK(…) sends what it
// is given to another site; old versions ran commands through DDE). CR too: some read past it.
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A cell of a CSV file we write, neutralised: text that a spreadsheet would take for a formula gets
 * a leading `'`, which makes it text (decisions.md, for every export). Every CSV the platform
 * writes goes through this, one cell at a time, so a streamed export can use it too. Papa Parse's
 * own `escapeFormulae` misses a formula whose cell holds a line break.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  // A number is a number (-3 is not a formula); text is judged by its first character.
  if (typeof value === "number" || typeof value === "bigint" || typeof value === "boolean") return String(value);
  const text = String(value);
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** A whole CSV document (header, then rows) with every cell neutralised by csvCell. */
export function csvDocument(header: string[], rows: unknown[][]): string {
  return Papa.unparse({ fields: header.map(csvCell), data: rows.map((row) => row.map(csvCell)) });
}
