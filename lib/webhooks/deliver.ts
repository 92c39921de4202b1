import type { Webhook as WebhookRow, WebhookDelivery } from "@/lib/generated/prisma/client";
import { db, Prisma } from "@/lib/db";
import { WEBHOOK_TEST_EVENT } from "@/lib/schemas/webhook-events";
import { attemptDelivery, type AttemptOptions, type AttemptResult } from "./attempt";
import { lastAnswerSql, recordAttemptSql } from "./attempt-log";

/** Wait before attempt n+1 after n failed attempts; the last failure ends the delivery (about 43 hours in all). */
export const RETRY_DELAYS_SECONDS = [30, 120, 600, 3_600, 6 * 3_600, 12 * 3_600, 24 * 3_600] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;

/** A webhook is disabled once it has failed this many attempts in a row… */
export const DISABLE_AFTER_FAILURES = 8;
/** …and has been failing, with no success in between, for at least this long. */
const DISABLE_AFTER_HOURS = 24;

// A claimed delivery is pushed this far into the future, so no other worker takes it while it
// is in flight; a worker that dies mid-delivery leaves it to be retried when the lease runs out.
const LEASE_SECONDS = 300;

export type DeliverOptions = AttemptOptions & {
  batchSize?: number;
  /** Only this organization's deliveries (tests share one database). */
  organizationId?: string;
  concurrency?: number;
};

type Claimed = Pick<WebhookDelivery, "id" | "organization_id" | "webhook_id" | "attempts"> &
  Pick<WebhookRow, "url" | "secret_encrypted"> & { payload: unknown };

async function claim(batchSize: number, organizationId: string | null): Promise<Claimed[]> {
  return db.$queryRaw<Claimed[]>`
    UPDATE webhook_deliveries d
    SET next_attempt_at = now() + make_interval(secs => ${LEASE_SECONDS}), updated_at = now()
    FROM webhooks w
    WHERE w.id = d.webhook_id
      AND d.id IN (
        SELECT p.id FROM webhook_deliveries p JOIN webhooks pw ON pw.id = p.webhook_id
        WHERE p.status = 'pending' AND p.next_attempt_at <= now() AND pw.active
          AND (${organizationId}::uuid IS NULL OR p.organization_id = ${organizationId}::uuid)
        ORDER BY p.next_attempt_at
        LIMIT ${batchSize}
        FOR UPDATE OF p SKIP LOCKED)
    RETURNING d.id, d.organization_id, d.webhook_id, d.payload, d.attempts, w.url, w.secret_encrypted`;
}

async function recordSuccess(delivery: Claimed, attempt: AttemptResult) {
  await db.$transaction([
    db.$executeRaw(recordAttemptSql(delivery.organization_id, delivery.id, "automatic", attempt)),
    db.$executeRaw`
      UPDATE webhook_deliveries
      SET status = 'succeeded', attempts = attempts + 1, delivered_at = now(), next_attempt_at = NULL, ${lastAnswerSql(attempt)}
      WHERE id = ${delivery.id}::uuid`,
    db.$executeRaw`
      UPDATE webhooks SET failure_count = 0, updated_at = now()
      WHERE id = ${delivery.webhook_id}::uuid AND failure_count <> 0`,
  ]);
}

async function recordFailure(delivery: Claimed, attempt: AttemptResult) {
  const error = attempt.error ?? "Request failed";
  // The wait before the next attempt, read from the row's own count in the statement: a replay
  // (lib/webhooks/manual.ts) may have added an attempt since the claim, and counts as one.
  const delay = Prisma.sql`(${[...RETRY_DELAYS_SECONDS]}::int[])[attempts + 1]`;
  await db.$transaction([
    db.$executeRaw(recordAttemptSql(delivery.organization_id, delivery.id, "automatic", attempt)),
    // A replay that got through meanwhile keeps the delivery succeeded.
    db.$executeRaw`
      UPDATE webhook_deliveries
      SET attempts = attempts + 1,
          status = CASE WHEN status = 'succeeded' THEN status
                        WHEN ${delay} IS NULL THEN 'failed'::"WebhookDeliveryStatus" ELSE 'pending'::"WebhookDeliveryStatus" END,
          next_attempt_at = CASE WHEN status = 'succeeded' OR ${delay} IS NULL THEN NULL ELSE now() + make_interval(secs => ${delay}) END,
          ${lastAnswerSql(attempt)}
      WHERE id = ${delivery.id}::uuid`,
    // The failure streak starts at the oldest delivery that has failed since the last success
    // (test events, which are never retried, tell nothing of the event stream).
    db.$executeRaw`
      WITH streak AS (
        SELECT min(d.created_at) AS started_at
        FROM webhook_deliveries d
        WHERE d.webhook_id = ${delivery.webhook_id}::uuid AND d.attempts > 0 AND d.status <> 'succeeded' AND d.event_type <> ${WEBHOOK_TEST_EVENT}
          AND d.created_at > coalesce(
            (SELECT max(s.delivered_at) FROM webhook_deliveries s
             WHERE s.webhook_id = ${delivery.webhook_id}::uuid AND s.status = 'succeeded' AND s.event_type <> ${WEBHOOK_TEST_EVENT}),
            '-infinity')
      ), counted AS (
        SELECT w.id, w.failure_count + 1 AS failures,
               (w.failure_count + 1 >= ${DISABLE_AFTER_FAILURES}
                AND (SELECT started_at FROM streak) <= now() - make_interval(hours => ${DISABLE_AFTER_HOURS})) AS disable
        FROM webhooks w WHERE w.id = ${delivery.webhook_id}::uuid
        FOR UPDATE
      )
      UPDATE webhooks w
      SET failure_count = counted.failures,
          active = CASE WHEN counted.disable THEN false ELSE w.active END,
          disabled_reason = CASE WHEN counted.disable AND w.active
            THEN 'Disabled after ' || counted.failures || ' failed deliveries in a row over more than '
                 || ${DISABLE_AFTER_HOURS} || ' hours. Last error: ' || ${error}
            ELSE w.disabled_reason END,
          updated_at = now()
      FROM counted
      WHERE w.id = counted.id`,
  ]);
}

async function deliverOne(delivery: Claimed, options: DeliverOptions) {
  const target = { deliveryId: delivery.id, url: delivery.url, secretEncrypted: delivery.secret_encrypted, payload: delivery.payload };
  const attempt = await attemptDelivery(target, options);
  if (attempt.ok) await recordSuccess(delivery, attempt);
  else await recordFailure(delivery, attempt);
}

/**
 * Sends the due pending deliveries: one batch, several at a time. Answers how many it attempted,
 * so the worker loop runs again at once while there is a backlog.
 */
export async function deliverWebhooks(options: DeliverOptions = {}): Promise<number> {
  const claimed = await claim(options.batchSize ?? 50, options.organizationId ?? null);
  const concurrency = options.concurrency ?? 10;
  let next = 0;
  const lane = async () => {
    while (next < claimed.length) await deliverOne(claimed[next++], options);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, claimed.length) }, lane));
  return claimed.length;
}
