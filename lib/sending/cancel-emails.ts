import { Prisma } from "@/lib/db";
import { atDuty } from "@/lib/domain/duty-cycle";
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

/**
 * The sweep's batches take at most this share of the time. Nothing of a cancelled broadcast is sent
 * whether its emails are swept or not (the claim steps over them), so the sweep yields to sending:
 * run back to back, its batches slowed another organization's send beside it to 0.73 of its rate
 * (bench cancel-large, quick, load 3); a half still sweeps 50 000 emails in about 10 s there.
 */
const SWEEP_DUTY = 0.5;

/** In the cancel's transaction: the broadcast's emails are to be cancelled, batch by batch. */
export async function queueEmailCancellation(tx: Prisma.TransactionClient, organizationId: string, broadcastId: string): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO broadcast_cancellations (broadcast_id, organization_id) VALUES (${broadcastId}::uuid, ${organizationId}::uuid)
    ON CONFLICT (broadcast_id) DO NOTHING`;
}

type Cancellation = { broadcast_id: string; organization_id: string };

const stillToSend = (job: Cancellation) =>
  Prisma.sql`broadcast_id = ${job.broadcast_id}::uuid AND organization_id = ${job.organization_id}::uuid AND status IN ('queued', 'scheduled')`;

/**
 * Up to `batchSize` of the cancellation's emails still to send, cancelled: picked through the
 * broadcast's queue index, then updated by primary key (an array, so each is one lookup; joined or
 * as `id IN (…)`, the planner hashed or merged the whole table).
 */
export const cancelBatchSql = (job: Cancellation, batchSize: number) => Prisma.sql`
  UPDATE emails SET status = 'cancelled', last_error = 'The broadcast was cancelled', updated_at = now()
  WHERE id = ANY(ARRAY(SELECT id FROM emails WHERE ${stillToSend(job)} LIMIT ${batchSize} FOR UPDATE SKIP LOCKED))
    AND status IN ('queued', 'scheduled')`;

/** Whether any of the cancellation's emails is still to send. */
export const emailsLeftSql = (job: Cancellation) => Prisma.sql`SELECT EXISTS (SELECT 1 FROM emails WHERE ${stillToSend(job)}) AS left`;

/**
 * A batch reads the emails it cancels, and only those. The broadcast's emails are most of what the
 * planner's statistics see queued (a million of them), so a sequential scan stopping at the batch's
 * size looked cheap: it read from the table's start every batch, past all the emails the batches
 * before had cancelled (the sweep grew quadratic, and the request's batch read the whole table when
 * the broadcast's emails were at its end). A bitmap scan cannot stop at the batch's size either: it
 * collects every queued email of the broadcast first. Index scans stop, and skip the entries of
 * the emails already cancelled.
 */
export async function readThroughIndexes(tx: Prisma.TransactionClient): Promise<void> {
  await tx.$executeRaw`SET LOCAL enable_seqscan = off`;
  await tx.$executeRaw`SET LOCAL enable_bitmapscan = off`;
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
      const [job] = await tx.$queryRaw<Cancellation[]>`
        SELECT broadcast_id, organization_id FROM broadcast_cancellations ${only}
        ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED`;
      if (!job) return 0;
      await readThroughIndexes(tx);
      const cancelled = await tx.$executeRaw(cancelBatchSql(job, batchSize));
      if (cancelled < batchSize) {
        const [left] = await tx.$queryRaw<{ left: boolean }[]>(emailsLeftSql(job));
        if (!left.left) await tx.$executeRaw`DELETE FROM broadcast_cancellations WHERE broadcast_id = ${job.broadcast_id}::uuid`;
      }
      return cancelled;
    },
    { timeout: 60_000, maxWait: 10_000 },
  );
}

/** The worker's round of the sweep: a batch, then as long a rest (SWEEP_DUTY) when it cancelled something. */
export const pacedCancelRound = (): Promise<number> => atDuty(() => cancelEmailBatch(), SWEEP_DUTY);
