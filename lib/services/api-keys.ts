import { randomUUID } from "node:crypto";
import { requireVerifiedEmail, type OrgContext } from "@/lib/domain/context";
import { AppError, invalidField, notFound } from "@/lib/domain/errors";
import { cursorPage } from "@/lib/services/cursor-page";
import type { CursorParams } from "@/lib/schemas/pagination";
import { readApiKeyToken, signApiKeyToken } from "@/lib/auth/api-key-token";
import { db } from "@/lib/db";
import { pool } from "@/lib/db/pool";
import type { ApiKey } from "@/lib/generated/prisma/client";
import type { ApiKeyPermission, Role } from "@/lib/generated/prisma/enums";
import type { CreateApiKeyInput } from "@/lib/schemas/api-keys";
import { recordAudit, type AuditActor } from "./audit-log";

const serialize = (key: ApiKey) => ({
  id: key.id,
  organization_id: key.organization_id,
  name: key.name,
  token_hint: key.token_hint,
  permission: key.permission,
  domain_id: key.domain_id,
  created_by: key.user_id,
  last_used_at: key.last_used_at,
  revoked_at: key.revoked_at,
  created_at: key.created_at,
});

type Scope = { permission?: ApiKeyPermission; domainId?: string | null };

/**
 * Creates a key acting as `userId` in `organizationId`; the token exists only in this answer.
 * `actor` (the request's context) puts the creation in the audit log.
 */
export async function issueApiKey(organizationId: string, userId: string, name: string, actor?: AuditActor, scope: Scope = {}) {
  const id = randomUUID();
  const token = await signApiKeyToken(id, organizationId);
  const permission = scope.permission ?? "full_access";
  const domain_id = scope.domainId ?? null;
  const row = await db.$transaction(async (tx) => {
    const created = await tx.apiKey.create({
      data: { id, organization_id: organizationId, user_id: userId, name, token_hint: token.slice(-4), permission, domain_id },
    });
    await recordAudit(
      { ...(actor ?? { userId }), organizationId },
      { action: "api_key.created", target: { type: "api_key", id }, details: { name, permission, domain_id } },
      tx,
    );
    return created;
  });
  return { ...serialize(row), token };
}

/**
 * Only a member with a proven address mints keys: a key outlives the session that made it. A key
 * mints no key wider than itself: a sending key may call nothing here (lib/api/key-permissions.ts).
 */
export async function createApiKey(ctx: OrgContext, input: CreateApiKeyInput) {
  requireVerifiedEmail(ctx);
  if (input.domain_id) {
    const domain = await db.domain.findFirst({ where: { id: input.domain_id, organization_id: ctx.organizationId }, select: { id: true } });
    if (!domain) throw invalidField("domain_id", "no such domain in this organization");
  }
  return issueApiKey(ctx.organizationId, ctx.userId, input.name, ctx, { permission: input.permission, domainId: input.domain_id });
}

export async function listApiKeys(ctx: OrgContext, page: CursorParams) {
  const where = { organization_id: ctx.organizationId };
  const result = await cursorPage(
    page,
    (args) => db.apiKey.findMany({ where: { ...where, ...args.where }, orderBy: args.orderBy, take: args.take }),
    (id) => db.apiKey.findFirst({ where: { ...where, id }, select: { id: true, created_at: true } }),
  );
  return { ...result, data: result.data.map(serialize) };
}

/** Owners and admins may revoke any key of the organization; a member only the keys they created. */
export async function revokeApiKey(ctx: OrgContext, id: string) {
  const key = await db.apiKey.findFirst({ where: { id, organization_id: ctx.organizationId }, select: { user_id: true } });
  if (!key) throw notFound("API key");
  if (ctx.role === "member" && key.user_id !== ctx.userId) {
    throw new AppError("FORBIDDEN", "Members can revoke only their own API keys");
  }
  await db.$transaction(async (tx) => {
    const { count } = await tx.apiKey.updateMany({ where: { id, organization_id: ctx.organizationId, revoked_at: null }, data: { revoked_at: new Date() } });
    if (count > 0) await recordAudit(ctx, { action: "api_key.revoked", target: { type: "api_key", id } }, tx);
  });
  return { success: true };
}

// Writing last_used_at on every request would make every read a write; once a minute is enough.
const LAST_USED_GRANULARITY_MS = 60_000;

type TokenClaims = { apiKeyId: string; organizationId: string };

// A valid signature stays valid (the tokens do not expire; revocation is the row's business), so
// each token is verified once per process. Bounded, because tokens are as many as keys in use.
const VERIFIED_TOKENS_MAX = 10_000;
const verifiedTokens = new Map<string, TokenClaims>();

async function verifiedClaims(token: string): Promise<TokenClaims | null> {
  const cached = verifiedTokens.get(token);
  if (cached) return cached;
  const claims = await readApiKeyToken(token);
  if (claims) {
    if (verifiedTokens.size >= VERIFIED_TOKENS_MAX) verifiedTokens.clear();
    verifiedTokens.set(token, claims);
  }
  return claims;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type KeyRow = {
  id: string;
  user_id: string;
  organization_id: string;
  last_used_at: Date | null;
  email: string;
  role: Role;
  verified: boolean;
  permission: ApiKeyPermission;
  domain: string | null;
};

const KEY_CONTEXT = `
  SELECT k.id, k.user_id, k.organization_id, k.last_used_at, u.email, m.role::text AS role, u.email_verified_at IS NOT NULL AS verified,
         k.permission::text AS permission, d.name AS domain
  FROM api_keys k
  JOIN users u ON u.id = k.user_id
  JOIN memberships m ON m.organization_id = k.organization_id AND m.user_id = k.user_id
  LEFT JOIN domains d ON d.id = k.domain_id AND d.organization_id = k.organization_id
  WHERE k.id = $1 AND k.organization_id = $2 AND k.revoked_at IS NULL`;

/**
 * The context an API key acts in, or null when the token is unknown, revoked or its member gone.
 * Every API request runs this, so it is one indexed query through plain pg, prepared once per
 * connection: parsing and planning the join on every call took most of its time.
 */
export async function authenticateApiKey(token: string): Promise<OrgContext | null> {
  const claims = await verifiedClaims(token);
  if (!claims || !UUID.test(claims.apiKeyId) || !UUID.test(claims.organizationId)) return null;
  const { rows } = await pool.query<KeyRow>({ name: "authenticate-api-key", text: KEY_CONTEXT, values: [claims.apiKeyId, claims.organizationId] });
  const key = rows[0];
  if (!key) return null;
  if (!key.last_used_at || Date.now() - key.last_used_at.getTime() > LAST_USED_GRANULARITY_MS) {
    void db.apiKey.update({ where: { id: key.id }, data: { last_used_at: new Date() } }).catch(() => undefined);
  }
  return {
    userId: key.user_id,
    userEmail: key.email,
    apiKeyId: key.id,
    organizationId: key.organization_id,
    role: key.role,
    emailVerified: key.verified,
    keyScope: { permission: key.permission, domain: key.domain?.toLowerCase() ?? null },
  };
}
