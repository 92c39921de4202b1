import { Prisma } from "@/lib/db";
import { engineDb } from "./engine-db";

// A cancel commits the broadcast's status at once and leaves its queued and scheduled emails to be
// cancelled here, in batches of their own transactions. One UPDATE of a million emails took about
// 20 s with the broadcast's row locked all along: every open, click and delivery report of that
// broadcast (each adds to its counters) waited behind it. Nothing of the broadcast is sent
// meanwhile: the claim takes only a sending broadcast's emails, and a batch claimed just before the
// cancel is given back by the sender (prepare-batch.ts, stop signals).

/**
 * Emails one batch of the sweep cancels. A status is in the queue indexes, so each cancelled row is
 * a new entry in every index of `emails` (about 0.2 ms a row on a loaded 2-core machine, as in the
 * one UPDATE of old): a batch of 1 000 holds its rows for a few hundred milliseconds at most, which
 * is all an outcome writer meeting one of them (a claimed email's result) ever waits.
 */
const CANCEL_BATCH = 1000;

/** Emails the cancel's own request cancels before it answers: all of a small broadcast's, in tens of milliseconds. */
export const REQUEST_BATCH = 100;

/** In the cancel's transaction: the broadcast's emails are to be cancelled, batch by batch. */
export async function queueEmailCancellation(tx: Prisma.TransactionClient, organizationId: string, broadcastId: string): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO broadcast_cancellations (broadcast_id, organization_id) VALUES (${broadcastId}::uuid, ${organizationId}::uuid)
    ON CONFLICT (broadcast_id) DO NOTHING`;
}

/**
 * One batch: takes a cancellation no one else is working on (the given broadcast's, or the oldest),
 * cancels up to `batchSize` of its queued and scheduled emails, and ends the cancellation once none
 * is left. Rows another transaction holds (an outcome being written) are skipped, not waited for:
 * a later batch takes them. Answers how many emails it cancelled.
 */
export async function cancelEmailBatch(options: { broadcastId?: string; batchSize?: number } = {}): Promise<number> {
  const batchSize = options.batchSize ?? CANCEL_BATCH;
  const only = options.broadcastId ? Prisma.sql`WHERE broadcast_id = ${options.broadcastId}::uuid` : Prisma.empty;
  return engineDb().$transaction(
    async (tx) => {
      const [job] = await tx.$queryRaw<{ broadcast_id: string; organization_id: string }[]>`
        SELECT broadcast_id, organization_id FROM broadcast_cancellations ${only}
        ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED`;
      if (!job) return 0;
      // Joined on the primary key: as `id IN (…)`, the planner read the whole table to match a thousand ids.
      const cancelled = await tx.$executeRaw`
        UPDATE emails e SET status = 'cancelled', last_error = 'The broadcast was cancelled', updated_at = now()
        FROM (
          SELECT id FROM emails
          WHERE broadcast_id = ${job.broadcast_id}::uuid AND organization_id = ${job.organization_id}::uuid AND status IN ('queued', 'scheduled')
          LIMIT ${batchSize} FOR UPDATE SKIP LOCKED) picked
        WHERE e.id = picked.id AND e.status IN ('queued', 'scheduled')`;
      if (cancelled < batchSize) {
        const [left] = await tx.$queryRaw<{ left: boolean }[]>`
          SELECT EXISTS (SELECT 1 FROM emails WHERE broadcast_id = ${job.broadcast_id}::uuid
            AND organization_id = ${job.organization_id}::uuid AND status IN ('queued', 'scheduled')) AS left`;
        if (!left.left) await tx.$executeRaw`DELETE FROM broadcast_cancellations WHERE broadcast_id = ${job.broadcast_id}::uuid`;
      }
      return cancelled;
    },
    { timeout: 60_000, maxWait: 10_000 },
  );
}
