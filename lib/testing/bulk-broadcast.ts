import { sealSecret } from "@/lib/crypto/secret-box";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { ensureQueueSchema, queueBroadcastStart } from "@/lib/sending/queue";
import type { SmtpSink } from "./smtp-sink";

export type BulkBroadcast = { organizationId: string; broadcastId: string; inboxIds: string[]; recipients: string[] };

/**
 * A scheduled, due broadcast to `recipients` contacts (`<prefix><n>@bulk-recipients.test`) over
 * `inboxes` inboxes on the sink (none: through the relay, which the worker must be given), with its start job queued — or a draft, when `start` is false, for
 * startBulkBroadcast later — in a database of its own, written set-based so thousands take a moment.
 */
export async function seedBulkBroadcast(
  db: PrismaClient,
  url: string,
  sink: SmtpSink,
  {
    recipients,
    inboxes,
    prefix = "person",
    start = true,
    organizationId: existing,
    analyze = true,
  }: { recipients: number; inboxes: number; prefix?: string; start?: boolean; organizationId?: string; analyze?: boolean },
): Promise<BulkBroadcast> {
  const organizationId = existing ?? (await db.organization.create({ data: { name: `Bulk ${prefix}` } })).id;
  const inboxIds: string[] = [];
  for (let i = 0; i < inboxes; i++) {
    const inbox = await db.inbox.create({
      data: {
        organization_id: organizationId,
        name: `Bulk ${prefix} ${i}`,
        from_email: `${prefix}${i}@bulk.test`,
        daily_limit: 10_000,
        smtp_host: sink.host,
        smtp_port: sink.port,
        smtp_secure: false,
        smtp_username: `${prefix}${i}`,
        smtp_password_encrypted: sealSecret("pass"),
        created_at: new Date(Date.now() - 90 * 24 * 60 * 60_000),
        sender_confirmed_at: new Date(),
      },
    });
    inboxIds.push(inbox.id);
  }
  // No inbox: the broadcast goes through the relay (the worker's SMTP_RELAY_URL), from a verified domain.
  if (inboxes === 0) {
    await db.domain.create({
      data: { organization_id: organizationId, name: "bulk.test", status: "verified", verification_token: `bulk-${organizationId}`, verified_at: new Date() },
    });
  }
  const segment = await db.segment.create({ data: { organization_id: organizationId, name: "Everyone" } });
  await db.$executeRaw`
    WITH added AS (
      INSERT INTO contacts (organization_id, email, first_name)
      SELECT ${organizationId}::uuid, ${prefix} || g || '@bulk-recipients.test', 'Person ' || g FROM generate_series(1, ${recipients}::int) g
      RETURNING id)
    INSERT INTO segment_contacts (segment_id, contact_id, organization_id) SELECT ${segment.id}::uuid, id, ${organizationId}::uuid FROM added`;
  const broadcast = await db.broadcast.create({
    data: {
      organization_id: organizationId,
      name: "Bulk",
      subject: "Hello {{first_name}}",
      from_email: `${prefix}0@bulk.test`,
      html_content: "<p>Hello {{first_name}}</p>",
      segment_id: segment.id,
      inbox_id: inboxIds.length === 1 ? inboxIds[0] : null,
      inbox_ids: inboxIds.length > 1 ? inboxIds : [],
      sending_speed: "instant",
      status: start ? "scheduled" : "draft",
      scheduled_at: start ? new Date() : null,
    },
  });
  await ensureQueueSchema(url);
  if (start) await queueBroadcastStart(db, { broadcastId: broadcast.id, organizationId }, new Date());
  // Fresh statistics, as autovacuum would have them by the time a real list is sent: with none, the
  // planner takes a table of 100 000 fresh rows for an empty one. `analyze: false`: a list sent the
  // moment it was loaded, which the statistics have not seen.
  if (analyze) await db.$executeRaw`ANALYZE contacts, segment_contacts`;
  const recipientList = Array.from({ length: recipients }, (_, i) => `${prefix}${i + 1}@bulk-recipients.test`);
  return { organizationId, broadcastId: broadcast.id, inboxIds, recipients: recipientList };
}

/** Sends a bulk broadcast seeded as a draft: scheduled for now, its start job queued. */
export async function startBulkBroadcast(db: PrismaClient, broadcast: BulkBroadcast): Promise<void> {
  await db.broadcast.update({ where: { id: broadcast.broadcastId }, data: { status: "scheduled", scheduled_at: new Date() } });
  await queueBroadcastStart(db, { broadcastId: broadcast.broadcastId, organizationId: broadcast.organizationId }, new Date());
}
