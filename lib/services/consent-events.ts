import { recordEvents, type SqlClient } from "@/lib/events/record";
import { recordEventsCtes } from "@/lib/events/sql";

/**
 * The facts of consent, as events of the contact's timeline that automations start from:
 * `form.submitted`, `contact.subscribed` (a subscription confirmed, or given where no confirmation
 * is asked), `contact.topic_subscribed` / `contact.topic_unsubscribed` (a choice of the preference
 * page or of `PUT /v1/contacts/{id}/topics`), `contact.unsubscribed` (from everything, on the
 * preference page). They are recorded through lib/events like every other fact, so each is one row
 * of `events`, announced once (webhooks deliver those of a type they subscribe to).
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
  /** The contact record as the API answers it, when the fact changed it (the webhooks' `data`). */
  payload?: unknown;
};

/**
 * SQL (text) of two CTEs that record and announce as events the rows of `rows`, a query answering
 * `organization_id, contact_id, name, properties, source, payload` (payload a jsonb or NULL): for a
 * statement that records the fact with the change it describes (a form submission, a subscription
 * confirmed, an unsubscription from the preference page, each one statement). `name` names the CTEs.
 */
export const consentEventsCtes = (name: string, rows: string) =>
  recordEventsCtes(
    name,
    ["organization_id", "contact_id", "name", "properties", "source", "occurred_at", "payload"],
    `SELECT organization_id, contact_id, name, properties, source, now(), payload FROM (${rows}) AS consent_event`,
  );

/** Records the events in the caller's transaction, so they exist (and are announced) exactly when the change they describe does. */
export async function recordConsentEvents(client: SqlClient, events: ConsentEvent[]): Promise<void> {
  await recordEvents(
    client,
    events.map((e) => ({
      organizationId: e.organizationId,
      contactId: e.contactId,
      name: e.name,
      source: e.source,
      properties: e.properties,
      ...(e.payload === undefined ? {} : { payload: e.payload }),
    })),
  );
}
