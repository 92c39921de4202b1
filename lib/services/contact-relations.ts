import type { OrgContext } from "@/lib/domain/context";
import { notFound } from "@/lib/domain/errors";
import { db } from "@/lib/db";

/** Segments a contact may show: a contact in more is listed with the first this many (has_more). */
const MAX_SEGMENTS = 1000;

async function assertContact(ctx: OrgContext, id: string) {
  const contact = await db.contact.findFirst({ where: { id, organization_id: ctx.organizationId }, select: { id: true } });
  if (!contact) throw notFound("Contact");
  return contact.id;
}

export async function listContactSegments(ctx: OrgContext, contactId: string) {
  const id = await assertContact(ctx, contactId);
  const rows = await db.segmentContact.findMany({
    where: { organization_id: ctx.organizationId, contact_id: id },
    orderBy: [{ created_at: "desc" }, { segment_id: "asc" }],
    take: MAX_SEGMENTS + 1,
    select: { created_at: true, segment: { select: { id: true, name: true } } },
  });
  const data = rows.slice(0, MAX_SEGMENTS).map((row) => ({ id: row.segment.id, name: row.segment.name, added_at: row.created_at }));
  return { object: "list" as const, has_more: rows.length > MAX_SEGMENTS, data };
}

export async function listContactTopics(ctx: OrgContext, contactId: string) {
  const id = await assertContact(ctx, contactId);
  const topics = await db.topic.findMany({
    where: { organization_id: ctx.organizationId },
    orderBy: [{ name: "asc" }, { id: "asc" }],
    select: {
      id: true,
      name: true,
      default_subscription: true,
      contacts: { where: { contact_id: id, organization_id: ctx.organizationId }, select: { subscribed: true } },
    },
  });
  return topics.map((topic) => ({
    topic_id: topic.id,
    name: topic.name,
    subscribed: topic.contacts[0]?.subscribed ?? topic.default_subscription === "opt_out",
  }));
}
