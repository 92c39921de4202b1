import type { OrgContext } from "@/lib/domain/context";
import { invalidField } from "@/lib/domain/errors";
import { db, Prisma } from "@/lib/db";
import type { ListContactsQuery } from "@/lib/schemas/contacts";
import { pool } from "@/lib/db/pool";
import { filterCondition, segmentCondition } from "@/lib/audience/membership";
import { CONTACT_JSON_SQL } from "@/lib/events/contact-json-sql";
import { serializeContact, type ContactRow } from "./contacts";

export type ContactsPage = { limit?: number; offset: number };

// Small enough that a batch is a few hundred kilobytes of JSON, large enough that round trips do not dominate.
const STREAM_BATCH = 1000;
const CHUNK_ROWS = 100;

const NEWEST_FIRST = Prisma.sql`ORDER BY c.created_at DESC, c.id DESC`;
// With a search, the same order through an expression no index has: the planner then reads the
// matches from the trigram index and sorts them, bounded by the number of matches (the total reads
// them all anyway). Walking the newest-first index instead, it bets that matches are spread evenly
// and reads the organization's every contact when they are not (2.9 s for "user12" at a million).
const NEWEST_FIRST_OF_MATCHES = Prisma.sql`ORDER BY c.created_at + interval '0 seconds' DESC, c.id DESC`;

// The search text is matched literally, so LIKE's own wildcards in it are escaped.
const likePattern = (value: string) => `%${value.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

const tagList = (raw: string | undefined) => [
  ...new Set(
    (raw ?? "")
      .split(",")
      .map((tag) => tag.trim().toLowerCase())
      .filter(Boolean),
  ),
];

/** The list's filters as one condition on `c` (contacts): the list, its stream and the CSV export read the same rows. */
export async function contactsWhere(ctx: OrgContext, query: ListContactsQuery): Promise<Prisma.Sql> {
  const conditions = [Prisma.sql`c.organization_id = ${ctx.organizationId}::uuid`];
  if (query.subscribed) conditions.push(Prisma.sql`c.subscribed = ${query.subscribed === "true"}`);
  const search = query.search?.trim();
  if (search) {
    const pattern = likePattern(search);
    conditions.push(Prisma.sql`(c.email ILIKE ${pattern} OR c.first_name ILIKE ${pattern} OR c.last_name ILIKE ${pattern})`);
  }
  const tags = tagList(query.tags);
  // `@>` is the operator the GIN index on tags serves.
  if (tags.length > 0) conditions.push(Prisma.sql`c.tags @> ${tags}::text[]`);
  if (query.segment_id) {
    const segment = await db.segment.findFirst({ where: { id: query.segment_id, organization_id: ctx.organizationId }, select: { id: true } });
    if (!segment) throw invalidField("segment_id", "no such segment in this organization");
    conditions.push(await segmentCondition(db, ctx.organizationId, segment.id));
  }
  if (query.filter) conditions.push(await filterCondition(db, ctx.organizationId, query.filter));
  return Prisma.join(conditions, " AND ");
}

// Pages and totals go through plain pg: a raw query through Prisma costs several times more CPU per row.
async function countContacts(where: Prisma.Sql) {
  const query = Prisma.sql`SELECT count(*)::int AS total FROM contacts c WHERE ${where}`;
  const { rows } = await pool.query<{ total: number }>(query.text, query.values);
  return rows[0].total;
}

/**
 * Contacts matching the filters, newest first. With a `limit`, one page; without, every match as
 * a streamed JSON body read in keyset batches, so memory stays flat however many there are.
 */
export async function listContacts(ctx: OrgContext, query: ListContactsQuery, page: ContactsPage) {
  const where = await contactsWhere(ctx, query);
  if (page.limit === undefined) return streamContacts(where, page.offset, await countContacts(where));
  const [contacts, total] = await Promise.all([pageRows(where, query, { limit: page.limit, offset: page.offset }), countContacts(where)]);
  return { contacts, total, limit: page.limit, offset: page.offset };
}

/** One page of listContacts without its total: what the dashboard renders with the page, before the total is counted. */
export async function listContactRows(ctx: OrgContext, query: ListContactsQuery, page: Required<ContactsPage>) {
  return pageRows(await contactsWhere(ctx, query), query, page);
}

async function pageRows(where: Prisma.Sql, query: ListContactsQuery, page: Required<ContactsPage>) {
  const pageQuery = Prisma.sql`SELECT c.*, s.reason::text AS suppression_reason, s.created_at AS suppressed_at
    FROM contacts c LEFT JOIN suppressions s ON s.organization_id = c.organization_id AND s.email = c.email
    WHERE ${where} ${query.search?.trim() ? NEWEST_FIRST_OF_MATCHES : NEWEST_FIRST} LIMIT ${page.limit} OFFSET ${page.offset}::bigint`;
  const { rows } = await pool.query<ContactRow>(pageQuery.text, pageQuery.values);
  return rows.map((row) => serializeContact(row));
}

/**
 * PostgreSQL writes each contact's JSON itself (lib/events/contact-json-sql.ts: same fields, same order as the
 * paged answer), so a batch reaches the stream as strings rather than as row objects to convert and
 * serialize. The JSON is built after the LIMIT, for the batch's rows only; the next batch starts
 * after the last row's (created_at, id), read back as text.
 */
const batchSql = (where: Prisma.Sql, after: Prisma.Sql, offset: number) => Prisma.sql`
  SELECT ${Prisma.raw(CONTACT_JSON_SQL)}::text, c.created_at::text, c.id
  FROM (SELECT c.* FROM contacts c WHERE ${where} ${after} ${NEWEST_FIRST} LIMIT ${STREAM_BATCH} OFFSET ${offset}::bigint) c
  ${NEWEST_FIRST}`;

function streamContacts(where: Prisma.Sql, offset: number, total: number): Response {
  const encoder = new TextEncoder();
  let last: [createdAt: string, id: string] | null = null;
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    // One batch per pull: the next query runs only once the reader has taken the previous chunk.
    async pull(controller) {
      const query = last
        ? batchSql(where, Prisma.sql`AND (c.created_at, c.id) < (${last[0]}::timestamptz, ${last[1]}::uuid)`, 0)
        : batchSql(where, Prisma.empty, offset);
      const { rows } = await pool.query<[json: string, createdAt: string, id: string]>({ text: query.text, values: query.values, rowMode: "array" });
      let chunk = last ? "" : '{"contacts":[';
      rows.forEach(([json], i) => {
        chunk += (sent++ === 0 ? "" : ",") + json;
        // Chunks of a few dozen kilobytes stay in V8's young generation, which is collected cheaply and often.
        if ((i + 1) % CHUNK_ROWS === 0) {
          controller.enqueue(encoder.encode(chunk));
          chunk = "";
        }
      });
      if (rows.length < STREAM_BATCH) {
        controller.enqueue(encoder.encode(`${chunk}],"total":${total},"limit":${sent},"offset":${offset}}`));
        controller.close();
        return;
      }
      if (chunk) controller.enqueue(encoder.encode(chunk));
      const [, createdAt, id] = rows[rows.length - 1];
      last = [createdAt, id];
    },
  });
  return new Response(body, { status: 200, headers: { "content-type": "application/json" } });
}
