import type { WebhookEventType } from "@/lib/schemas/webhooks";
import type { DbClient } from "@/lib/services/owned-records";

type ContactEventType = Extract<WebhookEventType, `contact.${string}`>;

/**
 * `emitEvent` for many contacts at once: one INSERT … SELECT queues a delivery per contact and
 * subscribed webhook, each carrying the contact record as the API shows it. For bulk creation and
 * imports, inside the transaction that wrote the contacts.
 */
export async function emitContactEvents(
  client: DbClient,
  { organizationId, type, contactIds }: { organizationId: string; type: ContactEventType; contactIds: string[] },
): Promise<void> {
  if (contactIds.length === 0) return;
  const createdAt = new Date().toISOString();
  await client.$executeRaw`
    WITH iso AS (SELECT 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"' AS format)
    INSERT INTO webhook_deliveries (organization_id, webhook_id, event_type, payload)
    SELECT w.organization_id, w.id, ${type},
      jsonb_build_object('type', ${type}::text, 'created_at', ${createdAt}::text, 'data', jsonb_build_object(
        'id', c.id, 'organization_id', c.organization_id, 'email', c.email, 'first_name', c.first_name,
        'last_name', c.last_name, 'metadata', COALESCE(c.metadata, '{}'::jsonb), 'subscribed', c.subscribed,
        'unsubscribed_at', to_char(c.unsubscribed_at AT TIME ZONE 'UTC', iso.format),
        'tags', to_jsonb(COALESCE(c.tags, '{}'::text[])),
        'created_at', to_char(c.created_at AT TIME ZONE 'UTC', iso.format),
        'updated_at', to_char(c.updated_at AT TIME ZONE 'UTC', iso.format)))
    FROM webhooks w
    JOIN contacts c ON c.organization_id = w.organization_id AND c.id = ANY(${contactIds}::uuid[])
    CROSS JOIN iso
    WHERE w.organization_id = ${organizationId}::uuid AND w.active AND ${type} = ANY(w.events)`;
}
