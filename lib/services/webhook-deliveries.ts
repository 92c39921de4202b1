import type { OrgContext } from "@/lib/domain/context";
import { AppError, notFound, rateLimited } from "@/lib/domain/errors";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import type { Prisma, WebhookDeliveryAttempt } from "@/lib/generated/prisma/client";
import type { CursorParams } from "@/lib/schemas/pagination";
import { WEBHOOK_ATTEMPTS_KEPT } from "@/lib/schemas/webhooks";
import { cursorPage } from "@/lib/services/cursor-page";
import { deliveryBody, type AttemptOptions } from "@/lib/webhooks/attempt";
import { replayDelivery, sendTestDelivery } from "@/lib/webhooks/manual";
import { recordAudit } from "./audit-log";
import { consumeQuota, type Quota } from "./usage-windows";

const deliverySelect = {
  id: true,
  webhook_id: true,
  event_type: true,
  status: true,
  attempts: true,
  response_status: true,
  last_error: true,
  created_at: true,
  delivered_at: true,
  next_attempt_at: true,
  last_attempt_at: true,
  duration_ms: true,
} satisfies Prisma.WebhookDeliverySelect;

type AttemptRow = Pick<
  WebhookDeliveryAttempt,
  | "id"
  | "trigger"
  | "attempted_at"
  | "duration_ms"
  | "succeeded"
  | "url"
  | "request_headers"
  | "response_status"
  | "response_body"
  | "response_body_truncated"
  | "error"
>;

const serializeAttempt = (a: AttemptRow) => ({
  id: a.id,
  trigger: a.trigger,
  attempted_at: a.attempted_at,
  duration_ms: a.duration_ms,
  succeeded: a.succeeded,
  request: { url: a.url, headers: a.request_headers as Record<string, string> },
  response: a.response_status === null ? null : { status: a.response_status, body: a.response_body ?? "", body_truncated: a.response_body_truncated },
  error: a.error,
});

async function findWebhook(ctx: OrgContext, id: string) {
  const hook = await db.webhook.findFirst({
    where: { id, organization_id: ctx.organizationId },
    select: { id: true, organization_id: true, url: true, secret_encrypted: true, active: true },
  });
  if (!hook) throw notFound("Webhook");
  return hook;
}

export async function listWebhookDeliveries(ctx: OrgContext, webhookId: string, page: CursorParams) {
  await findWebhook(ctx, webhookId);
  const where = { organization_id: ctx.organizationId, webhook_id: webhookId };
  return cursorPage(
    page,
    (args) => db.webhookDelivery.findMany({ where: { ...where, ...args.where }, orderBy: args.orderBy, take: args.take, select: deliverySelect }),
    (id) => db.webhookDelivery.findFirst({ where: { ...where, id }, select: { id: true, created_at: true } }),
  );
}

/** A delivery of this organization's webhook with its log: the body sent and each attempt, newest first. */
export async function getWebhookDelivery(ctx: OrgContext, webhookId: string, deliveryId: string) {
  const row = await db.webhookDelivery.findFirst({
    where: { id: deliveryId, webhook_id: webhookId, organization_id: ctx.organizationId },
    select: {
      ...deliverySelect,
      payload: true,
      attempt_log: {
        where: { organization_id: ctx.organizationId },
        orderBy: [{ attempted_at: "desc" }, { id: "desc" }],
        take: WEBHOOK_ATTEMPTS_KEPT,
      },
    },
  });
  if (!row) throw notFound("Delivery");
  const { payload, attempt_log, ...delivery } = row;
  return { ...delivery, request_body: deliveryBody(payload), attempt_log: attempt_log.map(serializeAttempt) };
}

const perWebhook = (webhookId: string): Quota => ({
  action: `webhook_manual:${webhookId}`,
  limit: env.webhookManualDeliveriesPerHour,
  windowMs: 3_600_000,
  what: "test events and replays of one webhook",
});
const perOrganization = (): Quota => ({
  action: "webhook_manual",
  limit: env.webhookManualDeliveriesPerOrganizationPerHour,
  windowMs: 3_600_000,
  what: "test events and replays",
});

// Each test or replay holds its API request while the receiver answers (10 s at most). An
// organization's hourly allowance could still start dozens at once: past this many under way in
// one web process, more wait their turn on the client's side rather than hold the server's sockets.
const IN_FLIGHT_PER_ORGANIZATION = 5;
const inFlight = new Map<string, number>();

async function sendNow<T>(ctx: OrgContext, webhookId: string, send: () => Promise<T>): Promise<T> {
  // Counted before the first await, so requests arriving together cannot all pass the check.
  const held = inFlight.get(ctx.organizationId) ?? 0;
  if (held >= IN_FLIGHT_PER_ORGANIZATION) {
    throw rateLimited("Other test events or replays of this organization are under way; try again in a few seconds", 5);
  }
  inFlight.set(ctx.organizationId, held + 1);
  try {
    await consumeQuota(ctx, perWebhook(webhookId), 1);
    await consumeQuota(ctx, perOrganization(), 1);
    return await send();
  } finally {
    const left = (inFlight.get(ctx.organizationId) ?? 1) - 1;
    if (left > 0) inFlight.set(ctx.organizationId, left);
    else inFlight.delete(ctx.organizationId);
  }
}

/** POST /v1/webhooks/{id}/test: a signed `webhook.test` event delivered now (enabled or not), answered with its delivery. */
export async function testWebhook(ctx: OrgContext, webhookId: string, options: AttemptOptions = {}) {
  const hook = await findWebhook(ctx, webhookId);
  const deliveryId = await sendNow(ctx, hook.id, () => sendTestDelivery(hook, options));
  return getWebhookDelivery(ctx, hook.id, deliveryId);
}

/** POST /v1/webhooks/{id}/deliveries/{deliveryId}/replay: the delivery sent again now, under the same `webhook-id`. */
export async function replayWebhookDelivery(ctx: OrgContext, webhookId: string, deliveryId: string, options: AttemptOptions = {}) {
  const hook = await findWebhook(ctx, webhookId);
  const delivery = await db.webhookDelivery.findFirst({
    where: { id: deliveryId, webhook_id: hook.id, organization_id: ctx.organizationId },
    select: { id: true, organization_id: true, event_type: true, payload: true },
  });
  if (!delivery) throw notFound("Delivery");
  // A disabled webhook gets none of the organization's events; enabling it is the one way back.
  if (!hook.active) throw new AppError("CONFLICT", "The webhook is disabled: enable it to replay its deliveries");
  const attempt = await sendNow(ctx, hook.id, () => replayDelivery(hook, delivery, options));
  await recordAudit(ctx, {
    action: "webhook.delivery_replayed",
    target: { type: "webhook", id: hook.id },
    details: { delivery_id: delivery.id, event_type: delivery.event_type, succeeded: attempt.ok },
  });
  return getWebhookDelivery(ctx, hook.id, delivery.id);
}
