import type { OrgContext } from "@/lib/domain/context";
import { invalidField } from "@/lib/domain/errors";
import type { Prisma } from "@/lib/db";
import type { Inbox, Template } from "@/lib/generated/prisma/client";
import { normalizeEmail } from "@/lib/schemas/common";
import { parseSender, sendingLimits, type SendEmailInput } from "@/lib/schemas/send-email";
import { emailSelect } from "@/lib/services/emails";
import { domainOf } from "@/lib/services/sender-domains";
import { assertInboxesVerified, assertProvenSender } from "@/lib/services/sender-proof";
import { contactValues, renderEmail, variableValues, type PlaceholderValues, type RenderedEmail } from "@/lib/templating/render-email";
import { attachmentMeta, storeAttachments, type AttachmentFile } from "./email-attachments";
import { assertKeyMaySendFrom, assertNotSuppressed, recipientsOf, scheduleOf, type Recipients } from "./transactional-checks";

const orNull = (value: string | null | undefined) => (value ? value : null);

/** One email a request asks for: its fields and, for POST /v1/emails alone, its spooled attachments. */
export type EmailRequest = { input: SendEmailInput; attachments: AttachmentFile[] };

type Sender = { name: string | null; address: string };

/** Everything decided about one email before anything is written. */
type Planned = {
  request: EmailRequest;
  prefix: string;
  inbox: Inbox | null;
  template: Template | null;
  from: Sender;
  recipients: Recipients;
  contactId: string | null;
  rendered: RenderedEmail;
  scheduledAt: Date | null;
};

const byId = <T extends { id: string }>(rows: T[]) => new Map(rows.map((row) => [row.id, row]));
const distinct = (values: (string | undefined)[]) => [...new Set(values.filter((v): v is string => v !== undefined))];

async function plan(tx: Prisma.TransactionClient, ctx: OrgContext, requests: EmailRequest[], prefixed: boolean, now: Date): Promise<Planned[]> {
  const organization_id = ctx.organizationId;
  const prefixOf = (i: number) => (prefixed ? `${i}.` : "");
  const [inboxes, templates] = await Promise.all([
    tx.inbox.findMany({ where: { organization_id, id: { in: distinct(requests.map((r) => r.input.inbox_id)) } } }).then(byId),
    tx.template.findMany({ where: { organization_id, id: { in: distinct(requests.map((r) => r.input.template_id)) } } }).then(byId),
  ]);
  const partial = requests.map((request, i) => {
    const { input } = request;
    const inbox = input.inbox_id ? (inboxes.get(input.inbox_id) ?? null) : null;
    if (input.inbox_id && !inbox) throw invalidField(`${prefixOf(i)}inbox_id`, "no such inbox in this organization");
    const template = input.template_id ? (templates.get(input.template_id) ?? null) : null;
    if (input.template_id && !template) throw invalidField(`${prefixOf(i)}template_id`, "no such template in this organization");
    const given = input.from ? parseSender(input.from) : null;
    const from = given ?? (inbox ? { name: inbox.from_name ?? inbox.name, address: inbox.from_email } : null);
    if (!from) throw invalidField(`${prefixOf(i)}from`, "is required without an inbox_id");
    return { request, prefix: prefixOf(i), inbox, template, from, recipients: recipientsOf(input) };
  });

  assertKeyMaySendFrom(
    ctx,
    partial.map((p) => ({ address: p.from.address, path: `${p.prefix}${p.request.input.from ? "from" : "inbox_id"}` })),
  );
  const viaInbox = partial.filter((p) => p.inbox);
  if (viaInbox.length > 0)
    await assertInboxesVerified(
      tx,
      ctx,
      viaInbox.map((p) => ({ id: p.inbox!.id, path: `${p.prefix}inbox_id` })),
    );
  // One check per distinct sender and path: a batch of a hundred from one address asks once.
  const proven = new Set<string>();
  for (const p of partial) {
    const key = `${p.from.address.toLowerCase()}|${p.inbox?.id ?? ""}`;
    if (proven.has(key)) continue;
    await assertProvenSender(tx, ctx, p.from.address, `${p.prefix}from`, p.inbox ? { inbox: p.inbox } : { relay: true });
    proven.add(key);
  }
  await assertNotSuppressed(tx, organization_id, partial);

  const contacts = await tx.contact.findMany({ where: { organization_id, email: { in: distinct(partial.map((p) => normalizeEmail(p.recipients.to[0]))) } } });
  const contactByEmail = new Map(contacts.map((c) => [c.email, c]));
  return partial.map((p) => {
    const { input } = p.request;
    const contact = contactByEmail.get(normalizeEmail(p.recipients.to[0]));
    const fromVariables = variableValues(input.variables ?? {});
    const fromContact: PlaceholderValues = contact ? contactValues(contact) : () => undefined;
    const rendered = renderEmail(
      {
        subject: input.subject ?? p.template?.subject ?? "",
        html: input.html ?? orNull(p.template?.html_content),
        text: input.text ?? orNull(p.template?.text_content),
        previewText: input.template_id && !input.html ? p.template?.preview_text : null,
      },
      { values: (name) => fromVariables(name) ?? fromContact(name) },
    );
    if (!rendered.subject) throw invalidField(`${p.prefix}subject`, "is required: the template has no subject");
    const scheduledAt = scheduleOf(input.scheduled_at, now, sendingLimits.scheduleDays, `${p.prefix}scheduled_at`);
    return { ...p, contactId: contact?.id ?? null, rendered, scheduledAt };
  });
}

/** Ids for the new threads and emails, time-ordered as the database's own defaults are. */
async function newIds(tx: Prisma.TransactionClient, count: number): Promise<string[]> {
  const rows = await tx.$queryRaw<{ id: string }[]>`SELECT uuid_v7()::text AS id FROM generate_series(1, ${count}::int)`;
  return rows.map((row) => row.id);
}

const replyToOf = (p: Planned) => {
  const given = p.request.input.reply_to;
  if (given !== undefined) return (typeof given === "string" ? [given] : given).map((a) => a.trim()).join(", ");
  return p.inbox?.reply_to ?? null;
};

/**
 * Creates the emails of one request in the caller's transaction, set-based: one lookup of inboxes,
 * templates, suppressions and contacts for all of them, one insert of their threads and one of the
 * emails (a batch of 100 costs about what one does, plus the rendering). All or nothing: any email
 * refused refuses the request, its issues naming the index. Answers the new ids in request order.
 */
export async function createEmails(
  tx: Prisma.TransactionClient,
  ctx: OrgContext,
  requests: EmailRequest[],
  options: { idempotencyKey: string | null; batch: boolean; now?: Date },
): Promise<string[]> {
  const organization_id = ctx.organizationId;
  const now = options.now ?? new Date();
  const planned = await plan(tx, ctx, requests, options.batch, now);
  const ids = await newIds(tx, planned.length * 2);
  const emailIds = planned.map((_, i) => ids[2 * i]);
  await tx.thread.createMany({
    data: planned.map((p, i) => ({ id: ids[2 * i + 1], organization_id, subject: p.rendered.subject, contact_id: p.contactId, inbox_id: p.inbox?.id ?? null })),
  });
  await tx.email.createMany({
    data: planned.map((p, i) => {
      const id = emailIds[i];
      const scheduled = p.scheduledAt !== null && p.scheduledAt > now;
      const headers = p.request.input.headers ?? {};
      return {
        id,
        organization_id,
        message_id: `<${id}@${domainOf(p.from.address)}>`,
        from_email: p.from.address,
        from_name: p.from.name,
        to_email: p.recipients.to[0],
        to: p.recipients.to,
        cc: p.recipients.cc,
        bcc: p.recipients.bcc,
        reply_to: replyToOf(p),
        subject: p.rendered.subject,
        html_content: p.rendered.html,
        text_content: p.rendered.text,
        template_id: p.template?.id ?? null,
        contact_id: p.contactId,
        inbox_id: p.inbox?.id ?? null,
        thread_id: ids[2 * i + 1],
        tags: p.request.input.tags ?? [],
        custom_headers: headers,
        headers,
        attachments: p.request.attachments.map(attachmentMeta),
        api_key_id: ctx.apiKeyId,
        idempotency_key: options.idempotencyKey,
        status: scheduled ? "scheduled" : "queued",
        scheduled_at: p.scheduledAt,
      };
    }),
  });
  for (const [i, p] of planned.entries()) {
    if (p.request.attachments.length > 0) await storeAttachments(tx, organization_id, emailIds[i], p.request.attachments);
  }
  return emailIds;
}

/** The records of emails just created, in the order of `ids`. */
export async function emailRecords(tx: Prisma.TransactionClient, ctx: OrgContext, ids: string[]) {
  const rows = await tx.email.findMany({ where: { organization_id: ctx.organizationId, id: { in: ids } }, select: emailSelect });
  const byEmailId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byEmailId.get(id)!);
}
