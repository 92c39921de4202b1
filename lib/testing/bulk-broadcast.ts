import { sealSecret } from "@/lib/crypto/secret-box";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { ensureQueueSchema, queueBroadcastStart } from "@/lib/sending/queue";
import type { SmtpSink } from "./smtp-sink";

export type BulkBroadcast = { organizationId: string; broadcastId: string; inboxIds: string[]; recipients: string[] };

/**
 * A scheduled, due broadcast to `recipients` contacts over `inboxes` inboxes on the sink, with
 * its start job queued — in a database of its own, written set-based so thousands take a moment.
 */
export async function seedBulkBroadcast(
  db: PrismaClient,
  url: string,
  sink: SmtpSink,
  { recipients, inboxes }: { recipients: number; inboxes: number },
): Promise<BulkBroadcast> {
  const organization = await db.organization.create({ data: { name: "Bulk" } });
  const organizationId = organization.id;
  const inboxIds: string[] = [];
  for (let i = 0; i < inboxes; i++) {
    const inbox = await db.inbox.create({
      data: {
        organization_id: organizationId,
        name: `Bulk ${i}`,
        from_email: `bulk${i}@bulk.test`,
        daily_limit: 10_000,
        smtp_host: sink.host,
        smtp_port: sink.port,
        smtp_secure: false,
        smtp_username: `bulk${i}`,
        smtp_password_encrypted: sealSecret("pass"),
        created_at: new Date(Date.now() - 90 * 24 * 60 * 60_000),
        sender_confirmed_at: new Date(),
      },
    });
    inboxIds.push(inbox.id);
  }
  const segment = await db.segment.create({ data: { organization_id: organizationId, name: "Everyone" } });
  await db.$executeRaw`
    INSERT INTO contacts (organization_id, email, first_name)
    SELECT ${organizationId}::uuid, 'person' || g || '@bulk-recipients.test', 'Person ' || g FROM generate_series(1, ${recipients}::int) g`;
  await db.$executeRaw`
    INSERT INTO segment_contacts (segment_id, contact_id, organization_id)
    SELECT ${segment.id}::uuid, id, organization_id FROM contacts WHERE organization_id = ${organizationId}::uuid`;
  const broadcast = await db.broadcast.create({
    data: {
      organization_id: organizationId,
      name: "Bulk",
      subject: "Hello {{first_name}}",
      from_email: "bulk0@bulk.test",
      html_content: "<p>Hello {{first_name}}</p>",
      segment_id: segment.id,
      inbox_id: inboxIds.length === 1 ? inboxIds[0] : null,
      inbox_ids: inboxIds.length > 1 ? inboxIds : [],
      sending_speed: "instant",
      status: "scheduled",
      scheduled_at: new Date(),
    },
  });
  await ensureQueueSchema(url);
  await queueBroadcastStart(db, { broadcastId: broadcast.id, organizationId }, new Date());
  const contacts = await db.contact.findMany({ where: { organization_id: organizationId }, select: { email: true } });
  return { organizationId, broadcastId: broadcast.id, inboxIds, recipients: contacts.map((c) => c.email) };
}
