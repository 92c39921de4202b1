import { Prisma } from "@/lib/db";

// What the claim reads of an inbox's queue, each through an index of its own kind of email
// (schema.prisma, the emails_inbox_* indexes), so that it costs what it returns. Read through the
// one queue index of the inbox, a backlog of 100 000 paced emails (an automation's runs woken at
// once, a sequence, a slow broadcast) was walked by every claim round to find the instant emails,
// none of them among it (1.5 s), and read whole and sorted for the next paced one (1.2 s): in the
// transaction that also serves every other organization and the relay (0.19 of another
// organization's broadcast rate alone, in the full `automations` benchmark).

/**
 * Due: queued and not claimed by a worker, its time come, inside its sending window when it has one
 * (lib/sending/windows.ts moves one whose window closed to the next opening), and — for a
 * broadcast's email — the broadcast still sending (a paused broadcast's emails wait as `scheduled`,
 * a cancelled one's are cancelled). Reads `e` (emails) and `b` (its broadcast, left joined).
 */
export const dueAt = (now: Prisma.Sql) => Prisma.sql`e.status = 'queued' AND e.direction = 'outbound'
  AND (e.next_attempt_at IS NULL OR e.next_attempt_at <= ${now})
  AND (e.window_ends_at IS NULL OR e.window_ends_at > ${now})
  AND (e.broadcast_id IS NULL OR b.status = 'sending')
  AND NOT EXISTS (SELECT 1 FROM email_claims claim WHERE claim.email_id = e.id)`;

/** `instant`: transactional emails and `instant` broadcasts', as fast as the inbox's limits allow; `paced`: one per pacing gap. */
type Pace = "instant" | "paced";

/**
 * An inbox's due emails of one pace, either fresh (never tried, never placed: no next_attempt_at)
 * or timed (a retry, a window's opening, a return from out-of-office, come by `now`), the first
 * `limit` in the order of their index. Apart, each is one range of its index: together, the
 * condition on next_attempt_at is an OR the index cannot bound, and the emails waiting for a later
 * time would be walked past. The order is the index's own (for fresh instant ones, all NULL: the
 * index's order as it stands) and keeps the planner on it: without one, when the statistics see
 * most queued emails in the inbox, reading the whole table in another order and stopping at the
 * first match looks as cheap, and is not when the inbox's emails come late in that order.
 */
function dueOf(inbox: Prisma.Sql, pace: Pace, fresh: boolean, now: Prisma.Sql, columns: Prisma.Sql, limit: number): Prisma.Sql {
  const order =
    pace === "instant"
      ? Prisma.sql`e.next_attempt_at`
      : fresh
        ? Prisma.sql`e.created_at, e.sequence_position`
        : Prisma.sql`e.next_attempt_at, e.sequence_position`;
  return Prisma.sql`SELECT ${columns} FROM emails e LEFT JOIN broadcasts b ON b.id = e.broadcast_id
    WHERE e.inbox_id = ${inbox} AND ${pace === "paced" ? Prisma.sql`e.paced` : Prisma.sql`NOT e.paced`}
      AND ${fresh ? Prisma.sql`e.next_attempt_at IS NULL` : Prisma.sql`e.next_attempt_at <= ${now}`} AND ${dueAt(now)}
    ORDER BY ${order} LIMIT ${limit}`;
}

/**
 * Whether the inbox (`inbox`: an expression, such as a column of the outer query) has a due email
 * of this pace. Not EXISTS, which would drop the order that keeps each probe on its index.
 */
export const hasDueSql = (inbox: Prisma.Sql, pace: Pace, now: Prisma.Sql) =>
  Prisma.sql`COALESCE((${dueOf(inbox, pace, true, now, Prisma.sql`true`, 1)}), (${dueOf(inbox, pace, false, now, Prisma.sql`true`, 1)}), false)`;

/** Up to `limit` due instant emails of the inbox, in index order: sorting would read them all. */
export function instantEmailsSql(inboxId: string, now: Prisma.Sql, limit: number): Prisma.Sql {
  const inbox = Prisma.sql`${inboxId}::uuid`;
  return Prisma.sql`(${dueOf(inbox, "instant", true, now, Prisma.sql`e.id`, limit)})
    UNION ALL (${dueOf(inbox, "instant", false, now, Prisma.sql`e.id`, limit)})
    LIMIT ${limit}`;
}

/**
 * The inbox's next paced email, with its broadcast's speed: the one due longest, by its time
 * (creation, or the time it was retried or placed for), then its position in its sequence. The
 * first of each range, then the earlier of the two.
 */
export function nextPacedEmailSql(inboxId: string, now: Prisma.Sql): Prisma.Sql {
  const inbox = Prisma.sql`${inboxId}::uuid`;
  const first = (fresh: boolean) =>
    dueOf(
      inbox,
      "paced",
      fresh,
      now,
      Prisma.sql`e.id, b.sending_speed::text AS sending_speed, ${fresh ? Prisma.sql`e.created_at` : Prisma.sql`e.next_attempt_at`} AS at, e.sequence_position`,
      1,
    );
  return Prisma.sql`SELECT next.id, next.sending_speed FROM ((${first(true)}) UNION ALL (${first(false)})) next
    ORDER BY next.at, next.sequence_position LIMIT 1`;
}
