import type { Webhook as WebhookRow, WebhookDelivery } from "@/lib/generated/prisma/client";
import { Webhook } from "standardwebhooks";
import { openSecret } from "@/lib/crypto/secret-box";
import { db } from "@/lib/db";
import type { OutboundPolicy } from "@/lib/net/outbound-policy";
import { safePost } from "./safe-post";

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

export type DeliverOptions = {
  batchSize?: number;
  /** Only this organization's deliveries (tests share one database). */
  organizationId?: string;
  concurrency?: number;
  timeoutMs?: number;
  /** Where webhooks may go; the operator's policy (ALLOWED_PRIVATE_HOSTS) when not given. */
  policy?: OutboundPolicy;
};

type Claimed = Pick<WebhookDelivery, "id" | "webhook_id" | "attempts"> & Pick<WebhookRow, "url" | "secret_encrypted"> & { payload: unknown };

type Outcome = { ok: true; status: number } | { ok: false; status: number | null; error: string };

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
    RETURNING d.id, d.webhook_id, d.payload, d.attempts, w.url, w.secret_encrypted`;
}

async function send(delivery: Claimed, options: DeliverOptions): Promise<Outcome> {
  const body = JSON.stringify(delivery.payload);
  const sentAt = new Date();
  let signature: string;
  try {
    signature = new Webhook(openSecret(delivery.secret_encrypted)).sign(delivery.id, sentAt, body);
  } catch {
    return { ok: false, status: null, error: "The signing secret cannot be read" };
  }
  const headers = {
    "content-type": "application/json",
    "user-agent": "Mailplatform-Webhooks/1.0",
    "webhook-id": delivery.id,
    "webhook-timestamp": String(Math.floor(sentAt.getTime() / 1000)),
    "webhook-signature": signature,
  };
  try {
    const response = await safePost(delivery.url, body, headers, { policy: options.policy, timeoutMs: options.timeoutMs });
    if (response.status >= 200 && response.status < 300) return { ok: true, status: response.status };
    const why = response.status >= 300 && response.status < 400 ? "redirects are not followed" : response.body.trim().slice(0, 200);
    return { ok: false, status: response.status, error: `HTTP ${response.status}${why ? `: ${why}` : ""}` };
  } catch (error) {
    return { ok: false, status: null, error: error instanceof Error ? error.message.slice(0, 500) : "Request failed" };
  }
}

async function recordSuccess(delivery: Claimed, status: number) {
  await db.$transaction([
    db.$executeRaw`
      UPDATE webhook_deliveries
      SET status = 'succeeded', attempts = attempts + 1, response_status = ${status}, last_error = NULL,
          delivered_at = now(), next_attempt_at = NULL, updated_at = now()
      WHERE id = ${delivery.id}::uuid`,
    db.$executeRaw`
      UPDATE webhooks SET failure_count = 0, updated_at = now()
      WHERE id = ${delivery.webhook_id}::uuid AND failure_count <> 0`,
  ]);
}

async function recordFailure(delivery: Claimed, status: number | null, error: string) {
  const attempts = delivery.attempts + 1;
  const delay = attempts < MAX_ATTEMPTS ? RETRY_DELAYS_SECONDS[attempts - 1] : null;
  await db.$transaction([
    db.$executeRaw`
      UPDATE webhook_deliveries
      SET attempts = ${attempts}, response_status = ${status}, last_error = ${error},
          status = CASE WHEN ${delay}::int IS NULL THEN 'failed'::"WebhookDeliveryStatus" ELSE 'pending'::"WebhookDeliveryStatus" END,
          next_attempt_at = CASE WHEN ${delay}::int IS NULL THEN NULL ELSE now() + make_interval(secs => ${delay}::int) END,
          updated_at = now()
      WHERE id = ${delivery.id}::uuid`,
    // The failure streak starts at the oldest delivery that has failed since the last success.
    db.$executeRaw`
      WITH streak AS (
        SELECT min(d.created_at) AS started_at
        FROM webhook_deliveries d
        WHERE d.webhook_id = ${delivery.webhook_id}::uuid AND d.attempts > 0 AND d.status <> 'succeeded'
          AND d.created_at > coalesce(
            (SELECT max(s.delivered_at) FROM webhook_deliveries s
             WHERE s.webhook_id = ${delivery.webhook_id}::uuid AND s.status = 'succeeded'),
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
  const outcome = await send(delivery, options);
  if (outcome.ok) await recordSuccess(delivery, outcome.status);
  else await recordFailure(delivery, outcome.status, outcome.error);
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
