import type { OrgContext } from "@/lib/domain/context";
import { notFound } from "@/lib/domain/errors";
import { db } from "@/lib/db";
import { segmentsOfContact } from "@/lib/audience/membership";

/** Segments a contact may show: a contact in more is listed with the first this many (has_more). */
const MAX_SEGMENTS = 1000;

async function assertContact(ctx: OrgContext, id: string) {
  const contact = await db.contact.findFirst({ where: { id, organization_id: ctx.organizationId }, select: { id: true } });
  if (!contact) throw notFound("Contact");
  return contact.id;
}

/**
 * The segments the contact is in now (lib/audience answers static and dynamic ones alike): static
 * ones most recently joined first, then dynamic ones, whose members are whoever matches, by name.
 */
export async function listContactSegments(ctx: OrgContext, contactId: string) {
  const id = await assertContact(ctx, contactId);
  const ids = await segmentsOfContact(db, ctx.organizationId, id);
  const [segments, joined] = await Promise.all([
    db.segment.findMany({ where: { organization_id: ctx.organizationId, id: { in: ids } }, select: { id: true, name: true, filter: true } }),
    db.segmentContact.findMany({
      where: { organization_id: ctx.organizationId, contact_id: id, segment_id: { in: ids } },
      select: { segment_id: true, created_at: true },
    }),
  ]);
  const addedAt = new Map(joined.map((row) => [row.segment_id, row.created_at]));
  const rows = segments.map((segment) => ({
    id: segment.id,
    name: segment.name,
    dynamic: segment.filter !== null,
    added_at: segment.filter === null ? (addedAt.get(segment.id) ?? null) : null,
  }));
  rows.sort(
    (a, b) =>
      Number(a.dynamic) - Number(b.dynamic) ||
      (b.added_at?.getTime() ?? 0) - (a.added_at?.getTime() ?? 0) ||
      a.name.localeCompare(b.name) ||
      a.id.localeCompare(b.id),
  );
  return { object: "list" as const, has_more: rows.length > MAX_SEGMENTS, data: rows.slice(0, MAX_SEGMENTS) };
}
