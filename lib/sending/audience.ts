import { Prisma } from "@/lib/db";

export type Audience = { organizationId: string; segmentId: string; topicId: string | null };

/**
 * The contacts a broadcast goes to, as a SQL condition on `c` (contacts): members of its segment,
 * subscribed, whose address is not suppressed, and — for a broadcast with a topic — not opted
 * out of it (an explicit `subscribed = false`, or no choice made and the topic is opt-out).
 */
export function audienceCondition({ organizationId, segmentId, topicId }: Audience): Prisma.Sql {
  const topic = topicId
    ? Prisma.sql`AND COALESCE(
        (SELECT ct.subscribed FROM contact_topics ct WHERE ct.contact_id = c.id AND ct.topic_id = ${topicId}::uuid),
        (SELECT t.default_subscription = 'opt_in' FROM topics t WHERE t.id = ${topicId}::uuid))`
    : Prisma.empty;
  return Prisma.sql`
    c.organization_id = ${organizationId}::uuid
    AND c.subscribed
    AND EXISTS (SELECT 1 FROM segment_contacts sc WHERE sc.segment_id = ${segmentId}::uuid AND sc.contact_id = c.id)
    AND NOT EXISTS (SELECT 1 FROM suppressions s WHERE s.organization_id = ${organizationId}::uuid AND s.email = lower(c.email))
    ${topic}`;
}
