import { randomUUID } from "node:crypto";
import type { OrgContext } from "@/lib/domain/context";
import { AppError, invalidField } from "@/lib/domain/errors";
import type { Prisma } from "@/lib/db";
import { normalizeEmail } from "@/lib/schemas/common";
import { parseSender, type SendEmailInput } from "@/lib/schemas/send-email";
import { emailSelect } from "@/lib/services/emails";
import { domainOf } from "@/lib/services/sender-domains";
import { assertInboxesVerified, assertProvenSender } from "@/lib/services/sender-proof";
import { withIdempotency } from "./idempotency";
import { contactValues, renderEmail, variableValues, type PlaceholderValues } from "@/lib/templating/render-email";

const orNull = (value: string | null | undefined) => (value ? value : null);

/**
 * An address that bounced, complained or unsubscribed is not sent to: the caller hears it now
 * (422 RECIPIENT_SUPPRESSED, with why and since when) rather than from an email cancelled later.
 */
async function assertNotSuppressed(tx: Prisma.TransactionClient, organizationId: string, to: string) {
  const suppression = await tx.suppression.findUnique({
    where: { organization_id_email: { organization_id: organizationId, email: normalizeEmail(to) } },
    select: { reason: true, created_at: true },
  });
  if (!suppression) return;
  throw new AppError(
    "RECIPIENT_SUPPRESSED",
    `${normalizeEmail(to)} is suppressed (${suppression.reason} since ${suppression.created_at.toISOString()}) and is not sent to`,
    [{ path: "to", message: "is suppressed", reason: suppression.reason, suppressed_at: suppression.created_at.toISOString() }],
  );
}

async function createEmail(tx: Prisma.TransactionClient, ctx: OrgContext, input: SendEmailInput, idempotencyKey: string | null) {
  const organization_id = ctx.organizationId;
  const inbox = input.inbox_id ? await tx.inbox.findFirst({ where: { id: input.inbox_id, organization_id } }) : null;
  if (input.inbox_id && !inbox) throw invalidField("inbox_id", "no such inbox in this organization");
  const template = input.template_id ? await tx.template.findFirst({ where: { id: input.template_id, organization_id } }) : null;
  if (input.template_id && !template) throw invalidField("template_id", "no such template in this organization");

  const given = input.from ? parseSender(input.from) : null;
  const from = given ?? (inbox ? { name: inbox.from_name ?? inbox.name, address: inbox.from_email } : null);
  if (!from) throw invalidField("from", "is required without an inbox_id");
  if (inbox) await assertInboxesVerified(tx, ctx, [{ id: inbox.id, path: "inbox_id" }]);
  await assertProvenSender(tx, ctx, from.address, "from", inbox ? { inbox } : { relay: true });
  await assertNotSuppressed(tx, organization_id, input.to);

  const contact = await tx.contact.findFirst({ where: { organization_id, email: normalizeEmail(input.to) } });
  const fromVariables = variableValues(input.variables ?? {});
  const fromContact: PlaceholderValues = contact ? contactValues(contact) : () => undefined;
  const rendered = renderEmail(
    {
      subject: input.subject ?? template?.subject ?? "",
      html: input.html ?? orNull(template?.html_content),
      text: input.text ?? orNull(template?.text_content),
      previewText: input.template_id && !input.html ? template?.preview_text : null,
    },
    { values: (name) => fromVariables(name) ?? fromContact(name) },
  );
  if (!rendered.subject) throw invalidField("subject", "is required: the template has no subject");

  const id = randomUUID();
  const thread = await tx.thread.create({
    data: { organization_id, subject: rendered.subject, contact_id: contact?.id ?? null, inbox_id: inbox?.id ?? null },
  });
  return tx.email.create({
    data: {
      id,
      organization_id,
      message_id: `<${id}@${domainOf(from.address)}>`,
      from_email: from.address,
      from_name: from.name,
      to_email: input.to.trim(),
      reply_to: input.reply_to ?? inbox?.reply_to ?? null,
      subject: rendered.subject,
      html_content: rendered.html,
      text_content: rendered.text,
      template_id: template?.id ?? null,
      contact_id: contact?.id ?? null,
      inbox_id: inbox?.id ?? null,
      thread_id: thread.id,
      tags: input.tags ?? [],
      idempotency_key: idempotencyKey,
      status: "queued",
    },
    select: emailSelect,
  });
}

/**
 * `POST /v1/emails`: one email, rendered now (template and variables, text derived from HTML),
 * queued for the worker in its own thread. With an Idempotency-Key a repeat within 24 hours
 * answers the first answer instead of sending twice.
 */
export function sendTransactionalEmail(ctx: OrgContext, input: SendEmailInput, idempotencyKey: string | null) {
  return withIdempotency(ctx, idempotencyKey, input, (tx) => createEmail(tx, ctx, input, idempotencyKey));
}
