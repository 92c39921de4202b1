import { Prisma } from "@/lib/db";
import { startRunsSql } from "./start-runs";

/** The keys of a dispatch's events (lib/events/consumer.ts: EventBatch), or some of them. */
type BatchKeys = { organizationIds: string[]; eventIds: string[] };

/** The batch's events joined to their rows: `e`, for set-based statements over a dispatch. */
const batchEvents = (batch: BatchKeys) => Prisma.sql`
  unnest(${batch.organizationIds}::uuid[], ${batch.eventIds}::uuid[]) AS b(organization_id, event_id)
  JOIN events e ON e.organization_id = b.organization_id AND e.id = b.event_id`;

/**
 * `wait_for_event`: a contact's runs waiting for an event of this name are due now, their wait
 * ended on the event. Only an event recorded after the run began to wait counts (both times are the
 * database's: `wait_since` is written by the engine's statement). One statement for the batch.
 */
export async function wakeWaitingRuns(tx: Prisma.TransactionClient, batch: BatchKeys): Promise<number> {
  return tx.$executeRaw`
    UPDATE automation_runs r SET wait_result = 'event', wait_event = NULL, next_run_at = LEAST(r.next_run_at, now()), updated_at = now()
    FROM ${batchEvents(batch)}
    WHERE r.organization_id = e.organization_id AND r.contact_id = e.contact_id AND r.status = 'waiting'
      AND r.wait_event = e.name AND e.created_at >= r.wait_since`;
}

/**
 * `event` triggers: each event of a contact starts the active automations of its organization
 * whose trigger names it and whose `where` it matches — its broadcast, its automation, and each
 * property named equal (JSON containment: `{"plan": "pro"}` is in `{"plan": "pro", "seats": 3}`).
 * Found through the (organization_id, trigger_event) index of active automations; the runs start
 * in the same statement. Answers how many started.
 */
export async function startEventRuns(tx: Prisma.TransactionClient, batch: BatchKeys): Promise<number> {
  const candidates = `SELECT a.id AS automation_id, e.contact_id, e.id AS event_id
    FROM unnest($1::uuid[], $2::uuid[]) AS b(organization_id, event_id)
    JOIN events e ON e.organization_id = b.organization_id AND e.id = b.event_id
    JOIN automations a ON a.organization_id = e.organization_id AND a.trigger_event = e.name AND a.status = 'active'
    WHERE e.contact_id IS NOT NULL
      AND (a.trigger -> 'where' ->> 'broadcast_id' IS NULL OR lower(a.trigger -> 'where' ->> 'broadcast_id') = e.broadcast_id::text)
      AND (a.trigger -> 'where' ->> 'automation_id' IS NULL OR lower(a.trigger -> 'where' ->> 'automation_id') = e.automation_id::text)
      AND (a.trigger -> 'where' -> 'properties' IS NULL OR e.properties @> (a.trigger -> 'where' -> 'properties'))`;
  const [{ started }] = await tx.$queryRawUnsafe<{ started: number }[]>(
    `WITH ${startRunsSql(candidates)} SELECT count(*)::int AS started FROM started`,
    batch.organizationIds,
    batch.eventIds,
  );
  return started;
}
