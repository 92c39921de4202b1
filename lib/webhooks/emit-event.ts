import { recordEvents } from "@/lib/events/record";
import type { EventSource } from "@/lib/events/types";
import type { WebhookEventType } from "@/lib/schemas/webhooks";
import type { DbClient } from "@/lib/services/owned-records";

export type WebhookEvent = { organizationId: string; type: WebhookEventType; data: Record<string, unknown>; source?: EventSource };

/**
 * Records an event that is about neither one contact nor one email (`broadcast.sent`,
 * `domain.updated`), its webhook `data` given whole, in the caller's transaction: lib/events
 * announces it and the dispatcher queues a delivery for every enabled webhook subscribed to its
 * type. Facts about contacts and emails are recorded by their recorders with recordEvents.
 */
export async function emitEvent(client: DbClient, { organizationId, type, data, source = "system" }: WebhookEvent): Promise<void> {
  await recordEvents(client, [{ organizationId, name: type, source, payload: data }]);
}
