import type { z } from "zod";
import { queryKeys } from "@/lib/client/query-keys";
import type { createdWebhook, webhook, webhookDeliveryDetail, WebhookEventType } from "@/lib/schemas/webhooks";

export type Webhook = z.infer<typeof webhook>;
export type CreatedWebhook = z.infer<typeof createdWebhook>;
export type WebhookDeliveryDetail = z.infer<typeof webhookDeliveryDetail>;
export type WebhookDeliveryAttempt = WebhookDeliveryDetail["attempt_log"][number];

/** "200 in 12 ms", "No answer within 10000 ms": how the last attempt of a delivery went, for a toast. */
export const outcomeOf = (d: Pick<WebhookDeliveryDetail, "response_status" | "last_error" | "duration_ms">) =>
  d.last_error ?? `HTTP ${d.response_status ?? "—"}${d.duration_ms === null ? "" : ` in ${d.duration_ms} ms`}`;

export const webhooksKey = queryKeys.webhooks.all();
export const deliveriesKey = queryKeys.webhooks.deliveries;

/** The event kinds grouped as a subscriber thinks of them, each with what triggers it. */
export const eventGroups: { label: string; events: { type: WebhookEventType; description: string }[] }[] = [
  {
    label: "Emails",
    events: [
      { type: "email.sent", description: "Handed to the mail server" },
      { type: "email.delivered", description: "The recipient's server reported delivery" },
      { type: "email.opened", description: "Opened by the recipient" },
      { type: "email.clicked", description: "A link was clicked" },
      { type: "email.bounced", description: "Refused or undeliverable (hard), or delayed (soft)" },
      { type: "email.complained", description: "Marked as spam" },
      { type: "email.replied", description: "The recipient replied" },
    ],
  },
  {
    label: "Contacts",
    events: [
      { type: "contact.created", description: "A contact was added" },
      { type: "contact.updated", description: "A contact changed" },
      { type: "contact.subscribed", description: "A contact subscribed (a form's confirmation, or turned on again)" },
      { type: "contact.unsubscribed", description: "A contact unsubscribed" },
      { type: "contact.topic_subscribed", description: "A contact opted in to a topic" },
      { type: "contact.topic_unsubscribed", description: "A contact opted out of a topic" },
    ],
  },
  { label: "Forms", events: [{ type: "form.submitted", description: "A signup form was submitted" }] },
  { label: "Broadcasts", events: [{ type: "broadcast.sent", description: "A broadcast finished sending" }] },
  { label: "Domains", events: [{ type: "domain.updated", description: "A DNS record of a domain appeared or disappeared" }] },
  { label: "Inboxes", events: [{ type: "inbox.failed", description: "An inbox kept failing to connect or sign in, and was set aside" }] },
];
