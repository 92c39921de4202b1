import type { Prisma } from "@/lib/db";

export type Entry = { automationId: string; contactId: string; eventId?: string | null };

/**
 * Starts a run for each entry whose automation is active and whose contact may enter: subscribed
 * and not suppressed (one who may not is already out, as a run's exit checks would say), with no
 * run in progress in it (the partial unique key decides between two triggers at once) and — with
 * `reentry: never` — no run ever before. The run takes its first step at once (the engine's next
 * round). Answers the ids of the runs started. Set-based: one statement for any number of entries.
 */
export async function startRuns(tx: Prisma.TransactionClient, organizationId: string, entries: Entry[], now: Date): Promise<string[]> {
  if (entries.length === 0) return [];
  const rows = await tx.$queryRaw<{ id: string }[]>`
    INSERT INTO automation_runs (organization_id, automation_id, contact_id, status, current_step_id, next_run_at, trigger_event_id, created_at, updated_at)
    SELECT a.organization_id, a.id, c.id, 'active', (a.steps -> 0 ->> 'id')::uuid, ${now}::timestamptz, x.event_id, ${now}::timestamptz, now()
    FROM unnest(${entries.map((e) => e.automationId)}::uuid[], ${entries.map((e) => e.contactId)}::uuid[], ${entries.map((e) => e.eventId ?? null)}::uuid[])
      AS x(automation_id, contact_id, event_id)
    JOIN automations a ON a.id = x.automation_id AND a.organization_id = ${organizationId}::uuid AND a.status = 'active'
    JOIN contacts c ON c.id = x.contact_id AND c.organization_id = ${organizationId}::uuid AND c.subscribed
    WHERE NOT EXISTS (SELECT 1 FROM suppressions s WHERE s.organization_id = ${organizationId}::uuid AND s.email = lower(c.email))
      AND (a.reentry = 'after_exit' OR NOT EXISTS (SELECT 1 FROM automation_runs r WHERE r.automation_id = a.id AND r.contact_id = c.id))
    ON CONFLICT (automation_id, contact_id) WHERE status IN ('active', 'waiting') DO NOTHING
    RETURNING id`;
  return rows.map((row) => row.id);
}
