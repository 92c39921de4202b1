import { z } from "zod";
import { WebhookAttemptTrigger, WebhookDeliveryStatus } from "@/lib/generated/prisma/enums";
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
  "contact.subscribed",
  "contact.unsubscribed",
  "contact.topic_subscribed",
  "contact.topic_unsubscribed",
  "form.submitted",
  "broadcast.sent",
  "domain.updated",
  "inbox.failed",
] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];

const webhookEventType = z.enum(webhookEventTypes).meta({ id: "WebhookEventType" });

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

// Named: the create's body is these fields, both required (lib/openapi/schema-sharing.ts).
export const updateWebhookInput = z.object({ url: webhookUrl.optional(), events: webhookEvents.optional() }).meta({ id: "WebhookFields" });
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
  id: id.meta({ description: "The delivery, and the `webhook-id` header of every attempt to deliver it (replays included)." }),
  webhook_id: id,
  event_type: z.string(),
  status: z.enum(WebhookDeliveryStatus),
  attempts: z.number().meta({ description: "Requests made so far, replays included." }),
  response_status: z.number().nullable().meta({ description: "The HTTP status of the last attempt's answer; null when none came." }),
  last_error: z.string().nullable(),
  created_at: dateTime,
  delivered_at: dateTime.nullable(),
  next_attempt_at: dateTime.nullable(),
  last_attempt_at: dateTime.nullable(),
  duration_ms: z.number().int().nullable().meta({ description: "How long the last attempt took to be answered or to fail." }),
});
webhookDelivery.register(z.globalRegistry, { id: "WebhookDelivery" });

export const webhookDeliveryParams = z.object({ id, deliveryId: id });

/** The newest attempts of a delivery its log keeps (lib/webhooks/attempt-log.ts): automatic ones stop at 8, replays could pile up. */
export const WEBHOOK_ATTEMPTS_KEPT = 30;

const webhookDeliveryAttempt = z
  .object({
    id,
    trigger: z
      .enum(WebhookAttemptTrigger)
      .meta({ description: "`automatic`: the first try or a scheduled retry; `test`: a test event; `replay`: a replay asked for." }),
    attempted_at: dateTime,
    duration_ms: z.number().int(),
    succeeded: z.boolean().meta({ description: "Answered 2xx." }),
    request: z.object({
      url: z.string(),
      headers: z.record(z.string(), z.string()).meta({ description: "As sent, the Standard Webhooks signature included (the secret never is)." }),
    }),
    response: z
      .object({
        status: z.number().int(),
        body: z.string().meta({ description: "The start of the answer, at most 2 KB." }),
        body_truncated: z.boolean().meta({ description: "The answer was longer than `body`." }),
      })
      .nullable()
      .meta({ description: "Null when no answer came (refused address, connection error, timeout)." }),
    error: z.string().nullable(),
  })
  .meta({ id: "WebhookDeliveryAttempt", description: "One request of a delivery, as sent and answered." });

export const webhookDeliveryDetail = webhookDelivery
  .extend({
    request_body: z.string().meta({ description: "The JSON body every attempt sent (the event's payload), byte for byte as signed." }),
    attempt_log: z.array(webhookDeliveryAttempt).meta({ description: `Its attempts, newest first (the last ${WEBHOOK_ATTEMPTS_KEPT}).` }),
  })
  .meta({ id: "WebhookDeliveryDetail", description: "A delivery with what was sent and what came back, attempt by attempt." });
