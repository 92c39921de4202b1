import type { WebhookEventType } from "@/lib/schemas/webhooks";
import type { DbClient } from "@/lib/services/owned-records";

export type WebhookEvent = { organizationId: string; type: WebhookEventType; data: Record<string, unknown> };

/**
 * Queues one delivery of the event for every enabled webhook of the organization subscribed to its
 * type, in a single INSERT … SELECT. Safe inside the caller's transaction: the deliveries exist
 * exactly when the change that caused them commits. The delivery task sends them.
 */
export async function emitEvent(client: DbClient, { organizationId, type, data }: WebhookEvent): Promise<void> {
  const payload = JSON.stringify({ type, created_at: new Date().toISOString(), data });
  await client.$executeRaw`
    INSERT INTO webhook_deliveries (organization_id, webhook_id, event_type, payload)
    SELECT organization_id, id, ${type}, ${payload}::jsonb
    FROM webhooks
    WHERE organization_id = ${organizationId}::uuid AND active AND ${type} = ANY(events)`;
}
