import type { OrgContext } from "@/lib/domain/context";
import { AppError, notFound, PaginationError } from "@/lib/domain/errors";
import type { PoolClient } from "pg";
import { db, type Prisma } from "@/lib/db";
import { pool } from "@/lib/db/pool";
import { recordEvents } from "@/lib/events/record";
import { CUSTOM_EVENT_SOURCE } from "@/lib/events/types";
import type { CursorParams } from "@/lib/schemas/pagination";
import type { CustomEventInput } from "@/lib/schemas/events";
import { recordContactEvents } from "./contact-events";

/** A contact_id of no contact of this organization: 404, naming the event in a batch. */
function unknownContact(path: string | null) {
  return new AppError("NOT_FOUND", "Contact not found", path ? [{ path, message: "no such contact in this organization" }] : undefined);
}

// The known addresses are read first and only the others inserted: ON CONFLICT on an address that
// exists costs a speculative insertion each (12 ms for 500, against 1 ms to read them). An address a
// concurrent request created after this statement's snapshot is in neither half: read again below.
const RESOLVE_EMAILS = `
  WITH known AS (
    SELECT id, email FROM contacts WHERE organization_id = $1::uuid AND email = ANY($2::text[])
  ),
  created AS (
    INSERT INTO contacts (organization_id, email)
    SELECT $1::uuid, email FROM unnest($2::text[]) AS email WHERE email NOT IN (SELECT email FROM known)
    ON CONFLICT (organization_id, email) DO NOTHING
    RETURNING id, email
  )
  SELECT id, email, true AS created FROM created
  UNION ALL
  SELECT id, email, false FROM known`;

/**
 * The contact of each event: the contact_ids checked against the organization first (nothing is
 * written when one is not its own), then the unknown emails created as subscribed contacts (with
 * their `contact.created`), a statement each whatever the number of events.
 */
async function contactsOf(client: PoolClient, ctx: OrgContext, events: CustomEventInput[], batch: boolean): Promise<string[]> {
  const ids = [...new Set(events.flatMap((e) => (e.contact_id ? [e.contact_id.toLowerCase()] : [])))];
  if (ids.length > 0) {
    const found = await client.query<{ id: string }>("SELECT id FROM contacts WHERE organization_id = $1::uuid AND id = ANY($2::uuid[])", [
      ctx.organizationId,
      ids,
    ]);
    const known = new Set(found.rows.map((row) => row.id));
    const missing = events.findIndex((e) => e.contact_id !== undefined && !known.has(e.contact_id.toLowerCase()));
    if (missing >= 0) throw unknownContact(batch ? `events.${missing}.contact_id` : null);
  }
  const emails = [...new Set(events.flatMap((e) => (e.email ? [e.email] : [])))];
  const byEmail = new Map<string, string>();
  if (emails.length > 0) {
    const { rows } = await client.query<{ id: string; email: string; created: boolean }>(RESOLVE_EMAILS, [ctx.organizationId, emails]);
    for (const row of rows) byEmail.set(row.email, row.id);
    const created = rows.filter((row) => row.created).map((row) => row.id);
    await recordContactEvents(client, { organizationId: ctx.organizationId, name: "contact.created", source: "contacts", contactIds: created });
    const late = emails.filter((email) => !byEmail.has(email));
    if (late.length > 0) {
      const again = await client.query<{ id: string; email: string }>(
        "SELECT id, email FROM contacts WHERE organization_id = $1::uuid AND email = ANY($2::text[])",
        [ctx.organizationId, late],
      );
      for (const row of again.rows) byEmail.set(row.email, row.id);
    }
  }
  return events.map((e) => (e.contact_id ? e.contact_id.toLowerCase() : byEmail.get(e.email!)!));
}

/**
 * Records custom events (one request's, 1 to 1 000) in one transaction; answers their ids in input
 * order, in a handful of statements on one plain pg connection.
 */
async function recordCustomEvents(ctx: OrgContext, events: CustomEventInput[], { batch = true } = {}): Promise<string[]> {
  const client = await pool.connect();
  let failed = false;
  try {
    await client.query("BEGIN");
    const contactIds = await contactsOf(client, ctx, events, batch);
    const ids = await recordEvents(
      client,
      events.map((event, i) => ({
        organizationId: ctx.organizationId,
        name: event.name,
        source: CUSTOM_EVENT_SOURCE,
        contactId: contactIds[i],
        properties: event.properties ?? {},
        occurredAt: event.occurred_at ? new Date(event.occurred_at) : undefined,
      })),
    );
    await client.query("COMMIT");
    return ids;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => (failed = true));
    throw error;
  } finally {
    // A connection that failed mid-transaction is closed rather than reused.
    client.release(failed);
  }
}

export async function recordCustomEvent(ctx: OrgContext, event: CustomEventInput) {
  const [id] = await recordCustomEvents(ctx, [event], { batch: false });
  return { id };
}

export async function recordCustomEventBatch(ctx: OrgContext, events: CustomEventInput[]) {
  return { data: (await recordCustomEvents(ctx, events)).map((id) => ({ id })) };
}

const eventSelect = { id: true, name: true, properties: true, occurred_at: true, source: true, email_id: true } satisfies Prisma.EventSelect;

/**
 * A contact's events, newest first, by keyset on (occurred_at, id): `after` an event the older
 * ones, `before` it the newer ones (answered newest first too), as the other cursor lists page.
 */
export async function listContactEvents(ctx: OrgContext, contactId: string, page: CursorParams) {
  const contact = await db.contact.findFirst({ where: { id: contactId, organization_id: ctx.organizationId }, select: { id: true } });
  if (!contact) throw notFound("Contact");
  const where = { organization_id: ctx.organizationId, contact_id: contact.id };
  const limit = page.limit ?? 20;
  const cursorId = page.after ?? page.before;
  let keyset: Prisma.EventWhereInput = {};
  if (cursorId) {
    const cursor = await db.event.findFirst({ where: { ...where, id: cursorId }, select: { id: true, occurred_at: true } });
    if (!cursor) throw new PaginationError(`${page.after ? "after" : "before"} does not name an item of this list`);
    const at = cursor.occurred_at;
    keyset = page.after
      ? { occurred_at: { lte: at }, OR: [{ occurred_at: { lt: at } }, { occurred_at: at, id: { lt: cursor.id } }] }
      : { occurred_at: { gte: at }, OR: [{ occurred_at: { gt: at } }, { occurred_at: at, id: { gt: cursor.id } }] };
  }
  const newestFirst = !page.before;
  const rows = await db.event.findMany({
    where: { ...where, ...keyset },
    orderBy: newestFirst ? [{ occurred_at: "desc" }, { id: "desc" }] : [{ occurred_at: "asc" }, { id: "asc" }],
    take: limit + 1,
    select: eventSelect,
  });
  const hasMore = rows.length > limit;
  const data = (hasMore ? rows.slice(0, limit) : rows).map((row) => ({ ...row, properties: (row.properties ?? {}) as Record<string, unknown> }));
  if (!newestFirst) data.reverse();
  return { object: "list" as const, has_more: hasMore, data };
}
