import { Prisma } from "@/lib/db";
import { anyDueSql, BROADCAST, rangeSql, sendingBroadcastsSql, type Queue } from "./queue-sources";

// What the claim reads of an inbox's queue, each through an index of its own kind of email
// (schema.prisma, the emails_inbox_* indexes), so that it costs what it returns. Read through the
// one queue index of the inbox, a backlog of 100 000 paced emails (an automation's runs woken at
// once, a sequence, a slow broadcast) was walked by every claim round to find the instant emails,
// none of them among it (1.5 s), and read whole and sorted for the next paced one (1.2 s): in the
// transaction that also serves every other organization and the relay (0.19 of another
// organization's broadcast rate alone, in the full `automations` benchmark). Within each index, the
// emails of no broadcast and each broadcast's are read apart (queue-sources.ts): a cancelled
// broadcast's are stepped over.

/** `instant`: transactional emails and `instant` broadcasts', as fast as the inbox's limits allow; `paced`: one per pacing gap. */
type Pace = "instant" | "paced";

/**
 * The inbox's queue indexes of one pace, with their ranges: instant emails fresh or by their time in
 * one index; paced ones fresh by creation in one, retried or placed ones by their time in another,
 * then by their position in their sequence.
 */
function queuesOf(inbox: Prisma.Sql, pace: Pace): Queue[] {
  const of = Prisma.sql`e.inbox_id = ${inbox} AND e.status = 'queued'`;
  const leading = Prisma.sql`e.inbox_id`;
  if (pace === "instant") {
    const order = Prisma.sql`e.next_attempt_at`;
    return [
      {
        held: Prisma.sql`${of} AND NOT e.paced`,
        leading,
        ranges: [
          { fresh: true, order },
          { fresh: false, order },
        ],
      },
    ];
  }
  return [
    {
      held: Prisma.sql`${of} AND e.paced AND e.next_attempt_at IS NULL`,
      leading,
      ranges: [{ fresh: true, order: Prisma.sql`e.created_at, e.sequence_position` }],
    },
    {
      held: Prisma.sql`${of} AND e.paced AND e.next_attempt_at IS NOT NULL`,
      leading,
      ranges: [{ fresh: false, order: Prisma.sql`e.next_attempt_at, e.sequence_position` }],
    },
  ];
}

/** Whether the inbox (`inbox`: an expression, such as a column of the outer query) has a due email of this pace. */
export const hasDueSql = (inbox: Prisma.Sql, pace: Pace, now: Prisma.Sql) =>
  Prisma.sql`COALESCE(${Prisma.join(queuesOf(inbox, pace).map((queue) => anyDueSql(queue, now)))}, false)`;

/**
 * Up to `limit` due instant emails of the inbox, in index order (sorting would read them all): the
 * emails of no broadcast (transactional ones, automations' at instant speed), then the sending
 * broadcasts', fresh ones before timed ones.
 */
export function instantEmailsSql(inboxId: string, now: Prisma.Sql, limit: number): Prisma.Sql {
  const [queue] = queuesOf(Prisma.sql`${inboxId}::uuid`, "instant");
  const ranges = (broadcast: Prisma.Sql | null) =>
    Prisma.join(
      queue.ranges.map((range) => Prisma.sql`(${rangeSql(queue, range, broadcast, now, Prisma.sql`e.id`, limit)})`),
      " UNION ALL ",
    );
  return Prisma.sql`SELECT due.id FROM (
      (${ranges(null)})
      UNION ALL (SELECT x.id FROM (${sendingBroadcastsSql(queue)}) s CROSS JOIN LATERAL (${ranges(BROADCAST)}) x)
    ) due LIMIT ${limit}`;
}

/**
 * The inbox's next paced email, with its broadcast's speed: the one due longest, by its time
 * (creation, or the time it was retried or placed for), then its position in its sequence. The
 * first of each range (of no broadcast, and of each sending broadcast), then the earliest of them.
 */
export function nextPacedEmailSql(inboxId: string, now: Prisma.Sql): Prisma.Sql {
  const firsts = queuesOf(Prisma.sql`${inboxId}::uuid`, "paced").flatMap((queue) =>
    queue.ranges.flatMap((range) => {
      const first = (broadcast: Prisma.Sql | null, speed: Prisma.Sql) =>
        rangeSql(
          queue,
          range,
          broadcast,
          now,
          Prisma.sql`e.id, ${speed} AS sending_speed, ${range.fresh ? Prisma.sql`e.created_at` : Prisma.sql`e.next_attempt_at`} AS at, e.sequence_position`,
          1,
        );
      return [
        Prisma.sql`(${first(null, Prisma.sql`NULL::text`)})`,
        Prisma.sql`(SELECT x.* FROM (${sendingBroadcastsSql(queue)}) s CROSS JOIN LATERAL (${first(BROADCAST, Prisma.sql`s.sending_speed::text`)}) x)`,
      ];
    }),
  );
  return Prisma.sql`SELECT next.id, next.sending_speed FROM (${Prisma.join(firsts, " UNION ALL ")}) next
    ORDER BY next.at, next.sequence_position LIMIT 1`;
}
