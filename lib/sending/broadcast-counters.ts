import type { Prisma } from "@/lib/db";
import { engineDb } from "./engine-db";

type Client = Prisma.TransactionClient | ReturnType<typeof engineDb>;

/**
 * Adds the sent and bounced counts recorded since (broadcast_counter_deltas) to their broadcasts'
 * counters. A broadcast whose row another transaction holds (a fan-out chunk ending, a pause) is
 * skipped, never waited for: its deltas stay for the next fold. Without ids, every broadcast with
 * deltas. Answers how many broadcasts changed.
 */
export async function foldBroadcastCounters(broadcastIds?: string[], client: Client = engineDb()): Promise<number> {
  if (broadcastIds && broadcastIds.length === 0) return 0;
  const candidates = broadcastIds
    ? client.$queryRaw<{ id: string }[]>`SELECT unnest(${broadcastIds}::uuid[]) AS id`
    : client.$queryRaw<{ id: string }[]>`SELECT DISTINCT broadcast_id AS id FROM broadcast_counter_deltas LIMIT 1000`;
  const ids = (await candidates).map((row) => row.id);
  if (ids.length === 0) return 0;
  return client.$executeRaw`
    WITH locked AS (
      SELECT id FROM broadcasts WHERE id = ANY(${ids}::uuid[]) FOR NO KEY UPDATE SKIP LOCKED
    ),
    moved AS (
      DELETE FROM broadcast_counter_deltas d USING locked WHERE d.broadcast_id = locked.id
      RETURNING d.broadcast_id, d.sent_count, d.bounced_count
    ),
    sums AS (
      SELECT broadcast_id, sum(sent_count)::int AS sent, sum(bounced_count)::int AS bounced FROM moved GROUP BY broadcast_id
    )
    UPDATE broadcasts b SET sent_count = b.sent_count + sums.sent, bounced_count = b.bounced_count + sums.bounced
    FROM sums WHERE b.id = sums.broadcast_id`;
}

/** Deltas of broadcasts deleted since: nothing will fold them. */
export async function dropOrphanCounterDeltas(client: Client = engineDb()): Promise<number> {
  return client.$executeRaw`
    DELETE FROM broadcast_counter_deltas d WHERE NOT EXISTS (SELECT 1 FROM broadcasts b WHERE b.id = d.broadcast_id)
      AND d.created_at < now() - interval '1 minute'`;
}
