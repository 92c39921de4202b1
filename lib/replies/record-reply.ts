import type { Email } from "@/lib/generated/prisma/client";
import { randomUUID } from "node:crypto";
import { simpleParser, type AddressObject, type ParsedMail } from "mailparser";
import { db, Prisma } from "@/lib/db";
import { limits } from "@/lib/schemas/common";
import { leaveSequence } from "@/lib/sequences/leave-sequence";
import { stopForCompany } from "@/lib/sequences/company-stop";
import { holdForAway } from "@/lib/sequences/hold-sequence";
import { domainOf } from "@/lib/domain/addresses";
import { recordEvent } from "@/lib/events/record";
import { endRunOnReply } from "@/lib/automations/leave";
import { isFeedbackReport } from "@/lib/feedback/parse-report";
import { queueInboxReport } from "@/lib/feedback/process-reports";
import { categorizeReply } from "./categorize";
import { messageIds, replyCandidates } from "./message-ids";
import { awayUntil } from "./auto-reply";
import { isFreeMailDomain } from "./free-mail";

export type ReceivingInbox = { id: string; organization_id: string };

export type ReplyOutcome =
  | { result: "stored"; emailId: string; repliedToId: string; threadId: string }
  /** An automatic answer (out of office): kept in the thread, not a reply; `heldUntil`: the sender's follow-ups wait until then. */
  | { result: "auto_reply"; emailId: string; repliedToId: string; threadId: string; heldUntil: Date | null }
  /** `report`: a delivery report or complaint, queued for lib/feedback to record. */
  | { result: "duplicate" | "unmatched" | "automatic" | "report" };

type Original = Pick<
  Email,
  | "id"
  | "organization_id"
  | "message_id"
  | "broadcast_id"
  | "contact_id"
  | "inbox_id"
  | "thread_id"
  | "from_email"
  | "to_email"
  | "subject"
  | "tags"
  | "created_at"
  | "automation_id"
  | "automation_run_id"
>;

// PostgreSQL text cannot hold U+0000; a hostile message is not allowed to make the insert fail.
const clean = (value: string | undefined | null, max: number) => (value ? value.replace(/\u0000/g, "").slice(0, max) : null);

const firstAddress = (field: AddressObject | AddressObject[] | undefined) => (Array.isArray(field) ? field[0] : field)?.value.find((a) => a.address);

/** A report other than the bounces and complaints lib/feedback reads (a read receipt, say): nobody wrote it. */
function isOtherReport(mail: ParsedMail): boolean {
  const contentType = mail.headers.get("content-type");
  const type = typeof contentType === "object" && contentType && "value" in contentType ? String(contentType.value) : String(contentType ?? "");
  return type.toLowerCase() === "multipart/report";
}

/**
 * An out-of-office answer holds the sender's follow-ups until the return date it gives (or a
 * week), instead of ending the sequence as a reply does. The thread keeps it; it is not a reply
 * (no `replied_at`, no count, no `email.replied`).
 */
async function holdSender(tx: Prisma.TransactionClient, original: Original, mail: ParsedMail, receivedAt: Date): Promise<Date | null> {
  if (!original.contact_id) return null;
  const [zones] = await tx.$queryRaw<{ contact: string | null; organization: string }[]>`
    SELECT c.timezone AS contact, o.timezone AS organization FROM organizations o
    LEFT JOIN contacts c ON c.id = ${original.contact_id}::uuid AND c.organization_id = o.id
    WHERE o.id = ${original.organization_id}::uuid`;
  const until = awayUntil(mail, receivedAt, zones?.contact ?? zones?.organization ?? "UTC");
  if (until) await holdForAway(tx, { organizationId: original.organization_id, contactId: original.contact_id, until });
  return until;
}

/** The outbound email of the organization this message answers, by its threading headers. */
async function findOriginal(tx: Prisma.TransactionClient, organizationId: string, candidates: string[]): Promise<Original | undefined> {
  if (candidates.length === 0) return undefined;
  const rows = await tx.$queryRaw<Original[]>`
    SELECT id, organization_id, message_id, broadcast_id, contact_id, inbox_id, thread_id, from_email, to_email, subject, tags, created_at, automation_id, automation_run_id
    FROM emails
    WHERE organization_id = ${organizationId}::uuid AND direction = 'outbound' AND message_id = ANY(${candidates}::text[])
    FOR UPDATE`;
  return candidates.map((id) => rows.find((row) => row.message_id === id)).find((row) => row !== undefined);
}

async function ensureThread(tx: Prisma.TransactionClient, original: Original): Promise<string> {
  if (original.thread_id) return original.thread_id;
  const thread = await tx.thread.create({
    data: {
      organization_id: original.organization_id,
      subject: original.subject,
      contact_id: original.contact_id,
      inbox_id: original.inbox_id,
      broadcast_id: original.broadcast_id,
    },
  });
  await tx.email.update({ where: { id: original.id }, data: { thread_id: thread.id } });
  return thread.id;
}

/**
 * Stores a message that arrived in an inbox as a reply, when its In-Reply-To or References name
 * one of the organization's outbound emails: a `received` inbound email in that email's thread,
 * `replied_at` on the email answered, the broadcast's `replied_count` (once per recipient), the
 * `email.replied` event (lib/events; webhooks follow) — and the recipient leaves the sequence, and
 * with `stop_on_company_reply` every colleague at the sender's domain too (not at a free-mail
 * domain). An automatic answer is kept in the thread and holds the sender's follow-ups
 * (holdSender). Anything else is left alone. Receiving the same message twice stores it once.
 */
async function recordReply(inbox: ReceivingInbox, mail: ParsedMail): Promise<ReplyOutcome> {
  const candidates = replyCandidates(mail.inReplyTo, mail.references);
  if (candidates.length === 0) return { result: "unmatched" };
  if (isOtherReport(mail)) return { result: "automatic" };
  const messageId = messageIds(mail.messageId)[0] ?? `<${randomUUID()}@reply.invalid>`;

  return db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtextextended(${inbox.organization_id} || ${messageId}, 0))::text`;
    const original = await findOriginal(tx, inbox.organization_id, candidates);
    if (!original) return { result: "unmatched" as const };
    const seen = await tx.email.findFirst({
      where: { organization_id: inbox.organization_id, direction: "inbound", message_id: messageId },
      select: { id: true },
    });
    if (seen) return { result: "duplicate" as const };

    const threadId = await ensureThread(tx, original);
    const from = firstAddress(mail.from);
    const to = firstAddress(mail.to);
    const replyTo = firstAddress(mail.replyTo);
    const receivedAt = new Date();
    const reply = await tx.email.create({
      data: {
        organization_id: inbox.organization_id,
        message_id: clean(messageId, 998)!,
        direction: "inbound",
        status: "received",
        from_email: clean(from?.address?.toLowerCase(), limits.email) ?? "",
        from_name: clean(from?.name, limits.name),
        to_email: clean(to?.address?.toLowerCase(), limits.email) ?? original.from_email,
        reply_to: clean(replyTo?.address?.toLowerCase(), limits.email),
        subject: clean(mail.subject, limits.subject) ?? "",
        html_content: clean(mail.html || null, limits.html),
        text_content: clean(mail.text, limits.text),
        contact_id: original.contact_id,
        inbox_id: inbox.id,
        thread_id: threadId,
        parent_email_id: original.id,
        in_reply_to: clean(messageIds(mail.inReplyTo)[0], 998),
        references: messageIds(mail.references).map((id) => id.slice(0, 998)),
        sent_at: mail.date && !Number.isNaN(mail.date.getTime()) ? mail.date : null,
        attachments: mail.attachments.map((a) => ({ filename: clean(a.filename, 500), content_type: a.contentType, size: a.size })),
        headers: { "message-id": messageId, "in-reply-to": mail.inReplyTo ?? null, date: mail.date?.toISOString() ?? null },
      },
      select: { id: true, from_email: true, subject: true },
    });

    // Counted once per recipient of the broadcast, however many of its emails they answer.
    const [{ repliedBefore }] =
      original.broadcast_id && original.contact_id
        ? await tx.$queryRaw<{ repliedBefore: boolean }[]>`
          SELECT EXISTS (SELECT 1 FROM emails WHERE broadcast_id = ${original.broadcast_id}::uuid
            AND contact_id = ${original.contact_id}::uuid AND replied_at IS NOT NULL) AS "repliedBefore"`
        : [{ repliedBefore: true }];
    // Each message sets the category from its own words, whatever a person chose before: it is news.
    // The same rules decide the path below, so an out-of-office thread is exactly a held sender's.
    const category = categorizeReply(mail, original.subject);
    await tx.$executeRaw`UPDATE threads SET last_message_at = ${receivedAt}, category = ${category}::"ThreadCategory", updated_at = now()
      WHERE id = ${threadId}::uuid AND organization_id = ${inbox.organization_id}::uuid`;
    if (category === "out_of_office") {
      const heldUntil = await holdSender(tx, original, mail, receivedAt);
      return { result: "auto_reply" as const, emailId: reply.id, repliedToId: original.id, threadId, heldUntil };
    }
    await tx.$executeRaw`UPDATE emails SET replied_at = ${receivedAt}, updated_at = now() WHERE id = ${original.id}::uuid AND replied_at IS NULL`;
    if (original.broadcast_id && original.contact_id) {
      if (!repliedBefore) {
        await tx.$executeRaw`UPDATE broadcasts SET replied_count = replied_count + 1, updated_at = now() WHERE id = ${original.broadcast_id}::uuid`;
      }
      await leaveSequence(tx, { broadcastId: original.broadcast_id, contactId: original.contact_id, reason: "replied" });
    }
    const domain = reply.from_email.includes("@") ? domainOf(reply.from_email) : "";
    if (original.broadcast_id && domain && !isFreeMailDomain(domain)) {
      await stopForCompany(tx, { organizationId: original.organization_id, broadcastId: original.broadcast_id, domain });
    }
    if (original.automation_run_id) await endRunOnReply(tx, original.organization_id, original.automation_run_id);
    const replyData = { email_id: reply.id, from: reply.from_email, subject: reply.subject, message_id: messageId, received_at: receivedAt.toISOString() };
    await recordEvent(tx, {
      organizationId: original.organization_id,
      name: "email.replied",
      source: "replies",
      contactId: original.contact_id,
      emailId: original.id,
      broadcastId: original.broadcast_id,
      automationId: original.automation_id,
      occurredAt: receivedAt,
      properties: { reply: replyData },
    });
    return { result: "stored" as const, emailId: reply.id, repliedToId: original.id, threadId };
  });
}

/**
 * Whether a message, judged by its headers alone, can be anything `recordRawReply` records: a
 * delivery report or complaint, or a message naming earlier ones (In-Reply-To, References). The
 * poller reads the rest of a message only when this holds.
 */
export function mayBeReplyOrReport(headers: ParsedMail): boolean {
  return isFeedbackReport(headers) || replyCandidates(headers.inReplyTo, headers.references).length > 0;
}

/**
 * `recordReply` for a raw RFC 822 message, as IMAP hands it over. A delivery status notification
 * or a complaint report is not a reply: it is queued for the worker to record against the email
 * it quotes (bounced, delivered, complained), as if it had come to the return path.
 */
export async function recordRawReply(inbox: ReceivingInbox, source: Buffer | string): Promise<ReplyOutcome> {
  const mail = await simpleParser(source, { skipImageLinks: true, skipTextToHtml: true });
  if (isFeedbackReport(mail)) {
    await queueInboxReport(inbox, Buffer.isBuffer(source) ? source : Buffer.from(source, "utf8"));
    return { result: "report" };
  }
  return recordReply(inbox, mail);
}
