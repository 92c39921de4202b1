import * as client from "openid-client";
import { openSecret, sealSecret } from "@/lib/crypto/secret-box";
import { db } from "@/lib/db";
import type { Inbox } from "@/lib/generated/prisma/client";
import type { OutboundPolicy } from "@/lib/net/outbound-policy";
import { recordInboxFailures } from "@/lib/inboxes/inbox-health";
import { providerConfiguration } from "./providers";

export type OAuthInbox = Pick<Inbox, "id" | "organization_id">;

export type AccessTokenOptions = {
  /** A token the server just refused: a new one is wanted even if it has not expired (one refresh; see below). */
  rejected?: string;
  /** The clock; tests move it to see a token expire. */
  now?: () => Date;
  policy?: OutboundPolicy;
};

/** The provider refused to renew the grant (revoked, expired, the app removed): no retry can mend it, a person must reconnect. */
export class OAuthGrantError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OAuthGrantError";
  }
}

/** A token with less than this left is renewed before it is used: a send or a poll started with it must not see it expire. */
const REFRESH_BEFORE_EXPIRY_MS = 60_000;

// Answers of the token endpoint that mean the grant itself is gone (RFC 6749 §5.2).
const GRANT_GONE = new Set(["invalid_grant", "unauthorized_client", "invalid_client"]);
// How long a worker waits for another one's refresh of the same inbox before giving up this time.
const LOCK_WAIT = "20s";

type Stored = Pick<Inbox, "oauth_provider" | "oauth_refresh_token_encrypted" | "oauth_access_token_encrypted" | "oauth_access_token_expires_at" | "auth_type">;

function usable(row: Stored, rejected: string | undefined, now: Date): string | null {
  if (!row.oauth_access_token_encrypted || !row.oauth_access_token_expires_at) return null;
  if (row.oauth_access_token_expires_at.getTime() - now.getTime() <= REFRESH_BEFORE_EXPIRY_MS) return null;
  const token = openSecret(row.oauth_access_token_encrypted);
  return token === rejected ? null : token;
}

const columns = {
  auth_type: true,
  oauth_provider: true,
  oauth_refresh_token_encrypted: true,
  oauth_access_token_encrypted: true,
  oauth_access_token_expires_at: true,
} as const;

/**
 * The inbox's current access token, renewed with its refresh token when it expires within a
 * minute or when the server just refused it (`rejected`). Renewals of one inbox happen one at a
 * time across every worker (a transaction-scoped advisory lock): a worker that waited for another's
 * renewal finds the new token and uses it, so several workers sending from one inbox make one
 * request to the provider, never a stampede (a provider that rotates refresh tokens would take a
 * second use of the old one as theft and end the grant). The new tokens are stored sealed, the
 * refresh token too when the provider rotates it. A refusal of the grant turns the inbox `error`
 * at once (inbox-health.ts) and throws OAuthGrantError.
 */
export async function inboxAccessToken(inbox: OAuthInbox, options: AccessTokenOptions = {}): Promise<string> {
  const now = options.now ?? (() => new Date());
  const where = { id: inbox.id, organization_id: inbox.organization_id };
  const current = await db.inbox.findFirst({ where, select: columns });
  if (!current || current.auth_type !== "oauth2" || !current.oauth_provider) throw new Error("The inbox does not sign in with OAuth");
  const ready = usable(current, options.rejected, now());
  if (ready) return ready;

  let refused: string | null = null;
  const token = await db.$transaction(
    async (tx) => {
      await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = '${LOCK_WAIT}'`);
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended('oauth-refresh:' || ${inbox.id}, 0))`;
      const row = await tx.inbox.findFirst({ where, select: columns });
      if (!row?.oauth_provider || !row.oauth_refresh_token_encrypted) {
        refused = "The inbox has no OAuth grant: reconnect it";
        return null;
      }
      // Renewed by another worker while this one waited: that token is the one to use.
      const renewed = usable(row, options.rejected, now());
      if (renewed) return renewed;
      const configuration = await providerConfiguration(row.oauth_provider, options.policy);
      let answer: Awaited<ReturnType<typeof client.refreshTokenGrant>>;
      try {
        answer = await client.refreshTokenGrant(configuration, openSecret(row.oauth_refresh_token_encrypted));
      } catch (error) {
        if (error instanceof client.ResponseBodyError && GRANT_GONE.has(error.error)) {
          refused = `The provider refused to renew access (${error.error}${error.error_description ? `: ${error.error_description.slice(0, 200)}` : ""}); reconnect the inbox`;
          return null;
        }
        throw error;
      }
      const expiresIn = answer.expiresIn() ?? 3600;
      await tx.inbox.updateMany({
        where,
        data: {
          oauth_access_token_encrypted: sealSecret(answer.access_token),
          oauth_access_token_expires_at: new Date(now().getTime() + expiresIn * 1000),
          ...(answer.refresh_token && { oauth_refresh_token_encrypted: sealSecret(answer.refresh_token) }),
        },
      });
      return answer.access_token;
    },
    // The refresh is an HTTP request of at most 10 s (policyFetch), after a wait of at most LOCK_WAIT.
    { timeout: 40_000, maxWait: 10_000 },
  );
  if (token) return token;
  const reason = refused ?? "The provider refused to renew access; reconnect the inbox";
  await recordInboxFailures(db, [{ id: inbox.id, reason, fatal: true }]);
  throw new OAuthGrantError(reason);
}
