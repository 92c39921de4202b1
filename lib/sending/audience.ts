import { Prisma } from "@/lib/db";

// Who a broadcast reaches (reachable contacts, segment membership) is lib/audience's: reachable.ts, membership.ts.

/**
 * The email of step `position` of a broadcast for one contact, for `NOT EXISTS (…)`: run once per
 * outer row as a probe of the unique (broadcast_id, sequence_position, contact_id) index. OFFSET 0
 * keeps the planner from turning it into an anti-join. While a fan-out or a dispatch writes a
 * broadcast's emails, the statistics have never seen that broadcast: the join is planned for one
 * row, as a nested loop over every email written so far for every candidate — 28 s for a chunk of
 * 5 000 recipients with 20 000 written (benchmark, 25 Nov), quadratic over the broadcast.
 */
export const recipientEmail = (broadcastId: Prisma.Sql, position: number, contactId: Prisma.Sql) => Prisma.sql`
  SELECT 1 FROM emails n
  WHERE n.broadcast_id = ${broadcastId} AND n.sequence_position = ${position}::int AND n.contact_id = ${contactId}
  OFFSET 0`;
