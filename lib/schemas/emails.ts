import { z } from "zod";
import { EmailDirection, EmailStatus } from "@/lib/generated/prisma/enums";
import { dateTime, id, limits, text } from "./common";
import { trackingFields } from "./tracking";

const emailStatus = z.enum(EmailStatus).meta({ id: "EmailStatus", description: "Where the email is in its life." });

/** Filters of `GET /v1/emails`; paging parameters are read by `parseEmailListPage`. */
export const listEmailsQuery = z.object({
  to: text(limits.email).optional().meta({ description: "Recipient address, case-insensitive partial match." }),
  broadcast_id: id.optional(),
  contact_id: id.optional().meta({ description: "The emails sent to (or received from) one contact." }),
  email_id: id.optional(),
  domain: text(253).optional().meta({ description: "Sender domain: the part of from_email after the @." }),
  template_id: id.optional(),
  status: emailStatus.optional(),
});
export type ListEmailsQuery = z.infer<typeof listEmailsQuery>;

export const emailPageQuery = z.object({
  page: z.coerce.number().int().min(1).optional().meta({ description: "Page number from 1 (page mode, the default)." }),
  limit: z.coerce.number().int().min(1).max(100).optional().meta({ description: "Page size, 1 to 100, default 20." }),
  after: z.string().optional().meta({ description: "Cursor mode: id of the last item of the current page." }),
  before: z.string().optional().meta({ description: "Cursor mode: id of the first item of the current page." }),
});

const jsonArray = z.array(z.unknown());

// Received replies record the same fields of theirs, with no content_id and at times no file name.
const emailAttachment = z.object({
  filename: z.string().nullable(),
  content_type: z.string(),
  size: z.number().int().meta({ description: "Bytes, decoded." }),
  content_id: z.string().nullable().optional().meta({ description: "Set for an inline image (`cid:`)." }),
});

export const email = z.object({
  id,
  organization_id: id,
  message_id: z.string(),
  direction: z.enum(EmailDirection).meta({ description: "outbound: sent by the platform; inbound: a received reply." }),
  from_email: z.string(),
  from_name: z.string().nullable(),
  to_email: z.string().meta({ description: "The recipient; for an email to several, the first of `to`." }),
  to: z
    .array(z.string())
    .meta({ description: "Every To address of an email sent with POST /v1/emails or over SMTP; empty for broadcast and sequence emails (to_email)." }),
  cc: z.array(z.string()),
  bcc: z.array(z.string()).meta({ description: "Envelope recipients that no header of the message names." }),
  reply_to: z.string().nullable().meta({ description: "One address, or several separated by commas." }),
  subject: z.string(),
  html_content: z.string().nullable(),
  text_content: z.string().nullable(),
  template_id: id.nullable(),
  broadcast_id: id.nullable(),
  thread_id: id.nullable(),
  parent_email_id: id.nullable(),
  contact_id: id.nullable(),
  inbox_id: id.nullable(),
  status: emailStatus,
  provider_message_id: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
  tags: z.array(z.string()),
  sent_at: dateTime.nullable(),
  delivered_at: dateTime.nullable(),
  opened_at: dateTime.nullable(),
  clicked_at: dateTime.nullable(),
  bounced_at: dateTime.nullable(),
  complained_at: dateTime.nullable(),
  bounce_type: z
    .enum(["hard", "soft"])
    .nullable()
    .meta({ description: "Extension: hard (5.x.x, permanent) or soft (4.x.x or delayed), from the last bounce." }),
  bounce_status: z.string().nullable().meta({ description: "Extension: the enhanced status code of the bounce, e.g. 5.1.1." }),
  bounce_diagnostic: z.string().nullable().meta({ description: "Extension: what the receiving server said." }),
  replied_at: dateTime.nullable(),
  unsubscribed_at: dateTime.nullable(),
  scheduled_at: dateTime.nullable(),
  created_at: dateTime,
  attachments: z.array(emailAttachment),
  clicked_links: jsonArray,
  opens: jsonArray,
  ...trackingFields,
});
emailAttachment.register(z.globalRegistry, { id: "EmailAttachment" });
email.register(z.globalRegistry, { id: "Email" });

const emailEvent = z.object({
  id,
  type: z.string().meta({ description: "e.g. sent, delivered, opened, clicked, bounced, complained, replied" }),
  data: z.record(z.string(), z.unknown()),
  created_at: dateTime,
});

export const emailDetail = email.extend({
  events: z.array(emailEvent).meta({ description: "Everything that happened to the email, oldest first." }),
  headers: z.record(z.string(), z.unknown()).meta({ description: "Headers of the message as sent or received." }),
});
emailDetail.register(z.globalRegistry, { id: "EmailDetail" });

export const emailPage = z.object({
  data: z.array(email),
  pagination: z.object({ page: z.number(), limit: z.number(), total: z.number(), pages: z.number() }),
});

/** An email's event times, as a field selection (the list's icons and the Email record's columns). */
export const EMAIL_EVENT_TIMES = { sent_at: true, delivered_at: true, opened_at: true, clicked_at: true, bounced_at: true, complained_at: true } as const;

/**
 * What the dashboard's emails list shows of an email. The first page the list gets with its page's
 * HTML carries only these fields: a page of 25 emails with their bodies would add each body to
 * the document.
 */
export const emailListRow = email.pick({
  id: true,
  direction: true,
  from_email: true,
  to_email: true,
  to: true,
  cc: true,
  bcc: true,
  subject: true,
  status: true,
  scheduled_at: true,
  created_at: true,
  ...EMAIL_EVENT_TIMES,
});
