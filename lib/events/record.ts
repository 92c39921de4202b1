import type { PoolClient } from "pg";
import type { Db, Prisma } from "@/lib/db";
import type { NewEvent } from "./types";

/** A Prisma client (or transaction), or a plain pg connection in a transaction of its own. */
export type SqlClient = Db | Prisma.TransactionClient | PoolClient;

/** Runs one parameterized statement ($1, $2, …) on either kind of client; answers its rows. */
export async function runSql<T>(client: SqlClient, sql: string, params: unknown[]): Promise<T[]> {
  if ("$queryRawUnsafe" in client) return client.$queryRawUnsafe<T[]>(sql, ...params);
  return (await client.query(sql, params)).rows as T[];
}

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

// The ids are drawn in the materialized `v`, so the events, their announcements and the answer agree.
const RECORD_EVENTS = `
  WITH v AS MATERIALIZED (
    SELECT uuid_v7() AS id, x.*
    FROM ROWS FROM (jsonb_to_recordset($1::jsonb)
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

/**
 * Records events and announces them, in one statement inside the caller's transaction: each is
 * written once to `events` and once to the outbox (`event_outbox`), so every consumer sees it
 * exactly when the fact that caused it commits, and never when it rolls back. Answers the new
 * events' ids in input order. The events travel as one JSON parameter: a thousand cost one
 * round trip and no more parameters than one.
 */
export async function recordEvents(client: SqlClient, events: NewEvent[]): Promise<string[]> {
  if (events.length === 0) return [];
  const rows = await runSql<{ id: string }>(client, RECORD_EVENTS, [JSON.stringify(events.map(row))]);
  return rows.map((r) => r.id);
}

/** One event; its id. */
export async function recordEvent(client: SqlClient, event: NewEvent): Promise<string> {
  const [id] = await recordEvents(client, [event]);
  return id;
}
