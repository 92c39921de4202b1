import { randomBytes } from "node:crypto";
import type { OrgContext } from "@/lib/domain/context";
import { invalidField, notFound } from "@/lib/domain/errors";
import { cursorPage } from "@/lib/services/cursor-page";
import type { CursorParams } from "@/lib/schemas/pagination";
import { sealSecret } from "@/lib/crypto/secret-box";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { checkEndpoint, defaultOutboundPolicy, refusalMessage, type OutboundPolicy } from "@/lib/net/outbound-policy";
import type { CreateWebhookInput, UpdateWebhookInput } from "@/lib/schemas/webhooks";
import { recordAudit } from "./audit-log";

const webhookSelect = {
  id: true,
  organization_id: true,
  url: true,
  events: true,
  active: true,
  failure_count: true,
  disabled_reason: true,
  created_at: true,
  updated_at: true,
} satisfies Prisma.WebhookSelect;

/** A Standard Webhooks signing secret: `whsec_` and the base64 of 32 random bytes. */
const newSigningSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

/**
 * A URL whose host is (or resolves to) an address deliveries may not reach is refused now, rather
 * than failing every delivery for two days; delivery checks the address again when it connects.
 */
async function assertDeliverable(url: string, policy: OutboundPolicy) {
  const target = new URL(url);
  const port = Number(target.port || (target.protocol === "https:" ? 443 : 80));
  const verdict = await checkEndpoint(target.hostname, port, policy, "save");
  if (!verdict.allowed) throw invalidField("url", refusalMessage(verdict.refusal));
}

export async function createWebhook(ctx: OrgContext, input: CreateWebhookInput, policy = defaultOutboundPolicy()) {
  await assertDeliverable(input.url, policy);
  const secret = newSigningSecret();
  const row = await db.webhook.create({
    data: { organization_id: ctx.organizationId, url: input.url, events: input.events, secret_encrypted: sealSecret(secret) },
    select: webhookSelect,
  });
  await recordAudit(ctx, { action: "webhook.created", target: { type: "webhook", id: row.id }, details: { url: row.url } });
  return { ...row, secret };
}

export async function listWebhooks(ctx: OrgContext, page: CursorParams) {
  const where = { organization_id: ctx.organizationId };
  return cursorPage(
    page,
    (args) => db.webhook.findMany({ where: { ...where, ...args.where }, orderBy: args.orderBy, take: args.take, select: webhookSelect }),
    (id) => db.webhook.findFirst({ where: { ...where, id }, select: { id: true, created_at: true } }),
  );
}

export async function getWebhook(ctx: OrgContext, id: string) {
  const row = await db.webhook.findFirst({ where: { id, organization_id: ctx.organizationId }, select: webhookSelect });
  if (!row) throw notFound("Webhook");
  return row;
}

export async function updateWebhook(ctx: OrgContext, id: string, input: UpdateWebhookInput, policy = defaultOutboundPolicy()) {
  if (input.url !== undefined) await assertDeliverable(input.url, policy);
  const { count } = await db.webhook.updateMany({
    where: { id, organization_id: ctx.organizationId },
    data: { url: input.url, events: input.events },
  });
  if (count === 0) throw notFound("Webhook");
  await recordAudit(ctx, { action: "webhook.updated", target: { type: "webhook", id }, details: { url: input.url ?? null } });
  return getWebhook(ctx, id);
}

export async function deleteWebhook(ctx: OrgContext, id: string) {
  const { count } = await db.webhook.deleteMany({ where: { id, organization_id: ctx.organizationId } });
  if (count === 0) throw notFound("Webhook");
  await recordAudit(ctx, { action: "webhook.deleted", target: { type: "webhook", id } });
  return { success: true };
}

/**
 * Flips `active` in one statement so two concurrent toggles cannot both read the same state.
 * Enabling starts the failure count afresh and clears the reason the service disabled it for.
 */
export async function toggleWebhook(ctx: OrgContext, id: string) {
  const rows = await db.$queryRaw<{ active: boolean }[]>`
    UPDATE webhooks
    SET active = NOT active,
        failure_count = CASE WHEN active THEN failure_count ELSE 0 END,
        disabled_reason = NULL,
        updated_at = now()
    WHERE id = ${id}::uuid AND organization_id = ${ctx.organizationId}::uuid
    RETURNING active`;
  if (rows.length === 0) throw notFound("Webhook");
  await recordAudit(ctx, { action: "webhook.toggled", target: { type: "webhook", id }, details: { active: rows[0].active } });
  return { success: true, active: rows[0].active };
}
