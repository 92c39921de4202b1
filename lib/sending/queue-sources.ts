import { Prisma } from "@/lib/db";

// What the claim reads of a queue index (an inbox's emails of one pace, an organization's relay
// emails), broadcast by broadcast. Each of these indexes has broadcast_id right after the columns
// that name the inbox or organization (schema.prisma), so its rows come in ranges: the emails of
// no broadcast, then each broadcast's. The claim reads the range of the emails of no broadcast and
// the ranges of the broadcasts still sending, and steps over the range of any other broadcast in
// one read, however many emails it holds: a cancelled broadcast's queued emails stay in the queue
// until the sweep of cancel-emails.ts reaches them, and a million of them, read one by one to learn
// that their broadcast no longer sends, cost every claim round seconds, in the transaction that
// serves every organization.

/**
 * Due: queued and not claimed by a worker, its time come, inside its sending window when it has one
 * (lib/sending/windows.ts moves one whose window closed to the next opening). Reads `e` (emails).
 * Whether its broadcast still sends is asked of the broadcast, once (sendingBroadcastsSql).
 */
const dueAt = (now: Prisma.Sql) => Prisma.sql`e.status = 'queued' AND e.direction = 'outbound'
  AND (e.next_attempt_at IS NULL OR e.next_attempt_at <= ${now})
  AND (e.window_ends_at IS NULL OR e.window_ends_at > ${now})
  AND NOT EXISTS (SELECT 1 FROM email_claims claim WHERE claim.email_id = e.id)`;

/**
 * One range of a queue index: its fresh emails (never tried, never placed: no next_attempt_at) or
 * its timed ones (a retry, a window's opening, a return from out-of-office), come by `now`. Apart,
 * each is one range of its index: together, the condition on next_attempt_at is an OR the index
 * cannot bound, and the emails waiting for a later time would be walked past.
 */
type Range = {
  fresh: boolean;
  /** The index's columns after broadcast_id: the order the range is read in. */
  order: Prisma.Sql;
};

/** A queue index as the claim reads it, for one inbox or organization. */
export type Queue = {
  /** The condition on `e` that implies the index's own and fixes the columns before broadcast_id. */
  held: Prisma.Sql;
  /**
   * The index's columns before broadcast_id, named in every ORDER BY so that the index gives the
   * order: a column fixed by IS NULL (the relay's inbox_id) is not known to the planner as fixed.
   */
  leading: Prisma.Sql;
  ranges: Range[];
};

/**
 * How many emails a locking read looks at for each one it may take: its first `limit` × 4 in the
 * range, each then locked unless another transaction holds it (SKIP LOCKED), the first `limit` taken.
 * Claims in progress at once hold a share each of the same first emails, and this one takes the
 * next ones instead of waiting for them. Unbounded, it read every email another transaction held:
 * while one UPDATE holds a broadcast's queued emails (as a pause's did, when it moved them to
 * `scheduled`), each of them, on every claim round (3 000 rows for 3 000 emails).
 */
const CANDIDATES = 4;

/** A sending broadcast with emails in a queue: `s.id`, `s.sending_speed` (sendingBroadcastsSql). */
export const BROADCAST = Prisma.sql`s.id`;

/**
 * The first `limit` due emails of one range of the queue, of no broadcast (`broadcast` null) or of
 * one, in the index's order: an ORDER BY the index gives keeps the planner on it (without one, when
 * the statistics see most queued emails in one place, reading the whole table in another order and
 * stopping at the first match looks as cheap, and is not), and a sort would read the range whole.
 * `extra`: more conditions on `e`; `lock`: each locked for the caller, one held by another
 * transaction skipped (CANDIDATES).
 */
export function rangeSql(
  queue: Queue,
  range: Range,
  broadcast: Prisma.Sql | null,
  now: Prisma.Sql,
  columns: Prisma.Sql,
  limit: number | Prisma.Sql,
  options: { extra?: Prisma.Sql; lock?: boolean } = {},
): Prisma.Sql {
  const of = broadcast === null ? Prisma.sql`e.broadcast_id IS NULL` : Prisma.sql`e.broadcast_id = ${broadcast}`;
  const when = range.fresh ? Prisma.sql`e.next_attempt_at IS NULL` : Prisma.sql`e.next_attempt_at <= ${now}`;
  const extra = options.extra ? Prisma.sql`AND ${options.extra}` : Prisma.empty;
  const read = (selected: Prisma.Sql, most: Prisma.Sql) => Prisma.sql`SELECT ${selected} FROM emails e
    WHERE ${queue.held} AND ${of} AND ${when} AND ${dueAt(now)} ${options.lock ? Prisma.empty : extra}
    ORDER BY ${queue.leading}, e.broadcast_id, ${range.order} LIMIT ${most}`;
  if (!options.lock) return read(columns, Prisma.sql`${limit}`);
  // Locked one by one, each by its key, the candidates in their order; the conditions are checked
  // again on the version locked (a transaction that committed meanwhile may have sent or moved it).
  return Prisma.sql`SELECT locked.* FROM (${read(Prisma.sql`e.id`, Prisma.sql`${limit} * ${CANDIDATES}::int`)}) candidate CROSS JOIN LATERAL (
      SELECT ${columns} FROM emails e WHERE e.id = candidate.id AND ${dueAt(now)} ${extra} FOR NO KEY UPDATE OF e SKIP LOCKED
    ) locked
    LIMIT ${limit}`;
}

/**
 * The broadcasts whose emails the queue holds and that are still sending (`s`: id, sending_speed),
 * found by skipping through the index from one broadcast's range to the next: one read a broadcast,
 * whatever it holds. A paused broadcast's emails, queued until it resumes, and a cancelled one's,
 * queued until the sweep reaches them, are stepped over here.
 */
export const sendingBroadcastsSql = (queue: Queue): Prisma.Sql =>
  sendingBroadcastsOfIndex(queue.held, Prisma.sql`${queue.leading}, e.broadcast_id, ${queue.ranges[0].order}`);

/**
 * The same for any index of `emails` that has broadcast_id right after the columns `held` fixes:
 * `order` is the index's columns, as an ORDER BY that keeps each step on it (windows.ts reads the
 * broadcasts' emails waiting for a time this way).
 */
export function sendingBroadcastsOfIndex(held: Prisma.Sql, order: Prisma.Sql): Prisma.Sql {
  const next = (after: Prisma.Sql) => Prisma.sql`SELECT e.broadcast_id FROM emails e WHERE ${held} AND ${after}
    ORDER BY ${order} LIMIT 1`;
  return Prisma.sql`WITH RECURSIVE held(id) AS (
      SELECT (${next(Prisma.sql`e.broadcast_id IS NOT NULL`)})
      UNION ALL
      SELECT (${next(Prisma.sql`e.broadcast_id > held.id`)}) FROM held WHERE held.id IS NOT NULL
    )
    SELECT b.id, b.sending_speed FROM held JOIN broadcasts b ON b.id = held.id WHERE b.status = 'sending'`;
}

/**
 * Whether the queue has a due email: of no broadcast, or of a sending broadcast. Not EXISTS, which
 * would drop the order that keeps each probe on its index. NULL when it has none.
 */
export function anyDueSql(queue: Queue, now: Prisma.Sql): Prisma.Sql {
  const probe = (broadcast: Prisma.Sql | null) => queue.ranges.map((range) => Prisma.sql`(${rangeSql(queue, range, broadcast, now, Prisma.sql`true`, 1)})`);
  return Prisma.sql`COALESCE(${Prisma.join(probe(null))},
    (SELECT true FROM (${sendingBroadcastsSql(queue)}) s WHERE COALESCE(${Prisma.join(probe(BROADCAST))}) LIMIT 1))`;
}
