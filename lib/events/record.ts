import type { DbClient } from "@/lib/services/owned-records";
import type { NewEvent } from "./types";

const row = (e: NewEvent) => ({
  organization_id: e.organizationId,
  contact_id: e.contactId ?? null,
  name: e.name,
  properties: e.properties ?? {},
  source: e.source,
  email_id: e.emailId ?? null,
  broadcast_id: e.broadcastId ?? null,
  automation_id: e.automationId ?? null,
  machine: e.machine ?? false,
  occurred_at: e.occurredAt?.toISOString() ?? null,
  payload: e.payload === undefined ? null : e.payload,
});

/**
 * Records events and announces them, in one statement inside the caller's transaction: each is
 * written once to `events` and once to the outbox (`event_outbox`), so every consumer sees it
 * exactly when the fact that caused it commits, and never when it rolls back. Answers the new
 * events' ids in input order.
 */
export async function recordEvents(client: DbClient, events: NewEvent[]): Promise<string[]> {
  if (events.length === 0) return [];
  const rows = await client.$queryRaw<{ id: string }[]>`
    WITH v AS MATERIALIZED (
      SELECT uuid_v7() AS id, x.*
      FROM ROWS FROM (jsonb_to_recordset(${JSON.stringify(events.map(row))}::jsonb)
        AS (organization_id uuid, contact_id uuid, name text, properties jsonb, source text, email_id uuid,
            broadcast_id uuid, automation_id uuid, machine boolean, occurred_at timestamptz, payload jsonb))
        WITH ORDINALITY AS x(organization_id, contact_id, name, properties, source, email_id, broadcast_id, automation_id, machine, occurred_at, payload, position)
    ),
    recorded AS (
      INSERT INTO events (id, organization_id, contact_id, name, properties, source, email_id, broadcast_id, automation_id, machine, occurred_at, payload)
      SELECT id, organization_id, contact_id, name, properties, source, email_id, broadcast_id, automation_id, machine,
             coalesce(occurred_at, now()), payload
      FROM v
    ),
    announced AS (INSERT INTO event_outbox (organization_id, event_id) SELECT organization_id, id FROM v)
    SELECT id FROM v ORDER BY position`;
  return rows.map((r) => r.id);
}

/** One event; its id. */
export async function recordEvent(client: DbClient, event: NewEvent): Promise<string> {
  const [id] = await recordEvents(client, [event]);
  return id;
}
