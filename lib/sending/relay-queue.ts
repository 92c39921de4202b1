import { Prisma } from "@/lib/db";
import { anyDueSql, BROADCAST, rangeSql, sendingBroadcastsSql, type Queue } from "./queue-sources";

/**
 * An organization's relay emails (`organization`: an expression, such as a column of the outer
 * query): queued with no inbox, through the index (inbox_id, organization_id, broadcast_id, status,
 * next_attempt_at), fresh ones and those whose time has come apart (queue-sources.ts).
 */
function relayQueue(organization: Prisma.Sql): Queue {
  const order = Prisma.sql`e.status, e.next_attempt_at`;
  return {
    held: Prisma.sql`e.inbox_id IS NULL AND e.organization_id = ${organization} AND e.status = 'queued'`,
    leading: Prisma.sql`e.inbox_id, e.organization_id`,
    ranges: [
      { fresh: true, order },
      { fresh: false, order },
    ],
  };
}

/**
 * Whether the organization has a due relay email: one of no broadcast, or of a sending broadcast.
 * Its from domain is not asked here (a read for each email, were it not verified): a broadcast whose
 * domain lost its verification may be found due and then give nothing (relayEmailsSql reads a few
 * times the share of it, not all).
 */
export const relayHasDueSql = (organization: Prisma.Sql, now: Prisma.Sql) => Prisma.sql`COALESCE(${anyDueSql(relayQueue(organization), now)}, false)`;

/** A broadcast's email goes through the relay only from a verified domain of its organization. */
const fromVerifiedDomain = Prisma.sql`EXISTS (SELECT 1 FROM domains d WHERE d.organization_id = e.organization_id AND d.status = 'verified'
  AND d.name = lower(split_part(e.from_email, '@', 2)))`;

/**
 * Up to `limit` due relay emails of the organization, each locked for this claim: the emails of no
 * broadcast, then the sending broadcasts'. An email another worker's claim in progress holds is
 * skipped (SKIP LOCKED), so that workers claiming at once take different emails; a broadcast's email
 * goes only from a verified domain, asked of the few emails looked at (queue-sources.ts, CANDIDATES).
 */
export function relayEmailsSql(organization: Prisma.Sql, now: Prisma.Sql, limit: Prisma.Sql): Prisma.Sql {
  const queue = relayQueue(organization);
  const ranges = (broadcast: Prisma.Sql | null, extra?: Prisma.Sql) =>
    Prisma.join(
      queue.ranges.map((range) => Prisma.sql`(${rangeSql(queue, range, broadcast, now, Prisma.sql`e.id`, limit, { extra, lock: true })})`),
      " UNION ALL ",
    );
  return Prisma.sql`SELECT due.id FROM (
      (${ranges(null)})
      UNION ALL (SELECT x.id FROM (${sendingBroadcastsSql(queue)}) s CROSS JOIN LATERAL (${ranges(BROADCAST, fromVerifiedDomain)}) x)
    ) due LIMIT ${limit}`;
}
