import type { OrgContext } from "@/lib/domain/context";
import { invalidField } from "@/lib/domain/errors";
import { domainOf } from "@/lib/domain/addresses";
import type { Inbox, Template } from "@/lib/generated/prisma/client";
import { parseSender, sendingLimits } from "@/lib/schemas/send-email";
import { contactValues, renderEmail, variableValues, type ContactFields, type PlaceholderValues, type RenderedEmail } from "@/lib/templating/render-email";
import { attachmentMeta } from "./email-attachments";
import { assertKeyMaySendFrom, recipientsOf, scheduleOf, type Recipients } from "./transactional-checks";
import type { EmailRequest } from "./transactional";

// An email's plan in two halves, so that a caller can put the database's checks where it likes
// between them: `prepare` needs nothing of the database beyond the inbox and template rows it is
// handed (the sender, the recipients, a sending key's domain), `finish` what depends on the
// recipient's contact (the rendering, its subject) and the schedule. createEmails reads the checks
// in one round trip between the two; SMTP submission's groups read them inside their one statement.

const orNull = (value: string | null | undefined) => (value ? value : null);

type Sender = { name: string | null; address: string };

/** What is decided about an email before any check of the database. */
export type Prepared = { request: EmailRequest; prefix: string; inbox: Inbox | null; template: Template | null; from: Sender; recipients: Recipients };

/** Everything decided about one email before anything is written. */
export type Planned = Prepared & { contactId: string | null; rendered: RenderedEmail; scheduledAt: Date | null };

export type PlanContact = ContactFields & { id: string };

/** The request's inbox, template, sender and recipients: 400 naming the field for an unknown inbox or template or no sender. */
export function prepare(request: EmailRequest, prefix: string, inboxes: ReadonlyMap<string, Inbox>, templates: ReadonlyMap<string, Template>): Prepared {
  const { input } = request;
  const inbox = input.inbox_id ? (inboxes.get(input.inbox_id) ?? null) : null;
  if (input.inbox_id && !inbox) throw invalidField(`${prefix}inbox_id`, "no such inbox in this organization");
  const template = input.template_id ? (templates.get(input.template_id) ?? null) : null;
  if (input.template_id && !template) throw invalidField(`${prefix}template_id`, "no such template in this organization");
  const given = input.from ? parseSender(input.from) : null;
  const from = given ?? (inbox ? { name: inbox.from_name ?? inbox.name, address: inbox.from_email } : null);
  if (!from) throw invalidField(`${prefix}from`, "is required without an inbox_id");
  return { request, prefix, inbox, template, from, recipients: recipientsOf(input) };
}

/** 403 for a sending key's email from outside its domain (all of them named at once). */
export const assertKeyMaySendAll = (ctx: OrgContext, prepared: Prepared[]) =>
  assertKeyMaySendFrom(
    ctx,
    prepared.map((p) => ({ address: p.from.address, path: `${p.prefix}${p.request.input.from ? "from" : "inbox_id"}` })),
  );

/**
 * The email rendered for the contact of its first To address (placeholders from the request's
 * variables first) and its schedule. `askedContact`: told when a placeholder was left to the
 * contact, i.e. when the rendering depends on which contact (if any) the address has.
 */
export function finish(p: Prepared, contact: PlanContact | undefined, now: Date, askedContact?: () => void): Planned {
  const { input } = p.request;
  const fromVariables = variableValues(input.variables ?? {});
  const fromContact: PlaceholderValues = contact ? contactValues(contact) : () => undefined;
  const values = (name: string) => {
    const value = fromVariables(name);
    if (value !== undefined) return value;
    askedContact?.();
    return fromContact(name);
  };
  const rendered = renderEmail(
    {
      subject: input.subject ?? p.template?.subject ?? "",
      html: input.html ?? orNull(p.template?.html_content),
      text: input.text ?? orNull(p.template?.text_content),
      previewText: input.template_id && !input.html ? p.template?.preview_text : null,
    },
    { values },
  );
  if (!rendered.subject) throw invalidField(`${p.prefix}subject`, "is required: the template has no subject");
  const scheduledAt = scheduleOf(input.scheduled_at, now, sendingLimits.scheduleDays, `${p.prefix}scheduled_at`);
  return { ...p, contactId: contact?.id ?? null, rendered, scheduledAt };
}

const replyToOf = (p: Planned) => {
  const given = p.request.input.reply_to;
  if (given !== undefined) return (typeof given === "string" ? [given] : given).map((a) => a.trim()).join(", ");
  return p.inbox?.reply_to ?? null;
};

/** One email as the insert reads it (jsonb_to_record): everything but the ids, which the database draws. */
export function emailRow(p: Planned, now: Date, idempotencyKey: string | null) {
  const headers = p.request.input.headers ?? {};
  return {
    idempotency_key: p.request.idempotencyKey ?? idempotencyKey,
    sender_domain: domainOf(p.from.address),
    from_email: p.from.address,
    from_name: p.from.name,
    to_email: p.recipients.to[0],
    to_addresses: p.recipients.to,
    cc: p.recipients.cc,
    bcc: p.recipients.bcc,
    reply_to: replyToOf(p),
    subject: p.rendered.subject,
    html_content: p.rendered.html,
    text_content: p.rendered.text,
    template_id: p.template?.id ?? null,
    contact_id: p.contactId,
    inbox_id: p.inbox?.id ?? null,
    tags: p.request.input.tags ?? [],
    custom_headers: headers,
    attachments: p.request.attachments.map(attachmentMeta),
    status: p.scheduledAt !== null && p.scheduledAt > now ? "scheduled" : "queued",
    scheduled_at: p.scheduledAt?.toISOString() ?? null,
    track_opens: p.request.input.track_opens ?? true,
    track_clicks: p.request.input.track_clicks ?? true,
    utm: p.request.input.utm ?? null,
  };
}
