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

/**
 * SQL (text) recording as events the rows of `rows`, a query answering `organization_id, contact_id,
 * name, properties, source`: for a statement that records the fact with the change it describes
 * (a CTE of the form submission's one statement), and for recordConsentEvents.
 */
export const consentEventsSql = (rows: string) => `
  INSERT INTO events (organization_id, contact_id, name, properties, source, occurred_at)
  SELECT organization_id, contact_id, name, properties, source, now() FROM (${rows}) AS consent_event`;

/** Records the events in the caller's transaction, so they exist exactly when the change they describe does. */
export async function recordConsentEvents(client: DbClient, events: ConsentEvent[]): Promise<void> {
  if (events.length === 0) return;
  const rows = JSON.stringify(
    events.map((e) => ({ organization_id: e.organizationId, contact_id: e.contactId, name: e.name, source: e.source, properties: e.properties ?? {} })),
  );
  await client.$executeRawUnsafe(
    consentEventsSql("SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(organization_id uuid, contact_id uuid, name text, properties jsonb, source text)"),
    rows,
  );
}
