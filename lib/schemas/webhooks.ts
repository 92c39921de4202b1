import { z } from "zod";
import { WebhookDeliveryStatus } from "@/lib/generated/prisma/enums";
import { dateTime, id, limits } from "./common";

export const webhookEventTypes = [
  "email.sent",
  "email.delivered",
  "email.opened",
  "email.clicked",
  "email.bounced",
  "email.complained",
  "email.replied",
  "contact.created",
  "contact.updated",
  "contact.unsubscribed",
  "broadcast.sent",
  "domain.updated",
  "inbox.failed",
] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];

const webhookEventType = z.enum(webhookEventTypes);

const webhookUrl = z
  .url({ protocol: /^https?$/, message: "must be an http or https URL" })
  .max(limits.url)
  .refine((url) => !url.includes("\u0000"), "must not contain NUL characters")
  .meta({ description: "Where events are POSTed, signed on the Standard Webhooks scheme." });

// Repeats are harmless to the subscriber, so they are dropped rather than refused.
const webhookEvents = z
  .array(webhookEventType)
  .min(1)
  .max(webhookEventTypes.length * 2)
  .transform((events) => [...new Set(events)]);

export const createWebhookInput = z.object({ url: webhookUrl, events: webhookEvents });
export type CreateWebhookInput = z.infer<typeof createWebhookInput>;

export const updateWebhookInput = z.object({ url: webhookUrl.optional(), events: webhookEvents.optional() });
export type UpdateWebhookInput = z.infer<typeof updateWebhookInput>;

export const webhook = z.object({
  id,
  organization_id: id,
  url: z.string(),
  events: z.array(webhookEventType),
  active: z.boolean(),
  failure_count: z.number().meta({ description: "Consecutive failed deliveries; reset by a success or by enabling." }),
  disabled_reason: z.string().nullable().meta({ description: "Why the service disabled the webhook, if it did." }),
  created_at: dateTime,
  updated_at: dateTime,
});
webhook.register(z.globalRegistry, { id: "Webhook" });

export const createdWebhook = webhook.extend({
  secret: z.string().meta({ description: "The signing secret (`whsec_…`). Shown once." }),
});

export const toggledWebhook = z.object({ success: z.boolean(), active: z.boolean() });

export const webhookDelivery = z.object({
  id,
  webhook_id: id,
  event_type: z.string(),
  status: z.enum(WebhookDeliveryStatus),
  attempts: z.number(),
  response_status: z.number().nullable(),
  last_error: z.string().nullable(),
  created_at: dateTime,
  delivered_at: dateTime.nullable(),
  next_attempt_at: dateTime.nullable(),
});
webhookDelivery.register(z.globalRegistry, { id: "WebhookDelivery" });
