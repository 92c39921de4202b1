// Moves an automation's clock for the e2e walk: the runs of a contact waiting in a wait are due now,
// as if the day had passed (the e2e server runs on the real clock, and nobody waits a day in a test;
// unit tests move the engine's own clock instead). `npx tsx e2e/seed-automation-time.ts <contact id>`.
import { db } from "@/lib/db";

async function main() {
  const contactId = process.argv[2];
  if (!contactId) throw new Error("usage: tsx e2e/seed-automation-time.ts <contact id>");
  const { count } = await db.automationRun.updateMany({ where: { contact_id: contactId, status: "waiting" }, data: { next_run_at: new Date() } });
  console.log(JSON.stringify({ due: count }));
}

await main();
await db.$disconnect();
