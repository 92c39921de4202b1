import { hashLinkToken, newLinkToken } from "@/lib/auth/random-token";
import { db, Prisma } from "@/lib/db";
import type { AccountTokenPurpose } from "@/lib/generated/prisma/enums";

const TOKEN_TTL_MS: Record<AccountTokenPurpose, number> = {
  verify_email: 24 * 60 * 60 * 1000,
  reset_password: 60 * 60 * 1000,
};

// A link mailed to an address is a mail the platform sends on someone's request: at most this
// many of each kind per user per hour, so no form becomes a way to flood an inbox.
const LINKS_PER_HOUR = 3;

type Tx = Prisma.TransactionClient | typeof db;

/** A new single-use link token for a user; only its hash is stored. */
export async function issueAccountToken(userId: string, purpose: AccountTokenPurpose, tx: Tx = db): Promise<string> {
  const token = newLinkToken();
  // Links used or expired more than a day ago tell nothing any more (the hourly cap looks back one hour).
  await tx.accountToken.deleteMany({ where: { user_id: userId, expires_at: { lt: new Date(Date.now() - 24 * 60 * 60 * 1000) } } });
  await tx.accountToken.create({
    data: { user_id: userId, purpose, token_hash: hashLinkToken(token), expires_at: new Date(Date.now() + TOKEN_TTL_MS[purpose]) },
  });
  return token;
}

/** How long until another link of this kind may be mailed (0: now). */
export async function linkCooldownSeconds(userId: string, purpose: AccountTokenPurpose): Promise<number> {
  const since = new Date(Date.now() - 60 * 60 * 1000);
  const recent = await db.accountToken.findMany({
    where: { user_id: userId, purpose, created_at: { gt: since } },
    orderBy: { created_at: "desc" },
    select: { created_at: true },
    take: LINKS_PER_HOUR,
  });
  if (recent.length < LINKS_PER_HOUR) return 0;
  return Math.ceil((recent[LINKS_PER_HOUR - 1].created_at.getTime() + 60 * 60 * 1000 - Date.now()) / 1000);
}

/**
 * Uses a link once: the one statement that marks it used also checks it is unused and unexpired,
 * so two clicks at once cannot both pass. Answers the user it belongs to, or null.
 */
export async function consumeAccountToken(token: string, purpose: AccountTokenPurpose, tx: Tx = db): Promise<string | null> {
  if (token.length < 32 || token.length > 200) return null;
  const rows = await tx.$queryRaw<{ user_id: string }[]>`
    UPDATE account_tokens SET used_at = now()
    WHERE token_hash = ${hashLinkToken(token)} AND purpose = ${purpose}::"AccountTokenPurpose" AND used_at IS NULL AND expires_at > now()
    RETURNING user_id::text AS user_id`;
  return rows[0]?.user_id ?? null;
}

/** Whether a link is still good, without using it (the page shows the form or an explanation). */
export async function accountTokenUsable(token: string, purpose: AccountTokenPurpose): Promise<boolean> {
  if (token.length < 32 || token.length > 200) return false;
  const count = await db.accountToken.count({ where: { token_hash: hashLinkToken(token), purpose, used_at: null, expires_at: { gt: new Date() } } });
  return count > 0;
}
