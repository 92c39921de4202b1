// The A/B test's clock, moved on: its test share went out `wait_minutes` ago, so its winner is due
// now. The worker's housekeeping then chooses it within a round (10 s) instead of after the test's
// real wait. `npx tsx e2e/seed-ab-decide.ts <broadcast id>`.
import { db } from "@/lib/db";

async function main() {
  const id = process.argv[2];
  if (!id) throw new Error("usage: tsx e2e/seed-ab-decide.ts <broadcast id>");
  const [{ moved }] = await db.$queryRaw<{ moved: number }[]>`
    WITH b AS (
      SELECT id, make_interval(mins => (ab_test->>'wait_minutes')::int) AS wait FROM broadcasts
      WHERE id = ${id}::uuid AND ab_decide_at IS NOT NULL AND ab_winner_index IS NULL
    ),
    sent AS (
      UPDATE emails e SET sent_at = e.sent_at - b.wait - interval '1 second' FROM b
      WHERE e.broadcast_id = b.id AND e.variant_index IS NOT NULL AND e.sent_at IS NOT NULL
    ),
    due AS (UPDATE broadcasts SET ab_decide_at = now() - interval '1 second' WHERE id IN (SELECT id FROM b) RETURNING 1)
    SELECT count(*)::int AS moved FROM due`;
  console.log(JSON.stringify({ moved }));
  await db.$disconnect();
}

void main();
