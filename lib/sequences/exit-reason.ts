import { Prisma } from "@/lib/db";
import { receivesTopicSql } from "@/lib/audience/topics";

/** Why a recipient left when a colleague at their domain replied. */
export const COMPANY_REPLIED = "a colleague replied";

export type ExitConditions = { exitIfIn: string[]; exitIfNotIn: string[] };

const uuids = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []);

/** The broadcast's `sequence_exit_conditions`, tolerant of a null or partial object. */
export function readExitConditions(json: unknown): ExitConditions {
  const conditions = json && typeof json === "object" ? (json as Record<string, unknown>) : {};
  return { exitIfIn: uuids(conditions.exit_if_in_segment_ids), exitIfNotIn: uuids(conditions.exit_if_not_in_segment_ids) };
}

/**
 * `inExitSegment`: a member of any "exit if in" segment; `inRequiredSegments`: a member of every
 * "exit if not in" segment that still exists — conditions on `c` from lib/audience (static or
 * dynamic segments, as they are when the step falls due).
 */
export type ExitScope = { organizationId: string; broadcastId: string; topicId: string | null; inExitSegment: Prisma.Sql; inRequiredSegments: Prisma.Sql };

/**
 * Why the recipient (`c` = contact, `p` = their previous email of the sequence) leaves the
 * sequence now, as SQL text, or NULL when they stay: they replied, unsubscribed (from everything
 * or from the broadcast's topic), bounced or complained on any email of this broadcast, their
 * address is suppressed, someone at their company's domain replied (`stop_on_company_reply`,
 * lib/sequences/reply-exits.ts), or an exit condition holds (in any of the "exit if in"
 * segments, or missing from any of the "exit if not in" segments that still exist).
 */
export function exitReasonSql({ organizationId, broadcastId, topicId, inExitSegment, inRequiredSegments }: ExitScope): Prisma.Sql {
  const topicOptOut = topicId ? Prisma.sql`NOT ${receivesTopicSql(topicId)}` : Prisma.sql`false`;
  // One probe of the (organization_id, to_email) index reads all of the recipient's emails of the broadcast.
  return Prisma.sql`COALESCE(
    (SELECT CASE
        WHEN bool_or(r.replied_at IS NOT NULL) THEN 'replied'
        WHEN bool_or(r.unsubscribed_at IS NOT NULL) THEN 'unsubscribed'
        WHEN bool_or(r.bounced_at IS NOT NULL OR r.status = 'bounced') THEN 'bounced'
        WHEN bool_or(r.complained_at IS NOT NULL OR r.status = 'complained') THEN 'complained' END
     FROM emails r
     WHERE r.organization_id = ${organizationId}::uuid AND r.to_email = p.to_email
       AND r.broadcast_id = ${broadcastId}::uuid AND r.contact_id = c.id),
    CASE
      WHEN NOT c.subscribed OR ${topicOptOut} THEN 'unsubscribed'
      WHEN EXISTS (SELECT 1 FROM suppressions s WHERE s.organization_id = ${organizationId}::uuid
                   AND s.email IN (lower(c.email), lower(p.to_email))) THEN 'suppressed'
      WHEN EXISTS (SELECT 1 FROM sequence_stopped_domains sd WHERE sd.broadcast_id = ${broadcastId}::uuid
                   AND sd.domain = lower(split_part(p.to_email, '@', 2))) THEN ${COMPANY_REPLIED}
      WHEN ${inExitSegment} THEN 'in an exit segment'
      WHEN NOT ${inRequiredSegments} THEN 'not in a required segment'
    END)`;
}
