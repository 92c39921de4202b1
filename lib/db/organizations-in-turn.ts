import type { DbClient } from "@/lib/db";
import { Prisma } from "@/lib/db";

const NO_ORGANIZATION = "00000000-0000-0000-0000-000000000000";

/**
 * A queue of work kept per organization: a table (with its alias) whose rows are work while `where`
 * holds, indexed on `organization_id` first — or after `leading`, columns that `where` holds to one
 * value (`q.inbox_id` for the relay's emails, NULL). Ordered by those too, the skip reads that index
 * in its order: ordered by organization_id alone, the planner took another index of the table that
 * has it first and filtered, and walked every row of an organization with no work in this queue
 * (an inbox's 100 000 queued emails, for the relay: 1 s a claim round). Trusted SQL written in the
 * code, never a caller's input.
 */
export type OrganizationQueue = { table: string; where?: string; leading?: string };

/**
 * Up to `limit` organizations with work, in id order after `after`, found by skipping through the
 * queue's index one organization at a time: as cheap with a million rows of one organization waiting
 * as with nothing.
 */
export function organizationsAfterSql(queue: OrganizationQueue, after: string, limit: number): Prisma.Sql {
  const from = Prisma.raw(queue.table);
  const where = Prisma.raw(queue.where ? `AND (${queue.where})` : "");
  const order = Prisma.raw(queue.leading ? `${queue.leading}, q.organization_id` : "q.organization_id");
  return Prisma.sql`
    WITH RECURSIVE orgs(id, n) AS (
      (SELECT q.organization_id, 1 FROM ${from} WHERE q.organization_id > ${after}::uuid ${where} ORDER BY ${order} LIMIT 1)
      UNION ALL
      SELECT (SELECT q.organization_id FROM ${from} WHERE q.organization_id > orgs.id ${where} ORDER BY ${order} LIMIT 1), orgs.n + 1
      FROM orgs WHERE orgs.id IS NOT NULL AND orgs.n < ${limit}::int
    )
    SELECT id FROM orgs WHERE id IS NOT NULL`;
}

async function organizationsAfter(client: DbClient, queue: OrganizationQueue, after: string, limit: number): Promise<string[]> {
  const rows = await client.$queryRaw<{ id: string }[]>(organizationsAfterSql(queue, after, limit));
  return rows.map((row) => row.id);
}

/**
 * The organizations to serve this round, in turn: the ones after `after` (the last one served) first,
 * then from the start, so that with more than `limit` organizations waiting each round goes on where
 * the last stopped and every organization is served within a few rounds, whatever the others hold.
 * Every worker loop that serves organizations from a shared queue takes them from here.
 */
export async function organizationsInTurn(client: DbClient, queue: OrganizationQueue, after: string | null, limit: number): Promise<string[]> {
  const first = await organizationsAfter(client, queue, after ?? NO_ORGANIZATION, limit);
  if (first.length >= limit || after === null) return first;
  const wrapped = (await organizationsAfter(client, queue, NO_ORGANIZATION, limit - first.length)).filter((id) => id <= after);
  return [...first, ...wrapped];
}

/** A loop's place in the turn: `next` answers this round's organizations and remembers the last. */
export function organizationTurn(queue: OrganizationQueue) {
  let after: string | null = null;
  return {
    async next(client: DbClient, limit: number): Promise<string[]> {
      const organizations = await organizationsInTurn(client, queue, after, limit);
      if (organizations.length > 0) after = organizations[organizations.length - 1];
      return organizations;
    },
  };
}
