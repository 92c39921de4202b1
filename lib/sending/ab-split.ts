import { Prisma } from "@/lib/db";
import { audienceCondition, resendOfBroadcast } from "@/lib/audience/reachable";
import { decideWinner } from "./ab-decision";
import type { AbTestSettings, BroadcastVariant } from "@/lib/schemas/broadcasts";

/** The A/B columns of a broadcast as the fan-out reads them (cutoffs as text: bigint parameters travel as text). */
export type AbState = {
  variants: BroadcastVariant[] | null;
  ab_test: AbTestSettings | null;
  ab_cutoffs: string[];
  ab_decide_at: Date | null;
  ab_winner_index: number | null;
};

export const abColumns = Prisma.sql`variants, ab_test, ab_cutoffs::text[] AS ab_cutoffs, ab_decide_at, ab_winner_index`;

type Tested = { id: string; organization_id: string; segment_id: string; topic_id: string | null; subject: string } & AbState &
  Parameters<typeof resendOfBroadcast>[0];

/**
 * Where an A/B broadcast's fan-out stands. `test`: the test share is being written (each contact's
 * variant fixed by the stored cutoffs); `waiting`: it is out, the winner is chosen at `until`;
 * `rest`: the winner is chosen and everyone else gets it; `empty`: nobody to test on.
 */
export type AbPhase =
  | { kind: "none" }
  | { kind: "test"; cutoffs: string[]; subjects: string[] }
  | { kind: "waiting"; until: Date }
  | { kind: "rest"; winner: number; subjects: string[] }
  | { kind: "empty" };

/**
 * What a fan-out chunk writes for the audience's candidates: their draw (`hash`, on contact `c`),
 * which of them (`only`, on candidate `k`), with which variant (on recipient `r`) and subject.
 */
export type Split = { hash: Prisma.Sql; only: Prisma.Sql; variant: Prisma.Sql; subject: (variant: Prisma.Sql) => Prisma.Sql };

export const noSplit = (subject: string): Split => ({
  hash: Prisma.sql`NULL::bigint`,
  only: Prisma.empty,
  variant: Prisma.sql`NULL::smallint`,
  subject: () => Prisma.sql`${subject}::text`,
});

/**
 * A contact's draw for the test: a 64-bit hash of the broadcast and the contact. Random across
 * contacts and broadcasts, the same every time it is computed, so a fan-out that restarts after a
 * crash puts each contact in the same variant (and the row it wrote records it anyway).
 */
const contactHash = (broadcastId: string, contactId: Prisma.Sql) => Prisma.sql`hashtextextended(${broadcastId}::text || ${contactId}::text, 0)`;

const subjectOf = (subjects: string[]) => (variant: Prisma.Sql) => Prisma.sql`(${subjects}::text[])[${variant} + 1]`;

export function splitOf(b: { id: string; subject: string }, phase: AbPhase): Split {
  if (phase.kind === "test") {
    const last = phase.cutoffs[phase.cutoffs.length - 1];
    return {
      hash: contactHash(b.id, Prisma.sql`c.id`),
      // Below or at the last cutoff: in the test share; the variant is the first cutoff at or above the draw.
      only: Prisma.sql`AND k.h <= ${last}::bigint`,
      variant: Prisma.sql`(SELECT (min(u.i) - 1)::smallint FROM unnest(${phase.cutoffs}::text[]::bigint[]) WITH ORDINALITY AS u(cut, i) WHERE r.h <= u.cut)`,
      subject: subjectOf(phase.subjects),
    };
  }
  if (phase.kind === "rest") {
    return { ...noSplit(b.subject), subject: () => Prisma.sql`${phase.subjects[phase.winner] ?? b.subject}::text` };
  }
  return noSplit(b.subject);
}

// Below every draw: a variant whose share is empty (fewer contacts than variants) gets this cutoff.
const BELOW_ALL = "-9223372036854775808";

/**
 * The test's split, computed once when the test starts: of the `n` reachable contacts, `test_percent`
 * (at least one per variant, at most all) are the test share — those with the lowest draws — cut in
 * as many equal runs as there are variants. Stored as each run's highest draw, so every chunk of the
 * fan-out, and a fan-out resumed after a crash, assigns the same contacts to the same variants.
 */
async function computeCutoffs(tx: Prisma.TransactionClient, b: Tested): Promise<string[] | null> {
  const audience = await audienceCondition(tx, {
    organizationId: b.organization_id,
    segmentId: b.segment_id,
    topicId: b.topic_id,
    resendOf: resendOfBroadcast(b),
  });
  const [{ n }] = await tx.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM contacts c WHERE ${audience}`;
  if (n === 0) return null;
  const k = b.variants!.length;
  const share = Math.min(n, Math.max(k, Math.round((n * b.ab_test!.test_percent) / 100)));
  // The 0-based rank of each variant's last contact: runs whose sizes differ by one at most.
  const ranks = Array.from({ length: k }, (_, i) => Math.floor(((i + 1) * share) / k) - 1);
  const rows = await tx.$queryRaw<{ r: number; h: string }[]>`
    SELECT r::int, h::text FROM (
      SELECT h, row_number() OVER (ORDER BY h) - 1 AS r
      FROM (SELECT ${contactHash(b.id, Prisma.sql`c.id`)} AS h FROM contacts c WHERE ${audience} ORDER BY 1 LIMIT ${share}) drawn
    ) ranked
    WHERE r = ANY(${ranks}::int[])`;
  const byRank = new Map(rows.map((row) => [row.r, row.h]));
  return ranks.map((rank) => byRank.get(rank) ?? BELOW_ALL);
}

/**
 * Where the A/B broadcast's fan-out stands at `now`, moving it on when it is time: the split is
 * fixed when the test starts, the winner chosen once `ab_decide_at` has passed. Runs under the
 * fan-out's lock, in its transaction, so the split and the winner are each decided exactly once.
 */
export async function abPhase(tx: Prisma.TransactionClient, b: Tested, now: Date): Promise<AbPhase> {
  if (!b.ab_test || !Array.isArray(b.variants) || b.variants.length === 0) return { kind: "none" };
  const subjects = b.variants.map((variant) => variant.subject);
  if (b.ab_winner_index !== null) return { kind: "rest", winner: b.ab_winner_index, subjects };
  if (b.ab_decide_at) {
    if (b.ab_decide_at.getTime() > now.getTime()) return { kind: "waiting", until: b.ab_decide_at };
    const decision = await decideWinner(tx, b, now);
    if ("until" in decision) return { kind: "waiting", until: decision.until };
    return { kind: "rest", winner: decision.winner, subjects };
  }
  if (b.ab_cutoffs.length > 0) return { kind: "test", cutoffs: b.ab_cutoffs, subjects };
  const cutoffs = await computeCutoffs(tx, b);
  if (!cutoffs) return { kind: "empty" };
  await tx.$executeRaw`
    UPDATE broadcasts SET ab_cutoffs = ${cutoffs}::text[]::bigint[], updated_at = now()
    WHERE id = ${b.id}::uuid AND organization_id = ${b.organization_id}::uuid`;
  return { kind: "test", cutoffs, subjects };
}

/** Content to send: the broadcast's own or its template's, or every variant's own. */
export const hasContent = (b: { template_id: string | null; html_content: string | null; text_content: string | null } & Pick<AbState, "variants">) =>
  Boolean(b.template_id || b.html_content || b.text_content) ||
  (Array.isArray(b.variants) && b.variants.length > 0 && b.variants.every((variant) => variant.html_content || variant.text_content));
