import { Prisma } from "@/lib/db";
import type { WebhookAttemptTrigger } from "@/lib/generated/prisma/enums";
import { WEBHOOK_ATTEMPTS_KEPT } from "@/lib/schemas/webhooks";
import type { AttemptResult } from "./attempt";

/**
 * One statement that writes an attempt of a delivery into its log and drops the ones past the
 * newest WEBHOOK_ATTEMPTS_KEPT: replays are rate limited, but could otherwise pile up on one
 * delivery, each with up to 2 KB of answer. (The DELETE does not see the row its own statement
 * inserts, so it keeps one fewer.)
 */
export function recordAttemptSql(organizationId: string, deliveryId: string, trigger: WebhookAttemptTrigger, attempt: AttemptResult): Prisma.Sql {
  return Prisma.sql`
    WITH logged AS (
      INSERT INTO webhook_delivery_attempts (organization_id, delivery_id, trigger, url, request_headers, response_status,
        response_body, response_body_truncated, error, succeeded, duration_ms, attempted_at)
      VALUES (${organizationId}::uuid, ${deliveryId}::uuid, ${trigger}::"WebhookAttemptTrigger", ${attempt.url},
        ${JSON.stringify(attempt.requestHeaders)}::jsonb, ${attempt.responseStatus}::int, ${attempt.responseBody},
        ${attempt.responseBodyTruncated}, ${attempt.error}, ${attempt.ok}, ${attempt.durationMs}::int, ${attempt.attemptedAt})
      RETURNING id
    )
    DELETE FROM webhook_delivery_attempts
    WHERE organization_id = ${organizationId}::uuid AND delivery_id = ${deliveryId}::uuid
      AND id IN (
        SELECT id FROM webhook_delivery_attempts
        WHERE organization_id = ${organizationId}::uuid AND delivery_id = ${deliveryId}::uuid
        ORDER BY attempted_at DESC, id DESC
        OFFSET ${WEBHOOK_ATTEMPTS_KEPT - 1})`;
}

/** The delivery's last answer, kept on the delivery row too (the list shows it without reading the log). */
export const lastAnswerSql = (attempt: AttemptResult) => Prisma.sql`
  response_status = ${attempt.responseStatus}::int, last_error = ${attempt.error},
  last_attempt_at = ${attempt.attemptedAt}, duration_ms = ${attempt.durationMs}::int, updated_at = now()`;
