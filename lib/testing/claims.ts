import type { PrismaClient } from "@/lib/generated/prisma/client";

/**
 * Emails of a broadcast a worker holds right now: a claim is a row of `email_claims` while the
 * email itself stays `queued` (lib/sending/leases.ts), so no email status says so.
 */
export async function claimedEmails(db: PrismaClient, broadcastId: string): Promise<number> {
  const [{ n }] = await db.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM email_claims c JOIN emails e ON e.id = c.email_id WHERE e.broadcast_id = ${broadcastId}::uuid`;
  return n;
}
