import { createHash, randomBytes } from "node:crypto";
import * as client from "openid-client";
import { sealSecret, openSecret } from "@/lib/crypto/secret-box";
import { db } from "@/lib/db";
import { canManageMembers, type OrgContext } from "@/lib/domain/context";
import { AppError, notFound } from "@/lib/domain/errors";
import { env } from "@/lib/env";
import type { OAuthProvider } from "@/lib/generated/prisma/enums";
import { errorField, log } from "@/lib/log";
import type { OAuthStartQuery } from "@/lib/schemas/inboxes";
import { recordAudit } from "@/lib/services/audit-log";
import { healthy } from "@/lib/inboxes/inbox-health";
import { oauthProviderTable } from "./provider-table";
import { OAuthUnavailableError, providerConfiguration } from "./providers";

/** The cookie that binds a consent to the browser that started it (HttpOnly, only sent to these routes). */
export const BINDING_COOKIE = "mp_oauth";
export const OAUTH_PATH = "/api/inboxes/oauth";
const CALLBACK_PATH = `${OAUTH_PATH}/callback`;
export const callbackUrl = () => `${env.appUrl}${CALLBACK_PATH}`;

const STATE_TTL_MS = 10 * 60_000;
// Consents one person may have open at once: each is a row until it is used or expires.
const MAX_OPEN_PER_USER = 20;

const hash = (value: string) => createHash("sha256").update(value).digest("hex");

function unavailable(error: unknown): never {
  if (error instanceof OAuthUnavailableError) throw new AppError("VALIDATION_ERROR", error.message, [{ path: "provider", message: error.message }]);
  log.warn({ err: errorField(error) }, "OAuth provider discovery failed");
  throw new AppError("MAIL_DELIVERY_FAILED", "The provider's sign-in service could not be reached; try again later");
}

/**
 * Starts connecting a mailbox (GET /api/inboxes/oauth/{provider}/start): an admin or owner is sent
 * to the provider's consent screen with an authorization code request bound to this consent by
 * `state` (its hash stored, single use, ten minutes), PKCE (S256; the verifier stored sealed) and an
 * ID token `nonce`. Answers the provider's URL and the browser-binding value for the cookie.
 */
export async function startConsent(ctx: OrgContext, provider: OAuthProvider, query: OAuthStartQuery): Promise<{ url: string; binding: string }> {
  if (!canManageMembers(ctx)) throw new AppError("FORBIDDEN", "Connecting a mailbox needs the admin or owner role");
  if (query.inbox_id) {
    const inbox = await db.inbox.findFirst({
      where: { id: query.inbox_id, organization_id: ctx.organizationId },
      select: { auth_type: true, oauth_provider: true },
    });
    if (!inbox) throw notFound("Inbox");
    if (inbox.auth_type !== "oauth2" || inbox.oauth_provider !== provider) {
      throw new AppError("VALIDATION_ERROR", `The inbox is not connected through ${oauthProviderTable[provider].label}`, [
        { path: "inbox_id", message: "is not an OAuth inbox of this provider" },
      ]);
    }
  }
  const configuration = await providerConfiguration(provider).catch(unavailable);
  const state = client.randomState();
  const verifier = client.randomPKCECodeVerifier();
  const nonce = client.randomNonce();
  const binding = randomBytes(32).toString("base64url");
  await db.$transaction(async (tx) => {
    await tx.oAuthState.deleteMany({ where: { expires_at: { lt: new Date() } } });
    const open = await tx.oAuthState.count({ where: { user_id: ctx.userId } });
    if (open >= MAX_OPEN_PER_USER) throw new AppError("RATE_LIMITED", "Too many connections in progress; finish one or wait ten minutes");
    await tx.oAuthState.create({
      data: {
        state_hash: hash(state),
        browser_hash: hash(binding),
        user_id: ctx.userId,
        organization_id: ctx.organizationId,
        provider,
        code_verifier_encrypted: sealSecret(verifier),
        nonce,
        name: query.name,
        daily_limit: query.daily_limit,
        inbox_id: query.inbox_id,
        expires_at: new Date(Date.now() + STATE_TTL_MS),
      },
    });
  });
  const table = oauthProviderTable[provider];
  const url = client.buildAuthorizationUrl(configuration, {
    redirect_uri: callbackUrl(),
    scope: table.scope,
    response_type: "code",
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
    nonce,
    ...table.authorizationParams,
  });
  return { url: url.href, binding };
}

const refused = (message: string) => new AppError("BAD_REQUEST", message);

/** The mailbox the consent was for: the ID token's verified `email` (Microsoft may give only `preferred_username`). */
function mailboxOf(provider: OAuthProvider, claims: client.IDToken): { email: string; verified: boolean } {
  const email =
    typeof claims.email === "string"
      ? claims.email
      : provider === "microsoft" && typeof claims.preferred_username === "string"
        ? claims.preferred_username
        : "";
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 320) throw new Error("The ID token names no email address");
  return { email: email.toLowerCase(), verified: claims.email_verified === true };
}

/**
 * The provider's redirect back (GET /api/inboxes/oauth/callback). The `state` is consumed first
 * (deleted: a replay finds nothing), then must belong to this browser (the binding cookie) and
 * this signed-in user, still an admin or owner of the organization; anything else is 400 and
 * changes nothing. Then the code is exchanged with the PKCE verifier, and the ID token verified
 * (issuer, audience, signature by the provider's JWKS, expiry, nonce) by openid-client. The inbox
 * is created from the ID token's address, with the provider's servers, its tokens sealed; or, for a
 * reconnect, the same mailbox's inbox gets the new grant and is healthy again. Answers where the
 * browser goes next (the dashboard's inboxes, with `oauth_error` when the provider said no).
 */
export async function finishConsent(userId: string | null, query: URLSearchParams, binding: string | undefined): Promise<string> {
  const state = query.get("state");
  if (!state || state.length > 512) throw refused("The sign-in answer has no state: start connecting the mailbox again");
  const [row] = await db.$queryRaw<
    {
      user_id: string;
      organization_id: string;
      provider: OAuthProvider;
      browser_hash: string;
      code_verifier_encrypted: string;
      nonce: string;
      name: string | null;
      daily_limit: number | null;
      inbox_id: string | null;
      expires_at: Date;
    }[]
  >`DELETE FROM oauth_states WHERE state_hash = ${hash(state)} RETURNING user_id::text, organization_id::text, provider::text AS provider, browser_hash,
      code_verifier_encrypted, nonce, name, daily_limit, inbox_id::text, expires_at`;
  if (!row) throw refused("Unknown or already used state: start connecting the mailbox again");
  if (row.expires_at.getTime() <= Date.now()) throw refused("The connection took too long: start connecting the mailbox again");
  if (!binding || hash(binding) !== row.browser_hash || userId !== row.user_id) {
    throw refused("The sign-in answer belongs to another browser or session: start connecting the mailbox again");
  }
  const membership = await db.membership.findFirst({ where: { user_id: row.user_id, organization_id: row.organization_id }, select: { role: true } });
  if (!membership || (membership.role !== "owner" && membership.role !== "admin"))
    throw new AppError("FORBIDDEN", "Connecting a mailbox needs the admin or owner role");
  const back = (params: Record<string, string>) => `/settings?${new URLSearchParams({ tab: "inboxes", ...params })}`;

  const providerError = query.get("error");
  if (providerError) return back({ oauth_error: providerError.slice(0, 100) });

  const configuration = await providerConfiguration(row.provider).catch(unavailable);
  let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
  let mailbox: { email: string; verified: boolean };
  try {
    tokens = await client.authorizationCodeGrant(configuration, new URL(`${callbackUrl()}?${query}`), {
      pkceCodeVerifier: openSecret(row.code_verifier_encrypted),
      expectedState: state,
      expectedNonce: row.nonce,
      idTokenExpected: true,
    });
    mailbox = mailboxOf(row.provider, tokens.claims()!);
    if (!tokens.refresh_token) throw new Error("The provider gave no refresh token (offline access)");
  } catch (error) {
    log.warn({ organization_id: row.organization_id, provider: row.provider, err: errorField(error) }, "OAuth code exchange failed");
    return back({ oauth_error: "exchange_failed" });
  }
  const ctx = { organizationId: row.organization_id, userId: row.user_id, userEmail: null, apiKeyId: null };
  const grant = {
    auth_type: "oauth2" as const,
    oauth_provider: row.provider,
    oauth_refresh_token_encrypted: sealSecret(tokens.refresh_token),
    oauth_access_token_encrypted: sealSecret(tokens.access_token),
    oauth_access_token_expires_at: new Date(Date.now() + (tokens.expiresIn() ?? 3600) * 1000),
    ...healthy,
  };
  if (row.inbox_id) {
    const { count } = await db.inbox.updateMany({
      where: { id: row.inbox_id, organization_id: row.organization_id, auth_type: "oauth2", from_email: { equals: mailbox.email, mode: "insensitive" } },
      data: grant,
    });
    if (count === 0) return back({ oauth_error: "different_mailbox" });
    await recordAudit(ctx, { action: "inbox.reconnected", target: { type: "inbox", id: row.inbox_id }, details: { provider: row.provider } });
    return back({ connected: row.inbox_id });
  }
  const table = oauthProviderTable[row.provider];
  const inbox = await db.inbox.create({
    data: {
      organization_id: row.organization_id,
      name: row.name ?? mailbox.email,
      from_email: mailbox.email,
      daily_limit: row.daily_limit ?? undefined,
      smtp_host: table.smtp.host,
      smtp_port: table.smtp.port,
      smtp_secure: table.smtp.secure,
      smtp_username: mailbox.email,
      imap_host: table.imap.host,
      imap_port: table.imap.port,
      imap_secure: table.imap.secure,
      imap_username: mailbox.email,
      // The provider vouches for the address it signed in (email_verified): the mailbox is the sender.
      sender_confirmed_at: mailbox.verified ? new Date() : null,
      ...grant,
    },
  });
  await recordAudit(ctx, {
    action: "inbox.created",
    target: { type: "inbox", id: inbox.id },
    details: { from_email: inbox.from_email, provider: row.provider },
  });
  return back({ connected: inbox.id });
}
