// The A/B test's clock, moved on: its winner is due now. The worker's housekeeping then chooses it
// within a round (10 s) instead of after the test's real wait. `npx tsx e2e/seed-ab-decide.ts <broadcast id>`.
import { db } from "@/lib/db";

async function main() {
  const id = process.argv[2];
  if (!id) throw new Error("usage: tsx e2e/seed-ab-decide.ts <broadcast id>");
  const moved = await db.$executeRaw`
    UPDATE broadcasts SET ab_decide_at = now() - interval '1 second' WHERE id = ${id}::uuid AND ab_decide_at IS NOT NULL AND ab_winner_index IS NULL`;
  console.log(JSON.stringify({ moved }));
  await db.$disconnect();
}

void main();
