import type { DbClient } from "./owned-records";

/**
 * The facts of consent, as events of the contact's timeline that automations start from:
 * `form.submitted`, `contact.subscribed` (a subscription confirmed, or given where no confirmation
 * is asked), `contact.topic_subscribed` / `contact.topic_unsubscribed` (a choice of the preference
 * page or of `PUT /v1/contacts/{id}/topics`), `contact.unsubscribed` (from everything, on the
 * preference page).
 */
export type ConsentEventName = "form.submitted" | "contact.subscribed" | "contact.unsubscribed" | "contact.topic_subscribed" | "contact.topic_unsubscribed";

/** Who recorded it: the public form, the preference page, or a member through the API or the dashboard. */
export type ConsentEventSource = "forms" | "preferences" | "contacts";

export type ConsentEvent = {
  organizationId: string;
  contactId: string;
  name: ConsentEventName;
  source: ConsentEventSource;
  properties?: Record<string, unknown>;
};

/** Records the events in the caller's transaction, so they exist exactly when the change they describe does. */
export async function recordConsentEvents(client: DbClient, events: ConsentEvent[]): Promise<void> {
  if (events.length === 0) return;
  const rows = JSON.stringify(
    events.map((e) => ({ organization_id: e.organizationId, contact_id: e.contactId, name: e.name, source: e.source, properties: e.properties ?? {} })),
  );
  await client.$executeRaw`
    INSERT INTO events (organization_id, contact_id, name, properties, source, occurred_at)
    SELECT organization_id, contact_id, name, properties, source, now()
    FROM jsonb_to_recordset(${rows}::jsonb) AS x(organization_id uuid, contact_id uuid, name text, properties jsonb, source text)`;
}
