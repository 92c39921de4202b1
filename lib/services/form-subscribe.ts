import type { Prisma } from "@/lib/db";
import type { Form } from "@/lib/generated/prisma/client";
import { emitEvent } from "@/lib/webhooks/emit-event";
import { appendConsentSql, consentRecord } from "./consent";
import { recordConsentEvents } from "./consent-events";
import { chooseTopics } from "./contact-topics";
import { serializeContact, type ContactRow } from "./contacts";

type Subscription = {
  form: Form;
  contactId: string;
  submissionId: string;
  values: { first_name?: string; last_name?: string; metadata?: Record<string, unknown> };
  ip: string | null;
};

/**
 * What a form's subscription does, confirmed or at once (no double opt-in): the submitted names and
 * properties written to the contact, subscribed with a consent record (the form, the time, the
 * address), the form's topics and (static) segment joined, the submission confirmed, and
 * `contact.subscribed` when the contact was not subscribed before.
 */
export async function subscribeFromForm(tx: Prisma.TransactionClient, { form, contactId, submissionId, values, ip }: Subscription) {
  const organizationId = form.organization_id;
  const consent = JSON.stringify([consentRecord("form", { ip, formId: form.id })]);
  const [row] = await tx.$queryRawUnsafe<(ContactRow & { was_subscribed: boolean })[]>(
    `UPDATE contacts c SET
       first_name = coalesce($3, c.first_name), last_name = coalesce($4, c.last_name), metadata = c.metadata || $5::jsonb,
       subscribed = true, unsubscribed_at = NULL, consent = ${appendConsentSql("c.consent", "$6::jsonb")}, updated_at = now()
     FROM (SELECT subscribed FROM contacts WHERE id = $2::uuid AND organization_id = $1::uuid FOR UPDATE) before
     WHERE c.id = $2::uuid AND c.organization_id = $1::uuid
     RETURNING c.*, before.subscribed AS was_subscribed`,
    organizationId,
    contactId,
    values.first_name ?? null,
    values.last_name ?? null,
    JSON.stringify(values.metadata ?? {}),
    consent,
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
    await tx.$executeRaw`
      INSERT INTO segment_contacts (segment_id, contact_id, organization_id)
      SELECT s.id, ${contactId}::uuid, s.organization_id FROM segments s
      WHERE s.id = ${form.segment_id}::uuid AND s.organization_id = ${organizationId}::uuid AND s.filter IS NULL
      ON CONFLICT DO NOTHING`;
  }
  await tx.formSubmission.updateMany({ where: { id: submissionId, organization_id: organizationId, confirmed_at: null }, data: { confirmed_at: new Date() } });
  if (!row.was_subscribed) {
    await recordConsentEvents(tx, [{ organizationId, contactId, name: "contact.subscribed", source: "forms", properties: { form_id: form.id } }]);
  }
  await emitEvent(tx, { organizationId, type: "contact.updated", data: serializeContact(row) });
}
