import type { OrgContext } from "@/lib/domain/context";
import { cursorPage } from "@/lib/services/cursor-page";
import type { CursorParams } from "@/lib/schemas/pagination";
import { db, Prisma } from "@/lib/db";
import type { AuditLog } from "@/lib/generated/prisma/client";
import type { AuditAction } from "@/lib/schemas/audit-log";

export { type AuditAction };

/** Who acted: a user (signed in, or through an API key), from which address. */
export type AuditActor = {
  userId?: string | null;
  userEmail?: string | null;
  apiKeyId?: string | null;
  ip?: string | null;
};

export type AuditEntry = {
  action: AuditAction;
  /** What was acted on, e.g. `{ type: "api_key", id }`. */
  target?: { type: string; id?: string | null };
  /** A few small facts (a role, a name); cut to keep rows small, never secrets. */
  details?: Record<string, string | number | boolean | null | undefined>;
};

type Tx = Prisma.TransactionClient | typeof db;

const MAX_DETAIL_KEYS = 10;
const MAX_DETAIL_LENGTH = 200;

function boundedDetails(details: AuditEntry["details"]): Prisma.InputJsonValue | undefined {
  if (!details) return undefined;
  const out: Record<string, string | number | boolean | null> = {};
  for (const [key, value] of Object.entries(details).slice(0, MAX_DETAIL_KEYS)) {
    if (value !== undefined) out[key.slice(0, 50)] = typeof value === "string" ? value.slice(0, MAX_DETAIL_LENGTH) : value;
  }
  return out;
}

function columns(actor: AuditActor, entry: AuditEntry) {
  return {
    actor_user_id: actor.userId ?? null,
    actor_email: actor.userEmail?.slice(0, 320) ?? null,
    actor_api_key_id: actor.apiKeyId ?? null,
    ip: actor.ip?.slice(0, 64) ?? null,
    action: entry.action,
    target_type: entry.target?.type ?? null,
    target_id: entry.target?.id ?? null,
  };
}

/**
 * Records one action in an organization's audit log: one INSERT, inside the caller's transaction
 * when it passes one, so the record and the change commit or roll back together.
 * `ctx` is usually the request's OrgContext; `organizationId: null` keeps the row from every tenant.
 */
export async function recordAudit(ctx: AuditActor & { organizationId: string | null }, entry: AuditEntry, tx: Tx = db): Promise<void> {
  await tx.auditLog.create({
    data: { organization_id: ctx.organizationId, ...columns(ctx, entry), details: boundedDetails(entry.details) },
    select: { id: true },
  });
}

/**
 * Records an action on a user's own account (sign-in, password, two-factor) in every organization
 * the user belongs to, so each one's owners see it; one row without an organization otherwise.
 */
export async function recordUserAudit(actor: AuditActor & { userId: string }, entry: AuditEntry, tx: Tx = db): Promise<void> {
  const c = columns(actor, entry);
  const details = boundedDetails(entry.details);
  const json = details === undefined ? null : JSON.stringify(details);
  const inserted = await tx.$executeRaw`
    INSERT INTO audit_logs (organization_id, actor_user_id, actor_email, actor_api_key_id, ip, action, target_type, target_id, details)
    SELECT m.organization_id, ${c.actor_user_id}::uuid, ${c.actor_email}, ${c.actor_api_key_id}::uuid, ${c.ip}, ${c.action},
           ${c.target_type}, ${c.target_id}, ${json}::jsonb
    FROM memberships m WHERE m.user_id = ${actor.userId}::uuid`;
  if (inserted === 0) await recordAudit({ ...actor, organizationId: null }, entry, tx);
}

const serialize = (row: AuditLog) => ({
  id: row.id,
  organization_id: row.organization_id as string,
  action: row.action,
  actor_user_id: row.actor_user_id,
  actor_email: row.actor_email,
  actor_api_key_id: row.actor_api_key_id,
  ip: row.ip,
  target_type: row.target_type,
  target_id: row.target_id,
  details: (row.details ?? null) as Record<string, unknown> | null,
  created_at: row.created_at,
});

/** The organization's audit log, newest first, optionally one action only. */
export async function listAuditLog(ctx: OrgContext, page: CursorParams, query: { action?: string }) {
  const where = { organization_id: ctx.organizationId, ...(query.action ? { action: query.action } : {}) };
  const result = await cursorPage(
    page,
    (args) => db.auditLog.findMany({ where: { ...where, ...args.where }, orderBy: args.orderBy, take: args.take }),
    (id) => db.auditLog.findFirst({ where: { ...where, id }, select: { id: true, created_at: true } }),
  );
  return { ...result, data: result.data.map(serialize) };
}
