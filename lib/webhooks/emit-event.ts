import { recordEvents } from "@/lib/events/record";
import type { EventSource } from "@/lib/events/types";
import type { WebhookEventData } from "@/lib/schemas/webhook-events";
import type { WebhookEventType } from "@/lib/schemas/webhooks";
import type { DbClient } from "@/lib/db";

/** A value as code writes it before JSON: a Date where the schema has the ISO string JSON.stringify makes of it. */
type AsWritten<T> = T extends string ? T | Date : T extends (infer U)[] ? AsWritten<U>[] : T extends object ? { [K in keyof T]: AsWritten<T[K]> } : T;

/** An event whose webhook `data` is given whole, typed by the payload schema the OpenAPI document shows for its type. */
export type WebhookEvent<T extends WebhookEventType = WebhookEventType> = {
  organizationId: string;
  type: T;
  data: AsWritten<WebhookEventData<T>>;
  source?: EventSource;
};

/**
 * Records an event that is about neither one contact nor one email (`broadcast.sent`,
 * `domain.updated`), its webhook `data` given whole, in the caller's transaction: lib/events
 * announces it and the dispatcher queues a delivery for every enabled webhook subscribed to its
 * type. Facts about contacts and emails are recorded by their recorders with recordEvents.
 */
export async function emitEvent<T extends WebhookEventType>(
  client: DbClient,
  { organizationId, type, data, source = "system" }: WebhookEvent<T>,
): Promise<void> {
  await recordEvents(client, [{ organizationId, name: type, source, payload: data }]);
}
