import { AppError } from "@/lib/domain/errors";
import { Prisma } from "@/lib/db";
import { limits } from "@/lib/schemas/common";
import type { ContactBulkAction } from "@/lib/schemas/contact-bulk-actions";
import { enterStaticSegment } from "@/lib/automations/segment-entry";
import { recordContactEvents } from "./contact-events";
import { segmentIsDynamic } from "./segments";

/** What a bulk action does, apart from whom it does it to. */
export type BulkArguments = { action: ContactBulkAction; segment_id?: string; tags?: string[] };

/**
 * The static segment an action adds to or removes from, locked against deletion for the batch
 * (FOR KEY SHARE). Gone (deleted since the job began) or dynamic: the action cannot go on.
 */
async function staticSegment(tx: Prisma.TransactionClient, organizationId: string, segmentId: string): Promise<string> {
  const [segment] = await tx.$queryRaw<{ id: string; dynamic: boolean }[]>`
    SELECT id, filter IS NOT NULL AS dynamic FROM segments
    WHERE id = ${segmentId}::uuid AND organization_id = ${organizationId}::uuid FOR KEY SHARE`;
  if (!segment)
    throw new AppError("VALIDATION_ERROR", "The segment no longer exists", [{ path: "segment_id", message: "no such segment in this organization" }]);
  if (segment.dynamic) throw segmentIsDynamic();
  return segment.id;
}

type Changed = { id: string }[];

/**
 * Carries the action out on one batch of the organization's contacts (`ids`, at most a thousand),
 * each kind in one statement; answers how many it changed. A contact already in the state asked for
 * (in the segment, carrying the tags, unsubscribed) is not counted, nor one that would carry more
 * than the 20 tags a contact may have.
 */
export async function applyBulkAction(tx: Prisma.TransactionClient, organizationId: string, args: BulkArguments, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const mine = Prisma.sql`c.organization_id = ${organizationId}::uuid AND c.id = ANY(${ids}::uuid[])`;
  const tags = args.tags ?? [];
  switch (args.action) {
    case "add_to_segment": {
      const segmentId = await staticSegment(tx, organizationId, args.segment_id!);
      const added = await tx.$queryRaw<{ contact_id: string }[]>`
        INSERT INTO segment_contacts (segment_id, contact_id, organization_id)
        SELECT ${segmentId}::uuid, c.id, c.organization_id FROM contacts c WHERE ${mine}
        ON CONFLICT DO NOTHING
        RETURNING contact_id`;
      // Contacts new to the segment enter the automations it triggers, with their membership (as POST /v1/segments/{id}/contacts).
      await enterStaticSegment(
        tx,
        organizationId,
        segmentId,
        added.map((row) => row.contact_id),
      );
      return added.length;
    }
    case "remove_from_segment": {
      const segmentId = await staticSegment(tx, organizationId, args.segment_id!);
      return tx.$executeRaw`
        DELETE FROM segment_contacts WHERE segment_id = ${segmentId}::uuid AND organization_id = ${organizationId}::uuid AND contact_id = ANY(${ids}::uuid[])`;
    }
    case "add_tags": {
      // The contact's own tags first, in their order, then the new ones it lacks.
      const merged = Prisma.sql`coalesce(c.tags, '{}') || ARRAY(SELECT t FROM unnest(${tags}::text[]) t WHERE NOT t = ANY(coalesce(c.tags, '{}')))`;
      const changed = await tx.$queryRaw<Changed>`
        UPDATE contacts c SET tags = ${merged}, updated_at = now()
        WHERE ${mine} AND NOT coalesce(c.tags, '{}') @> ${tags}::text[] AND cardinality(${merged}) <= ${limits.tags}
        RETURNING c.id`;
      return recorded(tx, organizationId, changed, { changed: ["tags"] });
    }
    case "remove_tags": {
      const changed = await tx.$queryRaw<Changed>`
        UPDATE contacts c SET tags = ARRAY(SELECT t FROM unnest(c.tags) t WHERE NOT t = ANY(${tags}::text[])), updated_at = now()
        WHERE ${mine} AND c.tags && ${tags}::text[]
        RETURNING c.id`;
      return recorded(tx, organizationId, changed, { changed: ["tags"] });
    }
    case "unsubscribe": {
      // The first unsubscription is the one that counts (as PUT /v1/contacts/{id} keeps it).
      const changed = await tx.$queryRaw<Changed>`
        UPDATE contacts c SET subscribed = false, unsubscribed_at = coalesce(c.unsubscribed_at, now()), updated_at = now()
        WHERE ${mine} AND c.subscribed
        RETURNING c.id`;
      return recorded(tx, organizationId, changed, { changed: ["subscribed"] }, "contact.unsubscribed");
    }
    case "delete":
      return tx.$executeRaw`DELETE FROM contacts c WHERE ${mine}`;
  }
}

/**
 * Records what the batch changed through lib/events, in its transaction: `contact.updated` naming
 * the fields (as a single contact's update does), and `contact.unsubscribed` after an
 * unsubscription, which webhooks announce and which ends the contacts' automation runs.
 */
async function recorded(
  tx: Prisma.TransactionClient,
  organizationId: string,
  changed: Changed,
  properties: { changed: string[] },
  also?: "contact.unsubscribed",
) {
  const contactIds = changed.map((row) => row.id);
  await recordContactEvents(tx, { organizationId, name: "contact.updated", source: "contacts", contactIds, properties });
  if (also) await recordContactEvents(tx, { organizationId, name: also, source: "contacts", contactIds, properties: { reason: "api" } });
  return contactIds.length;
}
