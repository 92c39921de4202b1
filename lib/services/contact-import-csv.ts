import { isUtf8 } from "node:buffer";
import { Readable } from "node:stream";
import { CsvError, parse } from "csv-parse";
import { AppError, invalidField } from "@/lib/api/errors";
import { emailAddress, limits } from "@/lib/schemas/common";
import { MAX_IMPORT_BYTES, type ColumnMapping } from "@/lib/schemas/contacts";

const BASE64 = /^[A-Za-z0-9+/\-_\s]*=*\s*$/;

/** The CSV bytes of `file_content`, without a byte order mark. */
export function decodeCsv(fileContent: string): Buffer {
  if (!BASE64.test(fileContent)) throw invalidField("file_content", "must be base64");
  let csv = Buffer.from(fileContent, "base64");
  if (csv.length > MAX_IMPORT_BYTES) throw new AppError("PAYLOAD_TOO_LARGE", "The CSV file is larger than 50 MB");
  if (csv[0] === 0xef && csv[1] === 0xbb && csv[2] === 0xbf) csv = csv.subarray(3);
  if (!isUtf8(csv)) throw invalidField("file_content", "must be UTF-8 text");
  if (csv.toString("utf8", 0, Math.min(csv.length, 4096)).trim() === "") throw invalidField("file_content", "the CSV file has no header row");
  return csv;
}

const DELIMITERS = [",", ";", "\t"] as const;
const QUOTE = 0x22;

/** The delimiter used most often in the header line (quoted text aside); a comma when there is none. */
export function detectDelimiter(csv: Buffer): string {
  const counts = new Map<number, number>(DELIMITERS.map((d) => [d.charCodeAt(0), 0]));
  let quoted = false;
  for (let i = 0; i < csv.length; i++) {
    const byte = csv[i];
    if (byte === QUOTE) quoted = !quoted;
    else if (!quoted && (byte === 0x0a || byte === 0x0d)) break;
    else if (!quoted && counts.has(byte)) counts.set(byte, counts.get(byte)! + 1);
  }
  let best: string = ",";
  for (const d of DELIMITERS) if (counts.get(d.charCodeAt(0))! > counts.get(best.charCodeAt(0))!) best = d;
  return best;
}

const CHUNK = 64 * 1024;

function* chunks(csv: Buffer) {
  for (let start = 0; start < csv.length; start += CHUNK) yield csv.subarray(start, start + CHUNK);
}

/** The records of the file, parsed as they are read so that only a few are in memory at once. */
export function csvRecords(csv: Buffer): () => Promise<string[] | null> {
  const parser = parse({ delimiter: detectDelimiter(csv), relax_column_count: true, relax_quotes: true, skip_empty_lines: false });
  const records: AsyncIterator<string[]> = Readable.from(chunks(csv)).pipe(parser)[Symbol.asyncIterator]();
  return async () => {
    try {
      const next = await records.next();
      return next.done ? null : next.value;
    } catch (error) {
      // csv-parse's messages name the problem and its line, nothing of the server.
      if (error instanceof CsvError) throw invalidField("file_content", `the CSV file cannot be read: ${error.message}`);
      throw error;
    }
  };
}

const FIELDS = ["email", "first_name", "last_name", "subscribed", "tags"] as const;
type Field = (typeof FIELDS)[number];

/** Which cell feeds which property. */
export type ColumnPlan = { [F in Field]?: number } & { email: number; metadata: [key: string, cell: number][] };

export function planColumns(header: string[], mappings: ColumnMapping[]): ColumnPlan {
  const columns = new Map<string, number>();
  header.forEach((name, index) => {
    const key = name.trim();
    if (!columns.has(key)) columns.set(key, index);
  });
  const plan: Partial<ColumnPlan> & { metadata: [string, number][] } = { metadata: [] };
  const seen = new Set<string>();
  mappings.forEach((mapping, i) => {
    const cell = columns.get(mapping.csv_column.trim());
    if (cell === undefined) throw invalidField(`column_mappings.${i}.csv_column`, `the CSV header has no column "${mapping.csv_column}"`);
    const name = mapping.property_name.trim();
    // Contact fields are recognised whatever their case ("Email"); any other name is a metadata key as written.
    const field = FIELDS.find((f) => f === name.toLowerCase());
    const property = field ?? name;
    if (!property || seen.has(property)) throw invalidField(`column_mappings.${i}.property_name`, "each property can be mapped once");
    seen.add(property);
    if (field) plan[field] = cell;
    else plan.metadata.push([property, cell]);
  });
  if (plan.email === undefined) throw invalidField("column_mappings", "one column must be mapped to email");
  return plan as ColumnPlan;
}

const TRUE = new Set(["true", "yes", "1"]);
const FALSE = new Set(["false", "no", "0"]);

/** One valid row, as the COPY text line of the staging table: email, first_name, last_name, subscribed, tags, metadata. */
export type StagedRow = { ok: true; email: string; given: string; line: string };
export type RejectedRow = { ok: false; email: string; error: string };

// COPY's text format: backslash escapes for the characters that delimit fields and rows.
const copyText = (value: string | null) =>
  value === null ? "\\N" : /[\\\t\n\r]/.test(value) ? value.replace(/[\\\t\n\r]/g, (c) => COPY_ESCAPES[c]) : value;
const COPY_ESCAPES: Record<string, string> = { "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" };

const reject = (email: string, error: string): RejectedRow => ({ ok: false, email, error });

/** Reads one data row; `null` for a blank line. */
export function readRow(cells: string[], plan: ColumnPlan): StagedRow | RejectedRow | null {
  if (cells.every((cell) => cell.trim() === "")) return null;
  const cell = (index: number | undefined) => (index === undefined ? "" : (cells[index] ?? "").trim());
  const given = cell(plan.email);
  const email = given.toLowerCase();
  if (!email) return reject(given, "email is missing");
  if (!emailAddress.safeParse(email).success) return reject(given, "email is not a valid email address");
  for (const index of [plan.first_name, plan.last_name, plan.subscribed, plan.tags, ...plan.metadata.map(([, i]) => i)]) {
    if (cell(index).includes("\u0000")) return reject(given, "a cell contains a NUL character");
  }
  const names: (string | null)[] = [];
  for (const [field, index] of [["first_name", plan.first_name], ["last_name", plan.last_name]] as const) {
    const value = cell(index);
    if (value.length > limits.name) return reject(given, `${field} is longer than ${limits.name} characters`);
    names.push(value || null);
  }
  let subscribed: string | null = null;
  const flag = cell(plan.subscribed).toLowerCase();
  if (flag) {
    if (TRUE.has(flag)) subscribed = "t";
    else if (FALSE.has(flag)) subscribed = "f";
    else return reject(given, `subscribed must be true, false, yes, no, 1 or 0, not "${cell(plan.subscribed)}"`);
  }
  const tags = [...new Set(cell(plan.tags).split(/[,;]/).map((tag) => tag.trim().toLowerCase()).filter(Boolean))];
  if (tags.length > limits.tags) return reject(given, `at most ${limits.tags} tags`);
  if (tags.some((tag) => tag.length > limits.tag)) return reject(given, `tags are at most ${limits.tag} characters`);
  let metadata: Record<string, string> | null = null;
  for (const [key, index] of plan.metadata) {
    const value = cell(index);
    if (!value) continue;
    if (value.length > limits.metadataValue) return reject(given, `${key} is longer than ${limits.metadataValue} characters`);
    // A null prototype keeps a column named "__proto__" an ordinary key.
    (metadata ??= Object.create(null) as Record<string, string>)[key] = value;
  }
  const fields = [email, names[0], names[1], subscribed, tags.length ? tags.join(",") : null, metadata && JSON.stringify(metadata)];
  return { ok: true, email, given, line: fields.map(copyText).join("\t") + "\n" };
}
