import type { Email } from "@/lib/generated/prisma/client";
import type { AddressObject, ParsedMail } from "mailparser";
import { domainOf } from "@/lib/domain/addresses";
import { limits } from "@/lib/schemas/common";
import { awayUntil } from "./auto-reply";
import { categorizeReply } from "./categorize";
import { isFreeMailDomain } from "./free-mail";
import { messageIds } from "./message-ids";
import type { ReplyRow } from "./record-replies-sql";

/** The outbound email a reply answers, with the time zones its sender's return date is read in. */
export type Original = Pick<
  Email,
  | "id"
  | "organization_id"
  | "message_id"
  | "broadcast_id"
  | "contact_id"
  | "inbox_id"
  | "thread_id"
  | "from_email"
  | "subject"
  | "automation_id"
  | "automation_run_id"
> & { contact_timezone: string | null; organization_timezone: string };

// PostgreSQL text cannot hold U+0000, nor JSON a lone surrogate: a hostile message is not allowed to make the batch fail.
const clean = (value: string | undefined | null, max: number) =>
  value
    ? value
        .replace(/\u0000/g, "")
        .slice(0, max)
        .toWellFormed()
    : null;

const firstAddress = (field: AddressObject | AddressObject[] | undefined) => (Array.isArray(field) ? field[0] : field)?.value.find((a) => a.address);

/**
 * A reply as the batch's statement records it (record-replies-sql.ts): its fields, bounded; its
 * thread's category by the rules (categorize.ts); for an out-of-office answer, until when its sender
 * is away (auto-reply.ts, in the contact's zone, else the organization's: null when they are back
 * already); for a reply to a broadcast, the company it stops (not a free-mail domain).
 */
export function replyRow(position: number, mail: ParsedMail, messageId: string, original: Original, receivedAt: Date): ReplyRow {
  const from = firstAddress(mail.from);
  const to = firstAddress(mail.to);
  const replyTo = firstAddress(mail.replyTo);
  const fromEmail = clean(from?.address?.toLowerCase(), limits.email) ?? "";
  // Each message sets the category from its own words, whatever a person chose before: it is news.
  // The same rules decide what it does, so an out-of-office thread is exactly a held sender's.
  const category = categorizeReply(mail, original.subject);
  const automatic = category === "out_of_office";
  const until = automatic && original.contact_id ? awayUntil(mail, receivedAt, original.contact_timezone ?? original.organization_timezone ?? "UTC") : null;
  const domain = fromEmail.includes("@") ? domainOf(fromEmail) : "";
  const sentAt = mail.date && !Number.isNaN(mail.date.getTime()) ? mail.date.toISOString() : null;
  return {
    position,
    message_id: clean(messageId, 998)!,
    from_email: fromEmail,
    from_name: clean(from?.name, limits.name),
    to_email: clean(to?.address?.toLowerCase(), limits.email) ?? original.from_email,
    reply_to: clean(replyTo?.address?.toLowerCase(), limits.email),
    subject: clean(mail.subject, limits.subject) ?? "",
    html_content: clean(mail.html || null, limits.html),
    text_content: clean(mail.text, limits.text),
    in_reply_to: clean(messageIds(mail.inReplyTo)[0], 998),
    references: messageIds(mail.references).map((id) => clean(id, 998)!),
    sent_at: sentAt,
    attachments: mail.attachments.map((a) => ({ filename: clean(a.filename, 500), content_type: clean(a.contentType, 255) ?? "", size: a.size })),
    headers: { "message-id": clean(messageId, 998), "in-reply-to": clean(mail.inReplyTo, 998), date: sentAt },
    original_id: original.id,
    original_subject: original.subject,
    original_inbox_id: original.inbox_id,
    contact_id: original.contact_id,
    broadcast_id: original.broadcast_id,
    automation_id: original.automation_id,
    automation_run_id: original.automation_run_id,
    thread_id: original.thread_id,
    category,
    hold_until: until?.toISOString() ?? null,
    stop_domain: !automatic && original.broadcast_id && domain && !isFreeMailDomain(domain) ? domain : null,
  };
}
