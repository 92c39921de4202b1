import type { OrgContext } from "@/lib/domain/context";
import { invalidField, notFound } from "@/lib/domain/errors";
import { cursorPage } from "@/lib/services/cursor-page";
import type { CursorParams } from "@/lib/schemas/pagination";
import { db, Prisma } from "@/lib/db";
import type { Segment } from "@/lib/generated/prisma/client";
import type { AddSegmentContactsInput, CreateSegmentInput, UpdateSegmentInput } from "@/lib/schemas/segments";
import { keepStatisticsCurrent } from "@/lib/db/statistics";

const withCount = { _count: { select: { contacts: true } } } as const;

const serialize = (row: Segment & { _count: { contacts: number } }) => ({
  id: row.id,
  organization_id: row.organization_id,
  name: row.name,
  description: row.description,
  contacts_count: row._count.contacts,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

export async function createSegment(ctx: OrgContext, input: CreateSegmentInput) {
  const row = await db.segment.create({
    data: { organization_id: ctx.organizationId, name: input.name, description: input.description ?? null },
    include: withCount,
  });
  return serialize(row);
}

export async function listSegments(ctx: OrgContext, page: CursorParams) {
  const where = { organization_id: ctx.organizationId };
  const result = await cursorPage(
    page,
    (args) => db.segment.findMany({ where: { ...where, ...args.where }, orderBy: args.orderBy, take: args.take, include: withCount }),
    (id) => db.segment.findFirst({ where: { ...where, id }, select: { id: true, created_at: true } }),
  );
  return { ...result, data: result.data.map(serialize) };
}

export async function getSegment(ctx: OrgContext, id: string) {
  const row = await db.segment.findFirst({ where: { id, organization_id: ctx.organizationId }, include: withCount });
  if (!row) throw notFound("Segment");
  return serialize(row);
}

export async function updateSegment(ctx: OrgContext, id: string, input: UpdateSegmentInput) {
  const { count } = await db.segment.updateMany({
    where: { id, organization_id: ctx.organizationId },
    data: { name: input.name, description: input.description },
  });
  if (count === 0) throw notFound("Segment");
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
 * Deletes a segment; its contacts stay. In the same transaction the segment leaves every broadcast's
 * exit conditions, and the foreign key clears `segment_id` on broadcasts that targeted it.
 */
export async function deleteSegment(ctx: OrgContext, id: string) {
  const target = id.toLowerCase();
  await db.$transaction(async (tx) => {
    const found = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM segments WHERE id = ${target}::uuid AND organization_id = ${ctx.organizationId}::uuid FOR UPDATE`;
    if (found.length === 0) throw notFound("Segment");
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
    const segment = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM segments WHERE id = ${id}::uuid AND organization_id = ${ctx.organizationId}::uuid FOR KEY SHARE`;
    if (segment.length === 0) throw notFound("Segment");
    const contacts = await tx.$queryRaw<{ id: string; email: string }[]>`
      SELECT id, email FROM contacts
      WHERE organization_id = ${ctx.organizationId}::uuid AND (id = ANY(${ids}::uuid[]) OR email = ANY(${emails}::text[]))
      FOR KEY SHARE`;
    assertAllFound(input.contact_ids, new Set(contacts.map((c) => c.id)), "contact_ids", (value) => value.toLowerCase());
    assertAllFound(input.emails, new Set(contacts.map((c) => c.email)), "emails", (value) => value);
    return tx.$executeRaw`
      INSERT INTO segment_contacts (segment_id, contact_id, organization_id)
      SELECT ${segment[0].id}::uuid, contact_id, ${ctx.organizationId}::uuid FROM unnest(${contacts.map((c) => c.id)}::uuid[]) AS contact_id
      ON CONFLICT DO NOTHING`;
  }, TRANSACTION);
  await keepStatisticsCurrent(["segment_contacts"], added);
  return { added };
}

/** Takes a contact out of a segment. Both must exist in the organization; a contact not in the segment is already out. */
export async function removeSegmentContact(ctx: OrgContext, id: string, contactId: string) {
  const [segment, contact] = await Promise.all([
    db.segment.findFirst({ where: { id, organization_id: ctx.organizationId }, select: { id: true } }),
    db.contact.findFirst({ where: { id: contactId, organization_id: ctx.organizationId }, select: { id: true } }),
  ]);
  if (!segment) throw notFound("Segment");
  if (!contact) throw notFound("Contact");
  await db.segmentContact.deleteMany({ where: { segment_id: segment.id, contact_id: contact.id, organization_id: ctx.organizationId } });
  return { success: true };
}
