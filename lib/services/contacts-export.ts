import { Readable } from "node:stream";
import { escapeLiteral } from "pg";
import { to as copyTo } from "pg-copy-streams";
import type { OrgContext } from "@/lib/domain/context";
import { rateLimited } from "@/lib/domain/errors";
import { Prisma } from "@/lib/db";
import { pool } from "@/lib/db/pool";
import type { ListContactsQuery } from "@/lib/schemas/contacts";
import { contactsWhere } from "./contacts-list";

/** Exports one organization may stream at once from one web process: each holds a database connection while the client reads. */
const MAX_EXPORTS_PER_ORGANIZATION = 2;
const running = new Map<string, number>();

/**
 * A bound value as a SQL literal. COPY takes no parameters, so the export's statement carries its
 * filter's values inline: strings through pg's escapeLiteral (quotes and backslashes), arrays as
 * array literals, JSON as text; the statement casts each where it is used, as with parameters.
 */
function literal(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error("A filter value is not a finite number");
    return `(${value})`;
  }
  if (typeof value === "bigint") return `(${value})`;
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "string") return escapeLiteral(value);
  if (value instanceof Date) return escapeLiteral(value.toISOString());
  if (Array.isArray(value)) {
    const elements = value.map((v) => (v === null ? "NULL" : `"${String(v).replace(/["\\]/g, "\\$&")}"`));
    return escapeLiteral(`{${elements.join(",")}}`);
  }
  return escapeLiteral(JSON.stringify(value));
}

/** The statement with its values written in (for COPY); the same rows as the parameterized statement. */
function inlineSql(sql: Prisma.Sql): string {
  let text = sql.strings[0];
  sql.values.forEach((value, i) => (text += literal(value) + sql.strings[i + 1]));
  return text;
}

// A cell a spreadsheet would read as a formula gets a leading ' (decisions.md; lib/domain/csv.ts does the same in TypeScript).
// Only cells starting with = + - @, a tab or a CR need it, so only the first character's code is read
// (ascii()): a regular expression per cell cost the export of a million rows about a third of its time.
const FORMULA_FIRST_CODES = [0x09, 0x0d, 0x2b, 0x2d, 0x3d, 0x40].join(", ");
const safe = (expression: string) => `CASE WHEN ascii(${expression}) IN (${FORMULA_FIRST_CODES}) THEN '''' || ${expression} ELSE ${expression} END`;
// ISO 8601 in UTC from the timestamp's own text output (DateStyle ISO, which pg's driver needs too):
// to_char with its format cost more than the other columns together. Trailing zeros of the
// milliseconds are left out (12:00:00.5Z), as ISO 8601 allows.
const iso = (column: string) => `replace((${column} AT TIME ZONE 'UTC')::text, ' ', 'T') || 'Z'`;
const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * The export's columns: the contact's fields, one column per typed property (text neutralised,
 * numbers and booleans as they are), and every metadata key as JSON.
 */
function columns(properties: { key: string; type: string }[]): string {
  const typed = properties.map((p) =>
    p.type === "number" || p.type === "boolean"
      ? `c.metadata ->> ${escapeLiteral(p.key)} AS ${quoteIdent(p.key)}`
      : `${safe(`(c.metadata ->> ${escapeLiteral(p.key)})`)} AS ${quoteIdent(p.key)}`,
  );
  return [
    "c.id",
    `${safe("c.email")} AS email`,
    `${safe("c.first_name")} AS first_name`,
    `${safe("c.last_name")} AS last_name`,
    "c.subscribed",
    `${iso("c.unsubscribed_at")} AS unsubscribed_at`,
    `${safe("array_to_string(c.tags, ',')")} AS tags`,
    ...typed,
    "c.metadata::text AS metadata",
    `${iso("c.created_at")} AS created_at`,
    `${iso("c.updated_at")} AS updated_at`,
  ].join(", ");
}

/**
 * GET /v1/contacts/export: every contact the list's query matches, newest first, as CSV that
 * PostgreSQL writes (COPY … TO STDOUT) and the response streams as it comes, so neither process
 * holds more than a few chunks whatever the size. The connection is held while the client reads;
 * a client that goes away ends the COPY and frees it.
 */
export async function exportContacts(ctx: OrgContext, query: ListContactsQuery): Promise<Response> {
  const where = await contactsWhere(ctx, query);
  const properties = await pool.query<{ key: string; type: string }>("SELECT key, type::text FROM contact_properties WHERE organization_id = $1 ORDER BY key", [
    ctx.organizationId,
  ]);
  const select = Prisma.sql`SELECT ${Prisma.raw(columns(properties.rows))} FROM contacts c WHERE ${where} ORDER BY c.created_at DESC, c.id DESC`;
  const statement = `COPY (${inlineSql(select)}) TO STDOUT WITH (FORMAT csv, HEADER true)`;

  const active = running.get(ctx.organizationId) ?? 0;
  if (active >= MAX_EXPORTS_PER_ORGANIZATION) throw rateLimited("Two exports of this organization are running; start another when one ends", 5);
  running.set(ctx.organizationId, active + 1);
  let client;
  try {
    client = await pool.connect();
  } catch (error) {
    finish(ctx.organizationId);
    throw error;
  }
  const copy = client.query(copyTo(statement));
  let done = false;
  const release = (error?: Error) => {
    if (done) return;
    done = true;
    finish(ctx.organizationId);
    // A COPY cut off in the middle leaves the connection unusable: it is closed rather than reused.
    client.release(error ?? false);
  };
  copy.on("end", () => release());
  copy.on("error", (error) => release(error));
  copy.on("close", () => release(done ? undefined : new Error("export cancelled")));
  const date = new Date().toISOString().slice(0, 10);
  return new Response(Readable.toWeb(copy) as ReadableStream<Uint8Array>, {
    status: 200,
    headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": `attachment; filename="contacts-${date}.csv"` },
  });
}

function finish(organizationId: string) {
  const left = (running.get(organizationId) ?? 1) - 1;
  if (left <= 0) running.delete(organizationId);
  else running.set(organizationId, left);
}
