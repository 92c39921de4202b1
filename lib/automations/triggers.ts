import type { Prisma } from "@/lib/db";
import type { AutomationTrigger } from "@/lib/schemas/automations";
import { startRuns, type Entry } from "./start-runs";

/** An event as the automations read it: the outbox's announcement with the event's own details. */
export type AutomationEvent = {
  id: string;
  organization_id: string;
  contact_id: string | null;
  name: string;
  occurred_at: Date;
  properties?: Record<string, unknown> | null;
  broadcast_id?: string | null;
  automation_id?: string | null;
};

type EventTrigger = Extract<AutomationTrigger, { type: "event" }>;

/** Whether an event passes a trigger's `where`: its broadcast, its automation, and each property named equal. */
function matchesWhere(trigger: EventTrigger, event: AutomationEvent): boolean {
  const where = trigger.where;
  if (!where) return true;
  if (where.broadcast_id && where.broadcast_id.toLowerCase() !== event.broadcast_id) return false;
  if (where.automation_id && where.automation_id.toLowerCase() !== event.automation_id) return false;
  const properties = event.properties ?? {};
  return Object.entries(where.properties ?? {}).every(([key, value]) => properties[key] === value);
}

/**
 * `wait_for_event`: runs of these contacts waiting for one of these events (that happened after
 * they began to wait) are due now, and their wait ended on the event. One statement for the batch.
 */
async function wakeWaitingRuns(tx: Prisma.TransactionClient, events: AutomationEvent[]) {
  await tx.$executeRaw`
    UPDATE automation_runs r SET wait_result = 'event', wait_event = NULL, next_run_at = LEAST(r.next_run_at, now()), updated_at = now()
    FROM unnest(${events.map((e) => e.organization_id)}::uuid[], ${events.map((e) => e.contact_id)}::uuid[],
                ${events.map((e) => e.name)}::text[], ${events.map((e) => e.occurred_at)}::timestamptz[]) AS e(organization_id, contact_id, name, occurred_at)
    WHERE r.organization_id = e.organization_id AND r.contact_id = e.contact_id AND r.status = 'waiting'
      AND r.wait_event = e.name AND e.occurred_at >= r.wait_since`;
}

/**
 * What a batch of recorded events does to automations, in the transaction that dispatches them
 * (lib/events): a contact's event wakes its runs waiting for it, and starts the active automations
 * it triggers (by name, then each trigger's `where`). A few statements whatever the batch holds.
 * Answers the runs started.
 */
export async function onEvents(tx: Prisma.TransactionClient, events: AutomationEvent[], now = new Date()): Promise<string[]> {
  const ofContacts = events.filter((event) => event.contact_id !== null);
  if (ofContacts.length === 0) return [];
  await wakeWaitingRuns(tx, ofContacts);
  const automations = await tx.$queryRaw<{ id: string; organization_id: string; trigger_event: string; trigger: EventTrigger }[]>`
    SELECT a.id, a.organization_id, a.trigger_event, a.trigger FROM automations a
    JOIN (SELECT DISTINCT * FROM unnest(${ofContacts.map((e) => e.organization_id)}::uuid[], ${ofContacts.map((e) => e.name)}::text[])) AS k(organization_id, name)
      ON a.organization_id = k.organization_id AND a.trigger_event = k.name
    WHERE a.status = 'active'`;
  if (automations.length === 0) return [];
  const entries = new Map<string, Entry[]>();
  for (const event of ofContacts) {
    for (const automation of automations) {
      if (automation.organization_id !== event.organization_id || automation.trigger_event !== event.name) continue;
      if (!matchesWhere(automation.trigger, event)) continue;
      const list = entries.get(event.organization_id) ?? [];
      list.push({ automationId: automation.id, contactId: event.contact_id!, eventId: event.id });
      entries.set(event.organization_id, list);
    }
  }
  const started: string[] = [];
  for (const [organizationId, list] of entries) started.push(...(await startRuns(tx, organizationId, list, now)));
  return started;
}
