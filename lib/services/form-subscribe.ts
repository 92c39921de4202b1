import type { Prisma } from "@/lib/db";
import type { Form } from "@/lib/generated/prisma/client";
import { appendConsentSql, consentRecord } from "./consent";
import { consentEventsCtes } from "./consent-events";
import { CONTACT_JSON_SQL } from "@/lib/events/contact-json-sql";
import { chooseTopics } from "./contact-topics";
import { enterStaticSegment } from "@/lib/automations/segment-entry";

type Subscription = {
  form: Form;
  contactId: string;
  submissionId: string;
  values: { first_name?: string; last_name?: string; metadata?: Record<string, unknown> };
  ip: string | null;
};

// The contact's subscription in one statement: the row locked as it was (`before`), updated, and its
// events recorded through lib/events (consentEventsCtes), each with the record as the API answers it
// (the webhooks' data): `contact.updated` naming the fields that changed, as the API's writes do,
// and `contact.subscribed` when it was not subscribed before.
const SUBSCRIBE = `
  WITH c AS (
    UPDATE contacts c SET
      first_name = coalesce($3, c.first_name), last_name = coalesce($4, c.last_name), metadata = c.metadata || $5::jsonb,
      subscribed = true, unsubscribed_at = NULL, consent = ${appendConsentSql("c.consent", "$6::jsonb")}, updated_at = now()
    FROM (SELECT * FROM contacts WHERE id = $2::uuid AND organization_id = $1::uuid FOR UPDATE) before
    WHERE c.id = $2::uuid AND c.organization_id = $1::uuid
    RETURNING c.*, before.subscribed AS was_subscribed, array_remove(ARRAY[
      CASE WHEN c.first_name IS DISTINCT FROM before.first_name THEN 'first_name' END,
      CASE WHEN c.last_name IS DISTINCT FROM before.last_name THEN 'last_name' END,
      CASE WHEN c.metadata IS DISTINCT FROM before.metadata THEN 'metadata' END,
      CASE WHEN c.subscribed IS DISTINCT FROM before.subscribed THEN 'subscribed' END], NULL) AS changed
  ), record AS MATERIALIZED (SELECT c.*, (${CONTACT_JSON_SQL})::jsonb AS payload FROM c),
  ${consentEventsCtes(
    "recorded",
    `SELECT organization_id, id AS contact_id, 'contact.updated' AS name, jsonb_build_object('changed', to_jsonb(changed)) AS properties,
            'forms' AS source, payload
     FROM record
     UNION ALL
     SELECT organization_id, id, 'contact.subscribed', jsonb_build_object('reason', 'form', 'form_id', $7::text), 'forms', payload
     FROM record WHERE NOT was_subscribed`,
  )}
  SELECT id FROM c`;

/**
 * What a form's subscription does, confirmed or at once (no double opt-in): the submitted names and
 * properties written to the contact, subscribed with a consent record (the form, the time, the
 * address), `contact.updated` and (when it was not subscribed before) `contact.subscribed` recorded,
 * the form's topics (their events too) and (static) segment joined, the submission confirmed.
 */
export async function subscribeFromForm(tx: Prisma.TransactionClient, { form, contactId, submissionId, values, ip }: Subscription) {
  const organizationId = form.organization_id;
  const consent = JSON.stringify([consentRecord("form", { ip, formId: form.id })]);
  const [row] = await tx.$queryRawUnsafe<{ id: string }[]>(
    SUBSCRIBE,
    organizationId,
    contactId,
    values.first_name ?? null,
    values.last_name ?? null,
    JSON.stringify(values.metadata ?? {}),
    consent,
    form.id,
  );
  if (!row) return;
  const topics = form.topic_ids.length
    ? await tx.topic.findMany({ where: { organization_id: organizationId, id: { in: form.topic_ids } }, select: { id: true } })
    : [];
  await chooseTopics(
    tx,
    organizationId,
    contactId,
    topics.map((t) => ({ topic_id: t.id, subscribed: true })),
    "forms",
  );
  if (form.segment_id) {
    const joined = await tx.$queryRaw<{ contact_id: string }[]>`
      INSERT INTO segment_contacts (segment_id, contact_id, organization_id)
      SELECT s.id, ${contactId}::uuid, s.organization_id FROM segments s
      WHERE s.id = ${form.segment_id}::uuid AND s.organization_id = ${organizationId}::uuid AND s.filter IS NULL
      ON CONFLICT DO NOTHING
      RETURNING contact_id`;
    // A contact new to the segment enters the automations it triggers (a welcome series), with its membership.
    await enterStaticSegment(
      tx,
      organizationId,
      form.segment_id,
      joined.map((r) => r.contact_id),
    );
  }
  await tx.formSubmission.updateMany({ where: { id: submissionId, organization_id: organizationId, confirmed_at: null }, data: { confirmed_at: new Date() } });
}
