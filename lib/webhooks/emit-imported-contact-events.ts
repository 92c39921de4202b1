import type { PoolClient } from "pg";
import { CONTACT_JSON_SQL } from "@/lib/services/contact-json-sql";

/**
 * For a CSV import, inside its transaction and after its writes: `contact.created` for each
 * contact of the staging table `contact_import` created by this transaction (its `created_at` is
 * the transaction's time), `contact.updated` for each other one, in one INSERT … SELECT. Nothing
 * runs when no enabled webhook of the organization listens, so an import stays at COPY speed.
 */
export async function emitImportedContactEvents(client: PoolClient, organizationId: string): Promise<void> {
  const listening = await client.query(
    `SELECT 1 FROM webhooks WHERE organization_id = $1::uuid AND active
       AND events && ARRAY['contact.created', 'contact.updated']::text[] LIMIT 1`,
    [organizationId],
  );
  if (listening.rowCount === 0) return;
  await client.query(
    `INSERT INTO webhook_deliveries (organization_id, webhook_id, event_type, payload)
     SELECT w.organization_id, w.id, e.type, jsonb_build_object('type', e.type, 'created_at', $2::text, 'data', ${CONTACT_JSON_SQL})
     FROM contact_import s
     JOIN contacts c ON c.organization_id = $1::uuid AND c.email = s.email
     CROSS JOIN LATERAL (SELECT CASE WHEN c.created_at = now()::timestamptz(3) THEN 'contact.created' ELSE 'contact.updated' END AS type) e
     JOIN webhooks w ON w.organization_id = $1::uuid AND w.active AND e.type = ANY(w.events)`,
    [organizationId, new Date().toISOString()],
  );
}
