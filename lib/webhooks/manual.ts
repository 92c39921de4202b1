import { db, Prisma } from "@/lib/db";
import { notFound } from "@/lib/domain/errors";
import type { Webhook, WebhookDelivery } from "@/lib/generated/prisma/client";
import { WEBHOOK_TEST_EVENT, type WebhookEventData } from "@/lib/schemas/webhook-events";
import { attemptDelivery, type AttemptOptions, type AttemptResult } from "./attempt";
import { lastAnswerSql, recordAttemptSql } from "./attempt-log";

type Endpoint = Pick<Webhook, "id" | "organization_id" | "url" | "secret_encrypted">;

const TEST_MESSAGE = "A test event sent from the dashboard or the API: nothing happened.";

/**
 * Sends a signed `webhook.test` event to the webhook now, whether or not it is enabled (the event
 * carries no data of the organization), and records it as a delivery of its own, tried once and
 * never retried. Answers the delivery's id.
 *
 * The delivery is written after the attempt, with it, so a process that dies mid-request leaves
 * no delivery pending forever. Its id and payload come from PostgreSQL first: the id is the
 * `webhook-id` sent, and the payload goes through jsonb as a stored one does, so the bytes sent
 * are the ones the delivery log shows (and a replay sends) for it.
 */
export async function sendTestDelivery(hook: Endpoint, options: AttemptOptions = {}): Promise<string> {
  const data: WebhookEventData<typeof WEBHOOK_TEST_EVENT> = { webhook_id: hook.id, message: TEST_MESSAGE };
  const event = { type: WEBHOOK_TEST_EVENT, created_at: new Date().toISOString(), data };
  const [made] = await db.$queryRaw<{ id: string; payload: unknown }[]>`SELECT uuid_v7()::text AS id, ${JSON.stringify(event)}::jsonb AS payload`;
  const attempt = await attemptDelivery({ deliveryId: made.id, url: hook.url, secretEncrypted: hook.secret_encrypted, payload: made.payload }, options);
  await db.$transaction(async (tx) => {
    // From the webhook's row: one deleted while the request was out leaves nothing behind.
    const inserted = await tx.$executeRaw`
      INSERT INTO webhook_deliveries (id, organization_id, webhook_id, event_type, payload, status, attempts, next_attempt_at,
        response_status, last_error, delivered_at, last_attempt_at, duration_ms, created_at, updated_at)
      SELECT ${made.id}::uuid, w.organization_id, w.id, ${WEBHOOK_TEST_EVENT}, ${JSON.stringify(made.payload)}::jsonb,
        ${attempt.ok ? "succeeded" : "failed"}::"WebhookDeliveryStatus", 1, NULL, ${attempt.responseStatus}::int, ${attempt.error},
        ${attempt.ok ? attempt.attemptedAt : null}, ${attempt.attemptedAt}, ${attempt.durationMs}::int, ${attempt.attemptedAt}, now()
      FROM webhooks w WHERE w.id = ${hook.id}::uuid AND w.organization_id = ${hook.organization_id}::uuid`;
    if (inserted === 0) throw notFound("Webhook");
    await tx.$executeRaw(recordAttemptSql(hook.organization_id, made.id, "test", attempt));
  });
  return made.id;
}

type Replayed = Pick<WebhookDelivery, "id" | "organization_id" | "event_type"> & { payload: unknown };

/**
 * Sends a delivery again now, under its own id (the same `webhook-id`, so a receiver that keeps
 * the ids it has handled can tell), signed anew, and adds the attempt to its log. It counts as one
 * of the delivery's attempts. Getting through makes the delivery succeeded (no retry is left to
 * make) and, for a real event, ends the webhook's failure streak as any success does; failing
 * changes neither its status nor when the worker tries it next.
 */
export async function replayDelivery(hook: Endpoint, delivery: Replayed, options: AttemptOptions = {}): Promise<AttemptResult> {
  const attempt = await attemptDelivery({ deliveryId: delivery.id, url: hook.url, secretEncrypted: hook.secret_encrypted, payload: delivery.payload }, options);
  const where = Prisma.sql`WHERE id = ${delivery.id}::uuid AND organization_id = ${hook.organization_id}::uuid`;
  await db.$transaction([
    db.$executeRaw(recordAttemptSql(hook.organization_id, delivery.id, "replay", attempt)),
    attempt.ok
      ? db.$executeRaw`
          UPDATE webhook_deliveries
          SET status = 'succeeded', attempts = attempts + 1, delivered_at = now(), next_attempt_at = NULL, ${lastAnswerSql(attempt)}
          ${where}`
      : db.$executeRaw`UPDATE webhook_deliveries SET attempts = attempts + 1, ${lastAnswerSql(attempt)} ${where}`,
    ...(attempt.ok && delivery.event_type !== WEBHOOK_TEST_EVENT
      ? [
          db.$executeRaw`
            UPDATE webhooks SET failure_count = 0, updated_at = now()
            WHERE id = ${hook.id}::uuid AND organization_id = ${hook.organization_id}::uuid AND failure_count <> 0`,
        ]
      : []),
  ]);
  return attempt;
}
