import { Prisma } from "@/lib/db";
import { pickWinner, type VariantTally } from "@/lib/domain/ab-test";
import { denominatorSql } from "@/lib/domain/report-denominators";
import type { AbState } from "./ab-split";

type Decided = { id: string; organization_id: string } & AbState;

const TRACKED = denominatorSql("e.");

/**
 * Each variant's test recipients, those that could show an open or a click (the report's
 * denominators), and how many of them people opened or clicked (machines' opens set neither).
 */
async function tallies(tx: Prisma.TransactionClient, b: Decided): Promise<VariantTally[]> {
  return tx.$queryRaw<VariantTally[]>`
    SELECT e.variant_index::int AS index, count(*)::int AS recipients,
      count(*) FILTER (WHERE ${Prisma.raw(TRACKED.opens)})::int AS open_tracked,
      count(*) FILTER (WHERE ${Prisma.raw(TRACKED.clicks)})::int AS click_tracked,
      count(*) FILTER (WHERE e.opened_at IS NOT NULL)::int AS unique_opened,
      count(*) FILTER (WHERE e.clicked_at IS NOT NULL)::int AS unique_clicked
    FROM emails e
    WHERE e.broadcast_id = ${b.id}::uuid AND e.organization_id = ${b.organization_id}::uuid
      AND e.sequence_position = 0 AND e.variant_index IS NOT NULL
    GROUP BY e.variant_index`;
}

/** `wait_minutes` after `from`: when the test share is written, the earliest the winner can be chosen. */
export const decideAt = (b: AbState, from: Date) => new Date(from.getTime() + (b.ab_test?.wait_minutes ?? 0) * 60_000);

// How soon a decision whose test share is not all out yet looks again.
const RECHECK_MS = 60_000;

/**
 * When the winner may be chosen: `wait_minutes` after the test share's last email was sent, not
 * after it was written. A share held back (a sending window's next opening, an inbox's daily limit,
 * a pause) gets its whole wait once it is out: counted from the writing, a share written at 22:00
 * under a 9-to-17 window was judged at 23:00 on nobody's opens, and everyone got the first variant.
 * An email not tried yet keeps the decision waiting (looked at again each minute); one waiting for
 * a retry does not, since a greylisting server can hold it for hours.
 */
async function decisionDue(tx: Prisma.TransactionClient, b: Decided, now: Date): Promise<Date> {
  const [share] = await tx.$queryRaw<{ unsent: number; last_sent: Date | null }[]>`
    SELECT count(*) FILTER (WHERE e.status IN ('queued', 'scheduled') AND e.attempts = 0)::int AS unsent, max(e.sent_at) AS last_sent
    FROM emails e
    WHERE e.broadcast_id = ${b.id}::uuid AND e.organization_id = ${b.organization_id}::uuid
      AND e.sequence_position = 0 AND e.variant_index IS NOT NULL`;
  if (share.unsent > 0) return new Date(now.getTime() + RECHECK_MS);
  return share.last_sent ? decideAt(b, share.last_sent) : now;
}

/**
 * Chooses the winner once the test share has had its wait (decisionDue), by people's unique opens or
 * clicks over the emails that could show them, and records it (`ab_winner_index IS NULL` in the
 * statement: the first decision stands). Answers the winner, or when to look again. Called under
 * the fan-out's lock, in its transaction.
 */
export async function decideWinner(tx: Prisma.TransactionClient, b: Decided, now: Date): Promise<{ winner: number } | { until: Date }> {
  const due = await decisionDue(tx, b, now);
  if (due.getTime() > now.getTime()) {
    await tx.$executeRaw`
      UPDATE broadcasts SET ab_decide_at = ${due}, updated_at = now()
      WHERE id = ${b.id}::uuid AND organization_id = ${b.organization_id}::uuid AND ab_winner_index IS NULL`;
    return { until: due };
  }
  const winner = pickWinner(await tallies(tx, b), b.ab_test!.metric, b.variants!.length);
  await tx.$executeRaw`
    UPDATE broadcasts SET ab_winner_index = ${winner}::int, ab_decided_at = ${now}, updated_at = now()
    WHERE id = ${b.id}::uuid AND organization_id = ${b.organization_id}::uuid AND ab_winner_index IS NULL`;
  return { winner };
}
