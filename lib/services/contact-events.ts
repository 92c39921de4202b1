import type { PoolClient } from "pg";
import type { Contact } from "@/lib/generated/prisma/client";
import type { OrgContext } from "@/lib/domain/context";
import { recordEvents, runSql, type SqlClient } from "@/lib/events/record";
import { recordEventsStatement } from "@/lib/events/sql";
import type { EventSource } from "@/lib/events/types";
import { CONTACT_JSON_SQL } from "@/lib/events/contact-json-sql";
import type { DbClient } from "@/lib/db";

type ContactEventName = "contact.created" | "contact.updated" | "contact.subscribed" | "contact.unsubscribed";

const CONTACT_EVENTS = recordEventsStatement(
  ["organization_id", "contact_id", "name", "properties", "source", "occurred_at", "payload"],
  `SELECT c.organization_id, c.id, $3, $5::jsonb, $4, now(), (${CONTACT_JSON_SQL})::jsonb
   FROM contacts c WHERE c.organization_id = $1::uuid AND c.id = ANY($2::uuid[])`,
);

/**
 * Records `name` for many contacts at once, in one INSERT … SELECT inside the transaction that wrote
 * them, each carrying the contact record as the API shows it (the webhooks' `data`) and the same
 * `properties`. For bulk creation, bulk actions and contacts created by a custom event.
 */
export async function recordContactEvents(
  client: SqlClient,
  {
    organizationId,
    name,
    source,
    contactIds,
    properties = {},
  }: { organizationId: string; name: ContactEventName; source: EventSource; contactIds: string[]; properties?: Record<string, unknown> },
): Promise<void> {
  if (contactIds.length === 0) return;
  await runSql(client, CONTACT_EVENTS, [organizationId, contactIds, name, source, JSON.stringify(properties)]);
}

/**
 * For a CSV import, inside its transaction and after its writes, one INSERT … SELECT: `contact.created`
 * for each contact of the staging table `contact_import` this transaction created (its `created_at`
 * is the transaction's time), `contact.updated` for each other one. The contact record goes with
 * each only when a webhook of the organization listens (as its `data`): a million-row import nobody
 * listens to writes the events alone.
 */
export async function recordImportedContactEvents(client: PoolClient, organizationId: string): Promise<void> {
  await client.query(
    recordEventsStatement(
      ["organization_id", "contact_id", "name", "source", "occurred_at", "payload"],
      `SELECT c.organization_id, c.id,
         CASE WHEN c.created_at = now()::timestamptz(3) THEN 'contact.created' ELSE 'contact.updated' END, 'import', now(),
         CASE WHEN l.listening THEN (${CONTACT_JSON_SQL})::jsonb END
       FROM contact_import s
       JOIN contacts c ON c.organization_id = $1::uuid AND c.email = s.email
       CROSS JOIN (SELECT EXISTS (SELECT 1 FROM webhooks WHERE organization_id = $1::uuid AND active
         AND events && ARRAY['contact.created', 'contact.updated']::text[]) AS listening) l`,
    ),
    [organizationId],
  );
}

const FIELDS = ["email", "first_name", "last_name", "metadata", "subscribed", "tags", "timezone"] as const satisfies (keyof Contact)[];

/** The contact fields a write changed, for `contact.updated`'s properties ("Updated first name, tags"). */
function changedFields(before: Contact, after: Contact): string[] {
  return FIELDS.filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]));
}

/**
 * A contact written through the API or the dashboard: `contact.created`, or `contact.updated` (its
 * properties name the fields that changed) and `contact.unsubscribed` or `contact.subscribed` when
 * its subscription changed; each carries the contact record the request answers (the webhooks' `data`).
 */
export async function recordContactChange(
  client: DbClient,
  ctx: OrgContext,
  change: { name: "contact.created"; contact: { id: string } } | { name: "contact.updated"; contact: { id: string }; before: Contact; after: Contact },
): Promise<void> {
  const base = { organizationId: ctx.organizationId, contactId: change.contact.id, source: "contacts" as const, payload: change.contact };
  if (change.name === "contact.created") {
    await recordEvents(client, [{ ...base, name: "contact.created" }]);
    return;
  }
  const unsubscribed = change.before.subscribed && !change.after.subscribed;
  // A webhook event type, and a built-in event of the filter language: "subscribed again in the last 30 days".
  const subscribed = !change.before.subscribed && change.after.subscribed;
  await recordEvents(client, [
    { ...base, name: "contact.updated", properties: { changed: changedFields(change.before, change.after) } },
    ...(unsubscribed ? [{ ...base, name: "contact.unsubscribed", properties: { reason: "api" } }] : []),
    ...(subscribed ? [{ ...base, name: "contact.subscribed", properties: { reason: "api" } }] : []),
  ]);
}
