import { randomUUID } from "node:crypto";
import { db } from "@/lib/db";
import type { SequenceMode } from "@/lib/generated/prisma/enums";

export const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

export async function addContacts(organizationId: string, names: string[]) {
  const contacts: Record<string, { id: string; email: string }> = {};
  for (const name of names) {
    contacts[name] = await db.contact.create({
      // Each at a domain of its own: people at one domain are colleagues (`stop_on_company_reply`).
      data: { organization_id: organizationId, email: `${name.toLowerCase()}@${randomUUID().slice(0, 8)}.example.net`, first_name: name },
      select: { id: true, email: true },
    });
  }
  return contacts;
}

export async function addSegment(organizationId: string, name: string, contactIds: string[]) {
  const segment = await db.segment.create({ data: { organization_id: organizationId, name } });
  if (contactIds.length > 0) {
    await db.segmentContact.createMany({ data: contactIds.map((contact_id) => ({ segment_id: segment.id, contact_id, organization_id: organizationId })) });
  }
  return segment.id;
}

export async function addInbox(
  organizationId: string,
  fields: { from_email?: string; imap?: { host: string; port: number; username: string; password_encrypted: string } } = {},
) {
  return db.inbox.create({
    data: {
      organization_id: organizationId,
      name: "Sales inbox",
      from_email: fields.from_email ?? "sam@sales.example.com",
      from_name: "Sam",
      smtp_host: "127.0.0.1",
      smtp_port: 2525,
      imap_host: fields.imap?.host,
      imap_port: fields.imap?.port,
      imap_secure: fields.imap ? false : undefined,
      imap_username: fields.imap?.username,
      imap_password_encrypted: fields.imap?.password_encrypted,
      // Verified, as a sending inbox must be (lib/senders/proof.ts).
      sender_confirmed_at: new Date(),
    },
  });
}

type BroadcastSetup = {
  organizationId: string;
  segmentId: string;
  inboxId: string;
  mode?: SequenceMode;
  subject?: string;
  exitConditions?: { exit_if_in_segment_ids?: string[]; exit_if_not_in_segment_ids?: string[] };
  steps: { delay_minutes: number; subject?: string; html_content?: string }[];
  /** false: the first emails are still being created in chunks (fanned_out_at unset). */
  fannedOut?: boolean;
};

/** A broadcast in `sending` with its steps, as the API and the start job leave it (no emails yet). */
export async function addSequencedBroadcast(setup: BroadcastSetup) {
  const broadcast = await db.broadcast.create({
    data: {
      organization_id: setup.organizationId,
      name: "Outreach",
      subject: setup.subject ?? "Quick question",
      from_email: "sam@sales.example.com",
      html_content: "<p>Hi {{first_name}}</p>",
      segment_id: setup.segmentId,
      inbox_id: setup.inboxId,
      status: "sending",
      started_at: new Date(),
      fanned_out_at: setup.fannedOut === false ? null : new Date(),
      sequence_mode: setup.mode ?? "sales",
      sequence_exit_conditions: setup.exitConditions ?? undefined,
      steps: {
        create: setup.steps.map((step, index) => ({
          organization_id: setup.organizationId,
          position: index + 1,
          delay_minutes: step.delay_minutes,
          subject: step.subject,
          html_content: step.html_content ?? `<p>Follow-up ${index + 1}</p>`,
        })),
      },
    },
    include: { steps: { orderBy: { position: "asc" } } },
  });
  return broadcast;
}

/**
 * The first email of the broadcast to a contact, already sent `sentMinutesAgo` minutes ago, in
 * a thread of its own, as the sending engine leaves it.
 */
export async function addSentFirstEmail(
  broadcast: { id: string; organization_id: string; subject: string; inbox_id: string | null },
  contact: { id: string; email: string },
  sentMinutesAgo: number,
) {
  const id = randomUUID();
  const thread = await db.thread.create({
    data: {
      organization_id: broadcast.organization_id,
      subject: broadcast.subject,
      contact_id: contact.id,
      inbox_id: broadcast.inbox_id,
      broadcast_id: broadcast.id,
    },
  });
  await db.email.create({
    data: {
      id,
      organization_id: broadcast.organization_id,
      message_id: `<${id}@sales.example.com>`,
      from_email: "sam@sales.example.com",
      from_name: "Sam",
      to_email: contact.email,
      subject: broadcast.subject,
      html_content: "<p>Hi</p>",
      broadcast_id: broadcast.id,
      sequence_position: 0,
      contact_id: contact.id,
      inbox_id: broadcast.inbox_id,
      thread_id: thread.id,
      status: "sent",
      sent_at: minutesAgo(sentMinutesAgo),
    },
  });
  await db.broadcast.update({ where: { id: broadcast.id }, data: { total_recipients: { increment: 1 }, sent_count: { increment: 1 } } });
  return db.email.findUniqueOrThrow({ where: { id } });
}

/** A raw RFC 822 reply to a message, as a mail client would write it. */
export function rawReply(options: {
  from: string;
  to: string;
  subject: string;
  inReplyTo?: string;
  references?: string[];
  body?: string;
  messageId?: string;
  headers?: string[];
}) {
  const lines = [
    `From: ${options.from}`,
    `To: ${options.to}`,
    `Subject: ${options.subject}`,
    `Date: ${new Date().toUTCString()}`,
    `Message-ID: ${options.messageId ?? `<${randomUUID()}@mail.example.net>`}`,
    ...(options.inReplyTo ? [`In-Reply-To: ${options.inReplyTo}`] : []),
    ...(options.references ? [`References: ${options.references.join(" ")}`] : []),
    ...(options.headers ?? []),
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    "",
    options.body ?? "Sounds good, tell me more.",
    "",
  ];
  return lines.join("\r\n");
}
