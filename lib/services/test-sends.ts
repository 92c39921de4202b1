import { randomUUID } from "node:crypto";
import type { OrgContext } from "@/lib/domain/context";
import { AppError, invalidField, notFound } from "@/lib/domain/errors";
import { openSecret } from "@/lib/crypto/secret-box";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import type { Contact, Inbox } from "@/lib/generated/prisma/client";
import { mimeMessage } from "@/lib/sending/mime-message";
import type { RenderSource } from "@/lib/templating/render-email";
import { Transports } from "@/lib/sending/transports";
import { preferencesUrl } from "@/lib/sending/preference-token";
import { unsubscribeUrls } from "@/lib/sending/unsubscribe-token";
import { viewInBrowserUrl } from "@/lib/sending/view-in-browser";
import type { TestSendInput } from "@/lib/schemas/test-sends";
import type { Utm } from "@/lib/schemas/tracking";
import { withUtmOnly } from "@/lib/tracking/add-tracking";
import { domainOf } from "@/lib/domain/addresses";
import { broadcastContent } from "./broadcast-content";
import { renderForContact } from "./render-for-contact";
import { assertInboxesVerified, assertProvenSender } from "./sender-proof";
import { consumeQuota } from "./usage-windows";

const orNull = (value: string | null | undefined) => (value ? value : null);

type Sender = { name: string; address: string; replyTo: string | null; inbox: Inbox | null };
// `utm`: a broadcast's or step's UTM parameters, on the test's links as on the real send's (templates have none).
type Content = { source: RenderSource; doc: unknown; sender: Sender; marketing: boolean; utm?: Utm | null };

export const testSendQuota = () => ({ action: "test_send", limit: env.testSendsPerHour, windowMs: 3_600_000, what: "test emails" });

async function findInbox(ctx: OrgContext, id: string | null | undefined): Promise<Inbox | null> {
  if (!id) return null;
  return db.inbox.findFirst({ where: { id, organization_id: ctx.organizationId } });
}

/**
 * The sender a real send would use, held to the same rules: through an inbox (the one chosen, or
 * the first of a rotation, under its own identity) or through the relay from a verified domain.
 */
async function senderOf(
  ctx: OrgContext,
  fields: { from_email: string | null; from_name: string | null; reply_to: string | null; inbox_id: string | null; inbox_ids?: string[] },
): Promise<Sender> {
  const rotation = fields.inbox_ids?.length ? await findInbox(ctx, fields.inbox_ids[0]) : null;
  if (rotation) {
    await assertInboxesVerified(db, ctx, [{ id: rotation.id, path: "inbox_ids.0" }]);
    return { name: rotation.from_name ?? rotation.name, address: rotation.from_email, replyTo: rotation.reply_to ?? fields.reply_to, inbox: rotation };
  }
  const inbox = await findInbox(ctx, fields.inbox_id);
  const address = fields.from_email ?? inbox?.from_email;
  if (!address) throw invalidField("from_email", "a sender is required to send a test: from_email or inbox_id");
  // The rules of a real send (lib/services/sender-proof.ts): a proven inbox, and an address it or a verified domain may use.
  if (inbox) await assertInboxesVerified(db, ctx, [{ id: inbox.id, path: "inbox_id" }]);
  await assertProvenSender(db, ctx, address, "from_email", inbox ? { inbox } : { relay: true });
  return { name: fields.from_name ?? inbox?.from_name ?? inbox?.name ?? "", address, replyTo: fields.reply_to ?? inbox?.reply_to ?? null, inbox };
}

async function broadcastTestContent(ctx: OrgContext, id: string, stepId: string | undefined): Promise<Content> {
  const { broadcast, step, source, doc } = await broadcastContent(ctx, id, stepId);
  if (!source.html && !source.text) {
    throw invalidField("html_content", stepId ? "the step has no content yet" : "the broadcast has no content yet: write it or choose a template");
  }
  // A step's tracking settings are its own, as the sender reads them (lib/tracking/track-outgoing.ts).
  return { source, doc, sender: await senderOf(ctx, broadcast), marketing: true, utm: (step ?? broadcast).utm as Utm | null };
}

async function templateContent(ctx: OrgContext, id: string): Promise<Content> {
  const t = await db.template.findFirst({ where: { id, organization_id: ctx.organizationId } });
  if (!t) throw notFound("Template");
  if (!t.html_content && !t.text_content) throw invalidField("html_content", "the template has no content yet");
  const source = { subject: t.subject, html: orNull(t.html_content), text: orNull(t.text_content), previewText: t.preview_text };
  // A template is sent as marketing mail by broadcasts: the test shows the unsubscribe footer it will get.
  return { source, doc: t.content_json, sender: await senderOf(ctx, t), marketing: true };
}

async function dkimFor(ctx: OrgContext, address: string) {
  const domain = await db.domain.findFirst({
    where: { organization_id: ctx.organizationId, name: domainOf(address), status: "verified", dkim_private_key_encrypted: { not: null } },
    select: { name: true, dkim_selector: true, dkim_private_key_encrypted: true },
  });
  if (!domain?.dkim_private_key_encrypted) return undefined;
  try {
    return { domainName: domain.name, keySelector: domain.dkim_selector, privateKey: openSecret(domain.dkim_private_key_encrypted) };
  } catch {
    return undefined;
  }
}

/**
 * Sends the content, rendered as one contact (or with every fallback), to a few reviewers. It
 * writes no email, thread or event and moves no counter: a test is not a send. Each address
 * counts against the organization's hourly allowance of tests.
 */
async function sendTest(ctx: OrgContext, content: Content, input: TestSendInput) {
  let contact: Contact | null = null;
  if (input.contact_id) {
    contact = await db.contact.findFirst({ where: { id: input.contact_id, organization_id: ctx.organizationId } });
    if (!contact) throw invalidField("contact_id", "no such contact in this organization");
  }
  const emails = [...new Set(input.emails.map((email) => email.trim()))];
  const quota = await consumeQuota(ctx, testSendQuota(), emails.length);

  // Links that look and work like the real ones; they name no email, so their pages say they are not valid.
  const unsubscribe = content.marketing ? unsubscribeUrls(randomUUID()).page : null;
  const preferences = content.marketing ? preferencesUrl(randomUUID()) : null;
  const extra: Record<string, string> =
    unsubscribe && preferences ? { unsubscribe_url: unsubscribe, preferences_url: preferences, view_in_browser_url: viewInBrowserUrl(randomUUID()) } : {};
  const rendered = await renderForContact(ctx, content, contact, extra, { unsubscribeUrl: unsubscribe, preferencesUrl: preferences });
  const { html, text } = withUtmOnly(rendered, content.utm);
  const subject = `[Test] ${rendered.subject}`;
  const { sender } = content;
  const dkim = await dkimFor(ctx, sender.address);

  const transports = new Transports(env.smtpRelayUrl);
  try {
    const sent: { email: string; message_id: string }[] = [];
    for (const to of emails) {
      const messageId = `<test-${randomUUID()}@${domainOf(sender.address)}>`;
      const { envelope, raw } = mimeMessage({
        from: { name: sender.name, address: sender.address },
        to,
        replyTo: sender.replyTo,
        subject,
        messageId,
        headers: { "X-Mailplatform-Test": "1" },
        text,
        html,
      });
      const transport = sender.inbox ? transports.forInbox(sender.inbox) : transports.relay();
      try {
        await transport.sendMail({ envelope, raw, messageId, dkim });
      } catch (error) {
        const reason = (error as { response?: string; message?: string }).response ?? (error as Error).message ?? String(error);
        throw new AppError("MAIL_DELIVERY_FAILED", `The test to ${to} could not be sent: ${String(reason).slice(0, 300)}`, sent.length ? { sent } : undefined);
      }
      sent.push({ email: to, message_id: messageId });
    }
    return {
      subject,
      from: sender.name ? `${sender.name} <${sender.address}>` : sender.address,
      contact_id: contact?.id ?? null,
      sent,
      remaining_this_hour: Math.max(0, quota.limit - quota.used),
    };
  } finally {
    transports.close();
  }
}

export async function sendBroadcastTest(ctx: OrgContext, broadcastId: string, input: TestSendInput) {
  return sendTest(ctx, await broadcastTestContent(ctx, broadcastId, input.step_id), input);
}

export async function sendTemplateTest(ctx: OrgContext, templateId: string, input: TestSendInput) {
  return sendTest(ctx, await templateContent(ctx, templateId), input);
}
