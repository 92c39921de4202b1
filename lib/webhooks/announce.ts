import { Prisma } from "@/lib/db";
import type { EventBatch, EventConsumer } from "@/lib/events/consumer";
import { CUSTOM_EVENT_SOURCE } from "@/lib/events/types";
import { CONTACT_JSON_SQL } from "@/lib/events/contact-json-sql";

const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * `data` of an event's webhook: the payload recorded with it when there is one (a contact as it was,
 * a broadcast's totals, …); for `email.*` events the email's fields (as email-event-data.ts lists
 * them) with the event's own properties over them (the link clicked, the bounce, …); for a topic
 * choice or a form submission, the contact as it is with the topic or form (the event's
 * properties); for another `contact.*` event recorded without one (an import nobody listened to
 * then), the contact as it is.
 */
const DATA = Prisma.raw(`CASE
  WHEN e.payload IS NOT NULL THEN e.payload
  WHEN e.name LIKE 'email.%' AND em.id IS NOT NULL THEN jsonb_build_object(
    'email_id', em.id, 'message_id', em.message_id, 'broadcast_id', e.broadcast_id, 'contact_id', e.contact_id,
    'thread_id', em.thread_id, 'from', em.from_email, 'subject', em.subject,
    -- Every To of an email sent to several (POST /v1/emails, SMTP submission); a broadcast's one recipient.
    'to', CASE WHEN cardinality(em.to_addresses) > 0 THEN to_jsonb(em.to_addresses) ELSE jsonb_build_array(em.to_email) END,
    'tags', to_jsonb(em.tags), 'created_at', ${iso("em.created_at")}) || e.properties
  WHEN e.name IN ('contact.topic_subscribed', 'contact.topic_unsubscribed', 'form.submitted') AND c.id IS NOT NULL
    THEN (${CONTACT_JSON_SQL})::jsonb || e.properties
  WHEN e.name LIKE 'contact.%' AND c.id IS NOT NULL THEN (${CONTACT_JSON_SQL})::jsonb
END`);

/**
 * Queues a delivery of every announced built-in event to each enabled webhook of its organization
 * subscribed to its type, in one INSERT … SELECT for the whole batch. Custom events (source `api`)
 * are not webhook events. The deliveries are sent by deliver.ts, with its retries.
 */
async function queueDeliveries(tx: Prisma.TransactionClient, batch: EventBatch): Promise<void> {
  // Most organizations have no webhook: their events (a broadcast's email.sent, …) cost this one lookup.
  const listening = await tx.$queryRaw<{ organization_id: string }[]>`
    SELECT DISTINCT organization_id FROM webhooks WHERE organization_id = ANY(${[...new Set(batch.organizationIds)]}::uuid[]) AND active`;
  if (listening.length === 0) return;
  await tx.$executeRaw`
    INSERT INTO webhook_deliveries (organization_id, webhook_id, event_id, event_type, payload, created_at)
    SELECT d.organization_id, d.webhook_id, d.event_id, d.name,
      jsonb_build_object('type', d.name, 'created_at', ${Prisma.raw(iso("d.created_at"))}, 'data', d.data), d.created_at
    FROM (
      SELECT w.organization_id, w.id AS webhook_id, e.id AS event_id, e.name, e.created_at, ${DATA} AS data
      FROM unnest(${batch.organizationIds}::uuid[], ${batch.eventIds}::uuid[]) AS b(organization_id, event_id)
      JOIN events e ON e.organization_id = b.organization_id AND e.id = b.event_id
      JOIN webhooks w ON w.organization_id = e.organization_id AND w.active AND e.name = ANY(w.events)
      LEFT JOIN emails em ON e.payload IS NULL AND em.organization_id = e.organization_id AND em.id = e.email_id
      LEFT JOIN contacts c ON e.payload IS NULL AND c.organization_id = e.organization_id AND c.id = e.contact_id
      WHERE e.source <> ${CUSTOM_EVENT_SOURCE}
    ) d
    WHERE d.data IS NOT NULL
    -- In the order the events were recorded: a delivery is dated (and listed) as its event.
    ORDER BY d.event_id, d.webhook_id`;
}

export const webhookConsumer: EventConsumer = { name: "webhooks", consume: queueDeliveries };
