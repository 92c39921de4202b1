import { Prisma } from "@/lib/db";
import { segmentCondition } from "./membership";
import type { AudienceClient } from "./scope";
import { receivesTopicSql } from "./topics";

export type Audience = { organizationId: string; segmentId: string; topicId: string | null };

/**
 * The contacts a broadcast may reach, as a SQL condition on `c` (contacts): of the organization,
 * subscribed, whose address is not suppressed, and — for a broadcast with a topic — receiving that
 * topic (topics.ts: its own choice, else the topic's default).
 */
export function reachableCondition({ organizationId, topicId }: Omit<Audience, "segmentId">): Prisma.Sql {
  const topic = topicId ? Prisma.sql`AND ${receivesTopicSql(topicId)}` : Prisma.empty;
  return Prisma.sql`
    c.organization_id = ${organizationId}::uuid
    AND c.subscribed
    AND NOT EXISTS (SELECT 1 FROM suppressions s WHERE s.organization_id = ${organizationId}::uuid AND s.email = lower(c.email))
    ${topic}`;
}

/** The contacts a broadcast goes to now: the reachable members of its segment (static or dynamic). */
export async function audienceCondition(client: AudienceClient, audience: Audience): Promise<Prisma.Sql> {
  const members = await segmentCondition(client, audience.organizationId, audience.segmentId);
  return Prisma.sql`${reachableCondition(audience)} AND ${members}`;
}
