import type { OrgContext } from "@/lib/api/context";
import { invalidField } from "@/lib/api/errors";
import { db, Prisma } from "@/lib/db";
import type { ListContactsQuery } from "@/lib/schemas/contacts";
import { serializeContact, type ContactRow } from "./contacts";

export type ContactsPage = { limit?: number; offset: number };

// Small enough that a batch is a few hundred kilobytes of JSON, large enough that round trips do not dominate.
const STREAM_BATCH = 1000;

const NEWEST_FIRST = Prisma.sql`ORDER BY c.created_at DESC, c.id DESC`;

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

async function filterSql(ctx: OrgContext, query: ListContactsQuery): Promise<Prisma.Sql> {
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
    conditions.push(
      Prisma.sql`EXISTS (SELECT 1 FROM segment_contacts sc WHERE sc.segment_id = ${segment.id}::uuid AND sc.contact_id = c.id)`,
    );
  }
  return Prisma.join(conditions, " AND ");
}

async function countContacts(where: Prisma.Sql) {
  const [{ total }] = await db.$queryRaw<{ total: number }[]>`SELECT count(*)::int AS total FROM contacts c WHERE ${where}`;
  return total;
}

/**
 * Contacts matching the filters, newest first. With a `limit`, one page; without, every match as
 * a streamed JSON body read in keyset batches, so memory stays flat however many there are.
 */
export async function listContacts(ctx: OrgContext, query: ListContactsQuery, page: ContactsPage) {
  const where = await filterSql(ctx, query);
  if (page.limit === undefined) return streamContacts(where, page.offset, await countContacts(where));
  const [rows, total] = await Promise.all([
    db.$queryRaw<ContactRow[]>`
      SELECT c.* FROM contacts c WHERE ${where} ${NEWEST_FIRST} LIMIT ${page.limit} OFFSET ${page.offset}::bigint`,
    countContacts(where),
  ]);
  return { contacts: rows.map(serializeContact), total, limit: page.limit, offset: page.offset };
}

function streamContacts(where: Prisma.Sql, offset: number, total: number): Response {
  const encoder = new TextEncoder();
  let last: { created_at: Date; id: string } | null = null;
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    // One batch per pull: the next query runs only once the reader has taken the previous chunk.
    async pull(controller) {
      const rows: ContactRow[] = last
        ? await db.$queryRaw`
            SELECT c.* FROM contacts c
            WHERE ${where} AND (c.created_at, c.id) < (${last.created_at}::timestamptz, ${last.id}::uuid)
            ${NEWEST_FIRST} LIMIT ${STREAM_BATCH}`
        : await db.$queryRaw`
            SELECT c.* FROM contacts c WHERE ${where} ${NEWEST_FIRST} LIMIT ${STREAM_BATCH} OFFSET ${offset}::bigint`;
      let chunk = last ? "" : '{"contacts":[';
      for (const row of rows) chunk += (sent++ === 0 ? "" : ",") + JSON.stringify(serializeContact(row));
      if (rows.length < STREAM_BATCH) {
        chunk += `],"total":${total},"limit":${sent},"offset":${offset}}`;
        controller.enqueue(encoder.encode(chunk));
        controller.close();
        return;
      }
      last = rows[rows.length - 1];
      controller.enqueue(encoder.encode(chunk));
    },
  });
  return new Response(body, { status: 200, headers: { "content-type": "application/json" } });
}
