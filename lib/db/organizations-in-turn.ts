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
 * Up to `limit` organizations with work, in id order after `after` (and up to `through`, when
 * given), found by skipping through the queue's index one organization at a time: as cheap with a
 * million rows of one organization waiting as with nothing. `limit` may be an expression of the
 * statement around it; none is read when it is not positive.
 */
export function organizationsAfterSql(queue: OrganizationQueue, after: string, limit: number | Prisma.Sql, through?: string): Prisma.Sql {
  const from = Prisma.raw(queue.table);
  const where = Prisma.sql`${Prisma.raw(queue.where ? `AND (${queue.where})` : "")} ${through ? Prisma.sql`AND q.organization_id <= ${through}::uuid` : Prisma.empty}`;
  const order = Prisma.raw(queue.leading ? `${queue.leading}, q.organization_id` : "q.organization_id");
  const most = typeof limit === "number" ? Prisma.sql`${limit}::int` : limit;
  return Prisma.sql`
    WITH RECURSIVE orgs(id, n) AS (
      (SELECT q.organization_id, 1 FROM ${from} WHERE q.organization_id > ${after}::uuid ${where} AND ${most} > 0 ORDER BY ${order} LIMIT 1)
      UNION ALL
      SELECT (SELECT q.organization_id FROM ${from} WHERE q.organization_id > orgs.id ${where} ORDER BY ${order} LIMIT 1), orgs.n + 1
      FROM orgs WHERE orgs.id IS NOT NULL AND orgs.n < ${most}
    )
    SELECT id FROM orgs WHERE id IS NOT NULL`;
}

/**
 * The round's organizations (organizationsInTurn) in one statement: the ones after `after`, then
 * from the start up to `after` as many as those left room for. One statement, so that a caller can
 * ask it beside its other questions, and a round that finds nothing costs one read, not two.
 */
function organizationsInTurnSql(queue: OrganizationQueue, after: string | null, limit: number): Prisma.Sql {
  if (after === null) return organizationsAfterSql(queue, NO_ORGANIZATION, limit);
  const wrapped = organizationsAfterSql(queue, NO_ORGANIZATION, Prisma.sql`${limit}::int - (SELECT count(*) FROM onward)::int`, after);
  return Prisma.sql`
    WITH onward AS (${organizationsAfterSql(queue, after, limit)})
    SELECT id FROM (SELECT id, 0 AS lap FROM onward UNION ALL SELECT id, 1 AS lap FROM (${wrapped}) wrapped) turn
    ORDER BY lap, id`;
}

/**
 * The organizations to serve this round, in turn: the ones after `after` (the last one served) first,
 * then from the start, so that with more than `limit` organizations waiting each round goes on where
 * the last stopped and every organization is served within a few rounds, whatever the others hold.
 * Every worker loop that serves organizations from a shared queue takes them from here.
 */
export async function organizationsInTurn(client: DbClient, queue: OrganizationQueue, after: string | null, limit: number): Promise<string[]> {
  const rows = await client.$queryRaw<{ id: string }[]>(organizationsInTurnSql(queue, after, limit));
  return rows.map((row) => row.id);
}

/**
 * A loop's place in the turn: `next` answers this round's organizations and remembers the last.
 * Or, to ask it inside a statement of the caller's own: `sql` is the round's question (its answer
 * in its order, one `id` a row) and `served` remembers the answer's last.
 */
export function organizationTurn(queue: OrganizationQueue) {
  let after: string | null = null;
  const served = (organizations: string[]) => {
    if (organizations.length > 0) after = organizations[organizations.length - 1];
  };
  return {
    sql: (limit: number): Prisma.Sql => organizationsInTurnSql(queue, after, limit),
    served,
    async next(client: DbClient, limit: number): Promise<string[]> {
      const organizations = await organizationsInTurn(client, queue, after, limit);
      served(organizations);
      return organizations;
    },
  };
}
