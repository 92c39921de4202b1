import type { WebhookEventData } from "@/lib/schemas/webhook-events";

/** The email fields an `email.*` event carries, the same for every event type. */
export type EmailForEvent = {
  id: string;
  message_id: string;
  broadcast_id: string | null;
  contact_id: string | null;
  thread_id: string | null;
  from_email: string;
  to_email: string;
  subject: string;
  tags: string[];
  created_at: Date;
};

/**
 * `data` of an `email.*` webhook event; `extra` adds what the event type knows (the link clicked, …).
 * The common part is typed by the payload schema the OpenAPI document shows (`EmailEventData`).
 */
export function emailEventData<Extra extends Record<string, unknown>>(
  email: EmailForEvent,
  extra: Extra = {} as Extra,
): WebhookEventData<"email.sent"> & Extra {
  return {
    email_id: email.id,
    message_id: email.message_id,
    broadcast_id: email.broadcast_id,
    contact_id: email.contact_id,
    thread_id: email.thread_id,
    from: email.from_email,
    to: [email.to_email],
    subject: email.subject,
    tags: email.tags,
    created_at: email.created_at.toISOString(),
    ...extra,
  };
}
