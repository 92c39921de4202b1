import { Readable } from "node:stream";
import Papa from "papaparse";
import { z } from "zod";
import { canonicalTimeZone } from "@/lib/domain/time-zones";
import { invalidField } from "@/lib/domain/errors";
import { limits } from "@/lib/schemas/common";
import type { ColumnMapping } from "@/lib/schemas/contacts";
import type { PropertyType } from "@/lib/schemas/filters";
import { convertCell, type MetadataValue } from "@/lib/audience/property-values";
import type { CsvUpload } from "./csv-upload";

/** The file's text, decoded chunk by chunk. A byte order mark is dropped; bytes that are not UTF-8 are a 400. */
async function* decodeCsv(upload: CsvUpload): AsyncGenerator<string> {
  // Without ignoreBOM the decoder drops a leading byte order mark itself.
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const decode = (bytes?: Buffer) => {
    try {
      return bytes ? decoder.decode(bytes, { stream: true }) : decoder.decode();
    } catch {
      throw invalidField("file_content", "must be UTF-8 text");
    }
  };
  for await (const bytes of upload.read()) yield decode(bytes);
  yield decode();
}

/** The longest record (row) a file may have, in characters. */
export const MAX_RECORD_CHARS = 1_000_000;

const RECORD_SPECIALS = /["\r\n]/g;

/**
 * Passes the text through, refusing a record longer than `max` characters. A streaming CSV
 * parser keeps an unfinished record and parses it again with every chunk, so one 50 MB line costs
 * quadratic time, and a line of commas becomes an array of millions of cells.
 */
async function* limitRecordLength(text: AsyncIterable<string>, max = MAX_RECORD_CHARS): AsyncGenerator<string> {
  let quoted = false;
  let length = 0;
  for await (const chunk of text) {
    let from = 0;
    RECORD_SPECIALS.lastIndex = 0;
    for (let match = RECORD_SPECIALS.exec(chunk); match; match = RECORD_SPECIALS.exec(chunk)) {
      length += match.index - from;
      from = match.index + 1;
      // A doubled quote inside a quoted field toggles twice, which is right; line breaks in quotes are field text.
      if (match[0] === '"') quoted = !quoted;
      if (quoted || match[0] === '"') length++;
      else length = 0;
      if (length > max) break;
    }
    length += chunk.length - from;
    if (length > max) throw invalidField("file_content", `a row of the CSV file is longer than ${max} characters`);
    yield chunk;
  }
}

const DELIMITERS = [",", ";", "\t"];

/** The delimiter used most often in the header line (quoted text aside); a comma when there is none. */
function detectDelimiter(head: string): string {
  const counts = new Map(DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  for (const char of head) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === "\n" || char === "\r")) break;
    else if (!quoted && counts.has(char)) counts.set(char, counts.get(char)! + 1);
  }
  return DELIMITERS.reduce((best, d) => (counts.get(d)! > counts.get(best)! ? d : best), ",");
}

/**
 * The records of the file in batches, parsed as they are read so that only a few thousand are in
 * memory at once. Each call answers the records parsed so far (or waits for some), `null` at the end.
 */
async function csvRecords(upload: CsvUpload): Promise<() => Promise<string[][] | null>> {
  const text = limitRecordLength(decodeCsv(upload));
  let head = await text.next();
  // The first chunk can be nothing but a byte order mark.
  if (!head.done && head.value === "") head = await text.next();
  if (head.done || head.value.trim() === "") throw invalidField("file_content", "the CSV file has no header row");
  const first = head.value;
  const source = Readable.from(
    (async function* () {
      yield first;
      yield* text;
    })(),
  );

  const batches: string[][][] = [];
  let ended = false;
  let failure: unknown;
  let paused: Papa.Parser | null = null;
  let wake: (() => void) | null = null;
  const settle = () => {
    wake?.();
    wake = null;
  };
  Papa.parse<string[]>(source, {
    delimiter: detectDelimiter(first),
    skipEmptyLines: false,
    chunk: (results, parser) => {
      // An unclosed quote swallows the rest of the file; a stray one after a quoted field is as unreadable.
      const quotes = results.errors.find((error) => error.type === "Quotes");
      if (quotes) {
        failure ??= invalidField("file_content", `the CSV file cannot be read: ${quotes.message.toLowerCase()}`);
        parser.abort();
      } else if (results.data.length > 0) {
        batches.push(results.data);
        // A few batches ahead of the COPY are enough; more would only hold the file in memory.
        if (batches.length >= 4) {
          paused = parser;
          parser.pause();
        }
      }
      settle();
    },
    complete: () => {
      ended = true;
      settle();
    },
    // A decoding error of the file's text reaches the parser as an error of its stream.
    error: (error: Error) => {
      failure ??= error;
      settle();
    },
  });
  return async () => {
    for (;;) {
      if (failure !== undefined) throw failure;
      const batch = batches.shift();
      if (batch) {
        if (paused && batches.length < 2) {
          const parser = paused;
          paused = null;
          parser.resume();
        }
        return batch;
      }
      if (ended) return null;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  };
}

/** The header row, and the data records in batches; 400 when the file has no header row. */
export async function openCsv(upload: CsvUpload) {
  const nextBatch = await csvRecords(upload);
  const first = await nextBatch();
  if (!first) throw invalidField("file_content", "the CSV file has no header row");
  let leftover: string[][] | null = first.length > 1 ? first.slice(1) : null;
  const batches = async () => {
    const batch = leftover ?? (await nextBatch());
    leftover = null;
    return batch;
  };
  return { header: first[0], batches };
}

const FIELDS = ["email", "first_name", "last_name", "subscribed", "tags", "timezone"] as const;
type Field = (typeof FIELDS)[number];

/** Which cell feeds which property; a metadata key the organization typed carries its type, to convert its cells. */
export type ColumnPlan = { [F in Field]?: number } & { email: number; metadata: [key: string, cell: number, type: PropertyType | undefined][] };

export function planColumns(header: string[], mappings: ColumnMapping[], types: ReadonlyMap<string, PropertyType> = new Map()): ColumnPlan {
  const columns = new Map<string, number>();
  header.forEach((name, index) => {
    const key = name.trim();
    if (!columns.has(key)) columns.set(key, index);
  });
  const plan: Partial<ColumnPlan> & { metadata: ColumnPlan["metadata"] } = { metadata: [] };
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
    else plan.metadata.push([property, cell, types.get(property)]);
  });
  if (plan.email === undefined) throw invalidField("column_mappings", "one column must be mapped to email");
  if (plan.metadata.length > limits.metadataKeys) throw invalidField("column_mappings", `at most ${limits.metadataKeys} columns can be mapped to metadata`);
  return plan as ColumnPlan;
}

const TRUE = new Set(["true", "yes", "1"]);
const FALSE = new Set(["false", "no", "0"]);

/** One valid row, as the COPY text line of the staging table: email, first_name, last_name, subscribed, tags, metadata, timezone. */
export type StagedRow = { ok: true; email: string; given: string; tagged: boolean; withMetadata: boolean; line: string };
export type RejectedRow = { ok: false; email: string; error: string };

// COPY's text format: backslash escapes for the characters that delimit fields and rows.
export const copyText = (value: string | null) =>
  value === null ? "\\N" : /[\\\t\n\r]/.test(value) ? value.replace(/[\\\t\n\r]/g, (c) => COPY_ESCAPES[c]) : value;
const COPY_ESCAPES: Record<string, string> = { "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" };

/** At most `max` characters, never ending in half a surrogate pair. */
function shorten(value: string, max: number): string {
  if (value.length <= max) return value;
  const end = /[\uD800-\uDBFF]/.test(value[max - 1]) ? max - 1 : max;
  return value.slice(0, end);
}

// The answer echoes a rejected row's email: a cell can be megabytes long, the echo never is.
const reject = (email: string, error: string): RejectedRow => ({ ok: false, email: shorten(email, limits.email), error });

const NUL = "\u0000";
// The pattern z.email() checks, applied directly: a million rows should not pay for a million safeParse calls.
const EMAIL = z.regexes.email;

const EMAIL_MISSING = "email is missing";
const EMAIL_INVALID = "email is not a valid email address";
/** Whether a rejected row was rejected for its address's syntax (an import's `flagged.invalid`). */
export const invalidAddress = (row: RejectedRow) => row.error === EMAIL_MISSING || row.error === EMAIL_INVALID;

/** Reads one data row; `null` for a blank line. */
export function readRow(cells: string[], plan: ColumnPlan): StagedRow | RejectedRow | null {
  const cell = (index: number | undefined) => (index === undefined ? "" : (cells[index] ?? "").trim());
  const given = cell(plan.email);
  if (!given) return cells.every((value) => value.trim() === "") ? null : reject(given, EMAIL_MISSING);
  const email = given.toLowerCase();
  if (email.length > limits.email || !EMAIL.test(email)) return reject(given, EMAIL_INVALID);

  const firstName = cell(plan.first_name);
  const lastName = cell(plan.last_name);
  for (const [field, value] of [
    ["first_name", firstName],
    ["last_name", lastName],
  ] as const) {
    if (value.length > limits.name) return reject(given, `${field} is longer than ${limits.name} characters`);
    if (value.includes(NUL)) return reject(given, `${field} contains a NUL character`);
  }

  let subscribed: string | null = null;
  const flag = cell(plan.subscribed).toLowerCase();
  if (flag) {
    if (TRUE.has(flag)) subscribed = "t";
    else if (FALSE.has(flag)) subscribed = "f";
    else return reject(given, `subscribed must be true, false, yes, no, 1 or 0, not "${shorten(cell(plan.subscribed), 40)}"`);
  }

  let tags: string | null = null;
  const tagCell = cell(plan.tags);
  if (tagCell) {
    if (tagCell.includes(NUL)) return reject(given, "tags contain a NUL character");
    const list = [
      ...new Set(
        tagCell
          .split(/[,;]/)
          .map((tag) => tag.trim().toLowerCase())
          .filter(Boolean),
      ),
    ];
    if (list.length > limits.tags) return reject(given, `at most ${limits.tags} tags`);
    if (list.some((tag) => tag.length > limits.tag)) return reject(given, `tags are at most ${limits.tag} characters`);
    // Tags cannot contain a comma (it splits them), so a comma-joined list is unambiguous in the staging table.
    if (list.length > 0) tags = list.join(",");
  }

  let timezone: string | null = null;
  const zoneCell = cell(plan.timezone);
  if (zoneCell) {
    // Stored under its canonical name, as the API stores it.
    timezone = canonicalTimeZone(zoneCell);
    if (!timezone) return reject(given, `timezone must be an IANA time zone such as Europe/Berlin, not "${shorten(zoneCell, 40)}"`);
  }

  let metadata: Record<string, MetadataValue> | null = null;
  for (const [key, index, type] of plan.metadata) {
    const value = cell(index);
    if (!value) continue;
    if (value.length > limits.metadataValue) return reject(given, `${key} is longer than ${limits.metadataValue} characters`);
    if (value.includes(NUL)) return reject(given, `${key} contains a NUL character`);
    const converted = type ? convertCell(type, value) : ({ ok: true, value } as const);
    if (!converted.ok) return reject(given, `${key} ${converted.message}, not "${shorten(value, 40)}"`);
    // A null prototype keeps a column named "__proto__" an ordinary key.
    (metadata ??= Object.create(null) as Record<string, MetadataValue>)[key] = converted.value;
  }

  const metadataJson = metadata && JSON.stringify(metadata);
  if (metadataJson && Buffer.byteLength(metadataJson) > limits.metadataBytes)
    return reject(given, `metadata is larger than ${limits.metadataBytes / 1024} KB as JSON`);

  const line =
    `${copyText(email)}\t${copyText(firstName || null)}\t${copyText(lastName || null)}\t${subscribed ?? "\\N"}\t` +
    `${copyText(tags)}\t${copyText(metadataJson)}\t${copyText(timezone)}\n`;
  return { ok: true, email, given, tagged: tags !== null, withMetadata: metadataJson !== null, line };
}
