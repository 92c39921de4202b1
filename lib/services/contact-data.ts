import type { OrgContext } from "@/lib/domain/context";
import { notFound } from "@/lib/domain/errors";
import { db } from "@/lib/db";
import { listContactSegments } from "./contact-relations";
import { getContactTopics } from "./contact-topics";
import { serializeContact } from "./contacts";

/** Events and emails one contact's export lists at most (newest first); `truncated` says when there were more. */
const MAX_EXPORTED_ROWS = 10_000;

/**
 * GET /v1/contacts/{id}/export: what the organization holds on one contact, for a person's access
 * request — the record (with its consent), its topics, segments, form submissions, events and emails.
 */
export async function exportContact(ctx: OrgContext, id: string) {
  const organization_id = ctx.organizationId;
  const row = await db.contact.findFirst({ where: { id, organization_id } });
  if (!row) throw notFound("Contact");
  const suppression = await db.suppression.findUnique({
    where: { organization_id_email: { organization_id, email: row.email } },
    select: { reason: true, created_at: true },
  });
  const [topics, segments, submissions, events, emails] = await Promise.all([
    getContactTopics(ctx, id),
    listContactSegments(ctx, id),
    db.formSubmission.findMany({
      where: { organization_id, contact_id: id },
      orderBy: { created_at: "desc" },
      take: MAX_EXPORTED_ROWS,
      select: { form_id: true, values: true, ip: true, created_at: true, confirmed_at: true },
    }),
    db.event.findMany({
      where: { organization_id, contact_id: id },
      orderBy: [{ occurred_at: "desc" }, { id: "desc" }],
      take: MAX_EXPORTED_ROWS + 1,
      select: { id: true, name: true, properties: true, source: true, occurred_at: true },
    }),
    db.email.findMany({
      where: { organization_id, contact_id: id },
      orderBy: [{ created_at: "desc" }, { id: "desc" }],
      take: MAX_EXPORTED_ROWS + 1,
      select: {
        id: true,
        broadcast_id: true,
        from_email: true,
        to_email: true,
        subject: true,
        status: true,
        created_at: true,
        sent_at: true,
        opened_at: true,
        clicked_at: true,
      },
    }),
  ]);
  return {
    contact: serializeContact(row, suppression),
    topics,
    segments: segments.data,
    form_submissions: submissions,
    events: events.slice(0, MAX_EXPORTED_ROWS),
    emails: emails.slice(0, MAX_EXPORTED_ROWS),
    truncated: events.length > MAX_EXPORTED_ROWS || emails.length > MAX_EXPORTED_ROWS,
  };
}
