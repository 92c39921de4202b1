import type { Broadcast } from "@/lib/generated/prisma/client";
import { Prisma } from "@/lib/db";
import { emitEvent } from "@/lib/webhooks/emit-event";
import { foldBroadcastCounters } from "./broadcast-counters";
import { engineDb } from "./engine-db";

type Finished = Pick<Broadcast, "id" | "organization_id" | "name" | "total_recipients" | "sent_count" | "bounced_count"> & {
  status: "sent" | "failed";
  completed_at: Date;
};

// A sending broadcast is finished when its fan-out is complete, none of its emails is queued,
// scheduled or sending, and every sequence step has been dispatched (`sequence_steps.dispatched_at`).
const FINISHED = Prisma.sql`b.status = 'sending' AND b.fanned_out_at IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM emails e WHERE e.broadcast_id = b.id AND e.status IN ('queued', 'scheduled', 'sending'))
  AND NOT EXISTS (SELECT 1 FROM sequence_steps s WHERE s.broadcast_id = b.id AND s.dispatched_at IS NULL)`;

/**
 * Finished broadcasts become `sent` — or `failed` when emails failed and not one went out — and
 * `broadcast.sent` is emitted in the same transaction. Without ids every sending broadcast is
 * checked. Answers how many finished.
 */
export async function completeFinishedBroadcasts(broadcastIds?: string[]): Promise<number> {
  return (await complete(broadcastIds)).finished;
}

/**
 * The same for the broadcasts a sender has just recorded outcomes of; answers those that were
 * finished but whose row another transaction held (an open or a click being counted, the counters'
 * fold), for the sender to come back to: waiting there would hold up its outcomes, and leaving them
 * to the housekeeping kept a finished broadcast `sending` for up to its 10 s interval.
 */
export async function completeTouchedBroadcasts(broadcastIds: string[]): Promise<string[]> {
  return (await complete(broadcastIds)).locked;
}

async function complete(broadcastIds?: string[]): Promise<{ finished: number; locked: string[] }> {
  if (broadcastIds && broadcastIds.length === 0) return { finished: 0, locked: [] };
  const only = broadcastIds ? Prisma.sql`AND b.id = ANY(${broadcastIds}::uuid[])` : Prisma.empty;
  return engineDb().$transaction(
    async (tx) => {
      // Which are finished, read without locking: while a broadcast is still sending (most rounds) this one
      // query is all. Those are then locked and checked again; the ones another transaction held are skipped.
      const candidates = (await tx.$queryRaw<{ id: string }[]>`SELECT b.id FROM broadcasts b WHERE ${FINISHED} ${only}`).map((row) => row.id);
      if (candidates.length === 0) return { finished: 0, locked: [] };
      const done = await tx.$queryRaw<{ id: string }[]>`
      SELECT b.id FROM broadcasts b WHERE b.id = ANY(${candidates}::uuid[]) AND ${FINISHED}
      FOR UPDATE OF b SKIP LOCKED`;
      const locked = candidates.filter((id) => !done.some((row) => row.id === id));
      if (done.length === 0) return { finished: 0, locked };
      const ids = done.map((row) => row.id);
      // The final counts, for the status and the event: every delta recorded so far.
      await foldBroadcastCounters(ids, tx);
      const finished = await tx.$queryRaw<Finished[]>`
      WITH done AS (
        SELECT b.id,
          (b.sent_count = 0 AND b.bounced_count = 0
            AND EXISTS (SELECT 1 FROM emails f WHERE f.broadcast_id = b.id AND f.status = 'failed')) AS all_failed,
          (SELECT f.last_error FROM emails f WHERE f.broadcast_id = b.id AND f.status = 'failed' ORDER BY f.updated_at DESC LIMIT 1) AS last_error
        FROM broadcasts b WHERE b.id = ANY(${ids}::uuid[])
      )
      UPDATE broadcasts b SET
        status = CASE WHEN done.all_failed THEN 'failed'::"BroadcastStatus" ELSE 'sent'::"BroadcastStatus" END,
        failure_reason = CASE WHEN done.all_failed THEN 'No email could be sent: ' || COALESCE(done.last_error, 'unknown error') ELSE NULL END,
        completed_at = now(), updated_at = now()
      FROM done WHERE b.id = done.id
      RETURNING b.id, b.organization_id, b.name, b.status::text AS status, b.total_recipients, b.sent_count, b.bounced_count, b.completed_at`;
      for (const b of finished.filter((row) => row.status === "sent")) {
        await emitEvent(tx, {
          organizationId: b.organization_id,
          type: "broadcast.sent",
          source: "broadcasts",
          data: {
            broadcast_id: b.id,
            name: b.name,
            total_recipients: b.total_recipients,
            sent_count: b.sent_count,
            bounced_count: b.bounced_count,
            completed_at: b.completed_at.toISOString(),
          },
        });
      }
      return { finished: finished.length, locked };
    },
    { timeout: 30_000, maxWait: 30_000 },
  );
}
