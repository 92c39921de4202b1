import type { OrgContext } from "@/lib/domain/context";
import { AppError, invalidField, notFound } from "@/lib/domain/errors";
import { cursorPage } from "@/lib/services/cursor-page";
import type { CursorParams } from "@/lib/schemas/pagination";
import { db, Prisma } from "@/lib/db";
import type { Segment } from "@/lib/generated/prisma/client";
import type { AddSegmentContactsInput, CreateSegmentInput, UpdateSegmentInput } from "@/lib/schemas/segments";
import type { Filter } from "@/lib/schemas/filters";
import { filterCondition } from "@/lib/audience/membership";
import { segmentsNamedIn } from "@/lib/audience/scope";
import { keepStatisticsCurrent } from "@/lib/db/statistics";
import { segmentCounts } from "./segment-counts";
import { enterStaticSegment } from "@/lib/automations/segment-entry";

const withCount = { _count: { select: { contacts: true } } } as const;

type SegmentRow = Segment & { _count: { contacts: number } };

const serialize = (row: SegmentRow, counts: Map<string, number>) => ({
  id: row.id,
  organization_id: row.organization_id,
  name: row.name,
  description: row.description,
  filter: (row.filter ?? null) as Filter | null,
  contacts_count: counts.get(row.id) ?? 0,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

const serializeAll = async (ctx: OrgContext, rows: SegmentRow[]) => {
  const counts = await segmentCounts(ctx, rows);
  return rows.map((row) => serialize(row, counts));
};

/** Members are added to a dynamic segment by its filter only. */
export const segmentIsDynamic = () =>
  new AppError("SEGMENT_IS_DYNAMIC", "This segment is dynamic: its members are the contacts matching its filter, and cannot be added or removed by hand");

/** A filter a client sent for a segment, checked as the segment would use it (400 naming `filter.…`). */
const checkFilter = (ctx: OrgContext, filter: Filter, self?: string) => filterCondition(db, ctx.organizationId, filter, { self });

export async function createSegment(ctx: OrgContext, input: CreateSegmentInput) {
  const filter = input.filter ?? null;
  if (filter) await checkFilter(ctx, filter);
  const row = await db.segment.create({
    data: {
      organization_id: ctx.organizationId,
      name: input.name,
      description: input.description ?? null,
      filter: filter ?? Prisma.DbNull,
    },
    include: withCount,
  });
  const [segment] = await serializeAll(ctx, [row]);
  return segment;
}

export async function listSegments(ctx: OrgContext, page: CursorParams) {
  const where = { organization_id: ctx.organizationId };
  const result = await cursorPage(
    page,
    (args) => db.segment.findMany({ where: { ...where, ...args.where }, orderBy: args.orderBy, take: args.take, include: withCount }),
    (id) => db.segment.findFirst({ where: { ...where, id }, select: { id: true, created_at: true } }),
  );
  return { ...result, data: await serializeAll(ctx, result.data) };
}

export async function getSegment(ctx: OrgContext, id: string) {
  const row = await db.segment.findFirst({ where: { id, organization_id: ctx.organizationId }, include: withCount });
  if (!row) throw notFound("Segment");
  const [segment] = await serializeAll(ctx, [row]);
  return segment;
}

/**
 * A segment keeps its kind: a dynamic one takes a new filter (checked like a new one, and for a
 * cycle back to itself through in_segment), a static one none.
 */
export async function updateSegment(ctx: OrgContext, id: string, input: UpdateSegmentInput) {
  const current = await db.segment.findFirst({ where: { id, organization_id: ctx.organizationId }, select: { id: true, filter: true } });
  if (!current) throw notFound("Segment");
  let filter: Filter | undefined;
  if (input.filter !== undefined) {
    if (current.filter === null && input.filter !== null) throw invalidField("filter", "a static segment has no filter: create a dynamic segment instead");
    if (current.filter !== null && input.filter === null) throw invalidField("filter", "a dynamic segment needs a filter");
    if (input.filter !== null) filter = input.filter;
  }
  if (filter) await checkFilter(ctx, filter, current.id);
  await db.segment.updateMany({
    where: { id: current.id, organization_id: ctx.organizationId },
    data: { name: input.name, description: input.description, ...(filter && { filter }) },
  });
  return getSegment(ctx, id);
}
// Prisma's 5 s default is short for 10 000 memberships on a busy database.
const TRANSACTION = { timeout: 30_000, maxWait: 10_000 };

const EXIT_CONDITION_KEYS = ["exit_if_in_segment_ids", "exit_if_not_in_segment_ids"];

/** The array at `key` without `id` (compared case-insensitively), as a one-key object to merge; `{}` when there is no array. */
const exitListWithout = (key: string, id: string) => Prisma.sql`
  CASE WHEN jsonb_typeof(b.sequence_exit_conditions -> ${key}::text) = 'array'
    THEN jsonb_build_object(${key}::text, (
      SELECT coalesce(jsonb_agg(e ORDER BY n), '[]'::jsonb)
      FROM jsonb_array_elements(b.sequence_exit_conditions -> ${key}::text) WITH ORDINALITY AS x(e, n)
      WHERE lower(e #>> '{}') <> ${id}))
    ELSE '{}'::jsonb END`;

const exitListHas = (key: string, id: string) => Prisma.sql`
  (jsonb_typeof(b.sequence_exit_conditions -> ${key}::text) = 'array' AND EXISTS (
    SELECT 1 FROM jsonb_array_elements(b.sequence_exit_conditions -> ${key}::text) AS e WHERE lower(e #>> '{}') = ${id}))`;

/**
 * Another segment whose filter names this one (in_segment) would silently change meaning without
 * it: 409 naming them, so the caller edits them first.
 */
async function assertNotIncluded(tx: Prisma.TransactionClient, ctx: OrgContext, id: string) {
  const candidates = await tx.$queryRaw<{ id: string; name: string; filter: Filter }[]>`
    SELECT id, name, filter FROM segments
    WHERE organization_id = ${ctx.organizationId}::uuid AND id <> ${id}::uuid AND filter IS NOT NULL
      AND strpos(lower(filter::text), ${id}) > 0`;
  const users = candidates.filter((segment) => segmentsNamedIn(segment.filter).has(id));
  if (users.length === 0) return;
  throw new AppError(
    "CONFLICT",
    `Segment ${users.map((s) => `"${s.name}"`).join(", ")} includes this one in its filter: change ${users.length === 1 ? "it" : "them"} first`,
    users.map((segment) => ({ path: "id", message: `used by segment ${segment.id} (${segment.name})` })),
  );
}

/**
 * Deletes a segment; its contacts stay. In the same transaction the segment leaves every broadcast's
 * exit conditions, and the foreign key clears `segment_id` on broadcasts that targeted it.
 */
export async function deleteSegment(ctx: OrgContext, id: string) {
  const target = id.toLowerCase();
  await db.$transaction(async (tx) => {
    const found = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM segments WHERE id = ${target}::uuid AND organization_id = ${ctx.organizationId}::uuid FOR UPDATE`;
    if (found.length === 0) throw notFound("Segment");
    await assertNotIncluded(tx, ctx, target);
    await tx.$executeRaw`
      UPDATE broadcasts b
      SET sequence_exit_conditions = b.sequence_exit_conditions
        || ${Prisma.join(
          EXIT_CONDITION_KEYS.map((key) => exitListWithout(key, target)),
          " || ",
        )}
      WHERE b.organization_id = ${ctx.organizationId}::uuid
        AND jsonb_typeof(b.sequence_exit_conditions) = 'object'
        AND (${Prisma.join(
          EXIT_CONDITION_KEYS.map((key) => exitListHas(key, target)),
          " OR ",
        )})`;
    await tx.segment.delete({ where: { id: target } });
  }, TRANSACTION);
  return { success: true };
}

/** The first given value with no contact in the organization, as a 400 naming its index. */
function assertAllFound(values: string[] | undefined, found: Set<string>, path: string, normalize: (value: string) => string) {
  const index = (values ?? []).findIndex((value) => !found.has(normalize(value)));
  if (index >= 0) throw invalidField(`${path}.${index}`, "no such contact in this organization");
}

/**
 * Adds contacts by id and by email. Every one must be a contact of the organization (otherwise 400
 * naming the first that is not, and nothing is added); contacts already in the segment are not counted.
 */
export async function addSegmentContacts(ctx: OrgContext, id: string, input: AddSegmentContactsInput) {
  const ids = [...new Set((input.contact_ids ?? []).map((value) => value.toLowerCase()))];
  const emails = [...new Set(input.emails ?? [])];
  const added = await db.$transaction(async (tx) => {
    const segment = await tx.$queryRaw<{ id: string; dynamic: boolean }[]>`
      SELECT id, filter IS NOT NULL AS dynamic FROM segments WHERE id = ${id}::uuid AND organization_id = ${ctx.organizationId}::uuid FOR KEY SHARE`;
    if (segment.length === 0) throw notFound("Segment");
    if (segment[0].dynamic) throw segmentIsDynamic();
    const contacts = await tx.$queryRaw<{ id: string; email: string }[]>`
      SELECT id, email FROM contacts
      WHERE organization_id = ${ctx.organizationId}::uuid AND (id = ANY(${ids}::uuid[]) OR email = ANY(${emails}::text[]))
      FOR KEY SHARE`;
    assertAllFound(input.contact_ids, new Set(contacts.map((c) => c.id)), "contact_ids", (value) => value.toLowerCase());
    assertAllFound(input.emails, new Set(contacts.map((c) => c.email)), "emails", (value) => value);
    const inserted = await tx.$queryRaw<{ contact_id: string }[]>`
      INSERT INTO segment_contacts (segment_id, contact_id, organization_id)
      SELECT ${segment[0].id}::uuid, contact_id, ${ctx.organizationId}::uuid FROM unnest(${contacts.map((c) => c.id)}::uuid[]) AS contact_id
      ON CONFLICT DO NOTHING
      RETURNING contact_id`;
    // Contacts new to the segment enter the automations it triggers, with their membership.
    await enterStaticSegment(
      tx,
      ctx.organizationId,
      segment[0].id,
      inserted.map((row) => row.contact_id),
    );
    return inserted.length;
  }, TRANSACTION);
  await keepStatisticsCurrent(["segment_contacts"], added);
  return { added };
}

/** Takes a contact out of a segment. Both must exist in the organization; a contact not in the segment is already out. */
export async function removeSegmentContact(ctx: OrgContext, id: string, contactId: string) {
  const [segment, contact] = await Promise.all([
    db.segment.findFirst({ where: { id, organization_id: ctx.organizationId }, select: { id: true, filter: true } }),
    db.contact.findFirst({ where: { id: contactId, organization_id: ctx.organizationId }, select: { id: true } }),
  ]);
  if (!segment) throw notFound("Segment");
  if (segment.filter !== null) throw segmentIsDynamic();
  if (!contact) throw notFound("Contact");
  await db.segmentContact.deleteMany({ where: { segment_id: segment.id, contact_id: contact.id, organization_id: ctx.organizationId } });
  return { success: true };
}
