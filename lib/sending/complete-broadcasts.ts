import type { Broadcast } from "@/lib/generated/prisma/client";
import { Prisma } from "@/lib/db";
import { emitEvent } from "@/lib/webhooks/emit-event";
import { foldBroadcastCounters } from "./broadcast-counters";
import { engineDb } from "./engine-db";

type Finished = Pick<Broadcast, "id" | "organization_id" | "name" | "total_recipients" | "sent_count" | "bounced_count"> & {
  status: "sent" | "failed";
  completed_at: Date;
};

/**
 * A sending broadcast is finished when its fan-out is complete, none of its emails is queued,
 * scheduled or sending, and every sequence step has been dispatched (`sequence_steps.dispatched_at`). It becomes `sent` — or
 * `failed` when emails failed and not one went out — and `broadcast.sent` is emitted in the same
 * transaction. Without ids every sending broadcast is checked. Answers how many finished.
 */
export async function completeFinishedBroadcasts(broadcastIds?: string[]): Promise<number> {
  if (broadcastIds && broadcastIds.length === 0) return 0;
  const only = broadcastIds ? Prisma.sql`AND b.id = ANY(${broadcastIds}::uuid[])` : Prisma.empty;
  return engineDb().$transaction(
    async (tx) => {
      const done = await tx.$queryRaw<{ id: string }[]>`
      SELECT b.id FROM broadcasts b
      WHERE b.status = 'sending' AND b.fanned_out_at IS NOT NULL ${only}
        AND NOT EXISTS (SELECT 1 FROM emails e WHERE e.broadcast_id = b.id AND e.status IN ('queued', 'scheduled', 'sending'))
        AND NOT EXISTS (SELECT 1 FROM sequence_steps s WHERE s.broadcast_id = b.id AND s.dispatched_at IS NULL)
      FOR UPDATE OF b SKIP LOCKED`;
      if (done.length === 0) return 0;
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
      return finished.length;
    },
    { timeout: 30_000, maxWait: 30_000 },
  );
}
