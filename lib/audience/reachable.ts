import { Prisma } from "@/lib/db";
import { segmentCondition } from "./membership";
import type { AudienceClient } from "./scope";
import { receivesTopicSql } from "./topics";

/** A resend's original broadcast, and whom of its recipients it is for: who did not open it, or did not click. */
export type ResendOf = { broadcastId: string; audience: "non_openers" | "non_clickers" };

export type Audience = { organizationId: string; segmentId: string; topicId: string | null; resendOf?: ResendOf | null };

/**
 * The contacts a broadcast may reach, as a SQL condition on `c` (contacts): of the organization,
 * subscribed, whose address is not suppressed, and — for a broadcast with a topic — receiving that
 * topic (topics.ts: its own choice, else the topic's default). A resend to non-openers
 * (non-clickers) also leaves out whoever opened (clicked) an email of the original by now, a
 * person's open or click (lib/tracking sets opened_at and clicked_at for those only).
 */
export function reachableCondition({ organizationId, topicId, resendOf }: Omit<Audience, "segmentId">): Prisma.Sql {
  const topic = topicId ? Prisma.sql`AND ${receivesTopicSql(topicId)}` : Prisma.empty;
  return Prisma.sql`
    c.organization_id = ${organizationId}::uuid
    AND c.subscribed
    AND NOT EXISTS (SELECT 1 FROM suppressions s WHERE s.organization_id = ${organizationId}::uuid AND s.email = lower(c.email))
    ${topic}
    ${resendOf ? engagedWith(organizationId, resendOf) : Prisma.empty}`;
}

// Planned as an anti-join over the original's engaged emails (hashed once per statement), not a probe per contact.
function engagedWith(organizationId: string, { broadcastId, audience }: ResendOf): Prisma.Sql {
  const at = audience === "non_clickers" ? Prisma.raw("o.clicked_at") : Prisma.raw("o.opened_at");
  return Prisma.sql`AND NOT EXISTS (
    SELECT 1 FROM emails o
    WHERE o.organization_id = ${organizationId}::uuid AND o.broadcast_id = ${broadcastId}::uuid AND o.contact_id = c.id AND ${at} IS NOT NULL)`;
}

/** A broadcast's resend columns as the audience takes them. */
export const resendOfBroadcast = (b: { resend_of_id: string | null; resend_audience: ResendOf["audience"] | null }): ResendOf | null =>
  b.resend_of_id && b.resend_audience ? { broadcastId: b.resend_of_id, audience: b.resend_audience } : null;

/** The contacts a broadcast goes to now: the reachable members of its segment (static or dynamic). */
export async function audienceCondition(client: AudienceClient, audience: Audience): Promise<Prisma.Sql> {
  const members = await segmentCondition(client, audience.organizationId, audience.segmentId);
  return Prisma.sql`${reachableCondition(audience)} AND ${members}`;
}
