import { Prisma } from "@/lib/db";
import type { WebhookEventType } from "@/lib/schemas/webhooks";
import type { DbClient } from "@/lib/services/owned-records";
import { CONTACT_JSON_SQL } from "@/lib/services/contact-json-sql";

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
    INSERT INTO webhook_deliveries (organization_id, webhook_id, event_type, payload)
    SELECT w.organization_id, w.id, ${type},
      jsonb_build_object('type', ${type}::text, 'created_at', ${createdAt}::text, 'data', ${Prisma.raw(CONTACT_JSON_SQL)})
    FROM webhooks w
    JOIN contacts c ON c.organization_id = w.organization_id AND c.id = ANY(${contactIds}::uuid[])
    WHERE w.organization_id = ${organizationId}::uuid AND w.active AND ${type} = ANY(w.events)`;
}
