import type { OrgContext } from "@/lib/domain/context";
import { AppError, notFound, PaginationError } from "@/lib/domain/errors";
import { db, type Prisma } from "@/lib/db";
import { recordEvents } from "@/lib/events/record";
import { CUSTOM_EVENT_SOURCE } from "@/lib/events/types";
import type { CursorParams } from "@/lib/schemas/pagination";
import type { CustomEventInput } from "@/lib/schemas/events";
import { recordContactEvents } from "./contact-events";
import type { DbClient } from "./owned-records";

/** A contact_id of no contact of this organization: 404, naming the event in a batch. */
function unknownContact(path: string | null) {
  return new AppError("NOT_FOUND", "Contact not found", path ? [{ path, message: "no such contact in this organization" }] : undefined);
}

/**
 * The contact of each event: the contact_ids checked against the organization first (nothing is
 * written when one is not its own), then the unknown emails created as subscribed contacts (with
 * their `contact.created`), all with a statement each whatever the number of events.
 */
async function contactsOf(tx: DbClient, ctx: OrgContext, events: CustomEventInput[], batch: boolean): Promise<string[]> {
  const ids = [...new Set(events.flatMap((e) => (e.contact_id ? [e.contact_id.toLowerCase()] : [])))];
  if (ids.length > 0) {
    const found = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM contacts WHERE organization_id = ${ctx.organizationId}::uuid AND id = ANY(${ids}::uuid[])`;
    const known = new Set(found.map((row) => row.id));
    const missing = events.findIndex((e) => e.contact_id !== undefined && !known.has(e.contact_id.toLowerCase()));
    if (missing >= 0) throw unknownContact(batch ? `events.${missing}.contact_id` : null);
  }
  const emails = [...new Set(events.flatMap((e) => (e.email ? [e.email] : [])))];
  const byEmail = new Map<string, string>();
  if (emails.length > 0) {
    // Waits for a concurrent request creating the same address, then finds its contact below.
    const created = await tx.$queryRaw<{ id: string }[]>`
      INSERT INTO contacts (organization_id, email)
      SELECT ${ctx.organizationId}::uuid, email FROM unnest(${emails}::text[]) AS email
      ON CONFLICT (organization_id, email) DO NOTHING
      RETURNING id`;
    await recordContactEvents(tx, { organizationId: ctx.organizationId, name: "contact.created", source: "contacts", contactIds: created.map((r) => r.id) });
    const rows = await tx.$queryRaw<{ id: string; email: string }[]>`
      SELECT id, email FROM contacts WHERE organization_id = ${ctx.organizationId}::uuid AND email = ANY(${emails}::text[])`;
    for (const row of rows) byEmail.set(row.email, row.id);
  }
  return events.map((e) => (e.contact_id ? e.contact_id.toLowerCase() : byEmail.get(e.email!)!));
}

/** Records custom events (one request's, 1 to 1 000) in one transaction; answers their ids in input order. */
export async function recordCustomEvents(ctx: OrgContext, events: CustomEventInput[], { batch = true } = {}): Promise<string[]> {
  return db.$transaction(async (tx) => {
    const contactIds = await contactsOf(tx, ctx, events, batch);
    return recordEvents(
      tx,
      events.map((event, i) => ({
        organizationId: ctx.organizationId,
        name: event.name,
        source: CUSTOM_EVENT_SOURCE,
        contactId: contactIds[i],
        properties: event.properties ?? {},
        occurredAt: event.occurred_at ? new Date(event.occurred_at) : undefined,
      })),
    );
  });
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
