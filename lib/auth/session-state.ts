import { db } from "@/lib/db";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type SessionClaims = { userId: string; sessionVersion: number; sessionId: string | null };

export type LiveSession = { id: string; email: string; emailVerified: boolean };

/**
 * The user of a session token's claims, or null when the session has ended: the user is gone, its
 * session version moved on (sign out everywhere, password change or reset), or this one session was
 * signed out. One indexed query; every request with a session cookie runs it.
 */
export async function liveSession(claims: SessionClaims): Promise<LiveSession | null> {
  if (!UUID.test(claims.userId)) return null;
  const sessionId = claims.sessionId && UUID.test(claims.sessionId) ? claims.sessionId : null;
  const rows = await db.$queryRaw<{ id: string; email: string; verified: boolean; session_version: number; revoked: boolean }[]>`
    SELECT u.id::text AS id, u.email, u.email_verified_at IS NOT NULL AS verified, u.session_version,
           EXISTS (SELECT 1 FROM revoked_sessions r WHERE r.session_id = ${sessionId}::uuid) AS revoked
    FROM users u WHERE u.id = ${claims.userId}::uuid`;
  const user = rows[0];
  if (!user || user.revoked || user.session_version !== claims.sessionVersion) return null;
  return { id: user.id, email: user.email, emailVerified: user.verified };
}

/** Ends one session (signing out), for every copy of its cookie, until it would have expired. */
export async function revokeSession(sessionId: unknown, expiresAtSeconds: unknown): Promise<void> {
  if (typeof sessionId !== "string" || !UUID.test(sessionId)) return;
  const expires = typeof expiresAtSeconds === "number" ? new Date(expiresAtSeconds * 1000) : new Date(Date.now() + 30 * 24 * 3600 * 1000);
  await db.$executeRaw`INSERT INTO revoked_sessions (session_id, expires_at) VALUES (${sessionId}::uuid, ${expires}) ON CONFLICT DO NOTHING`;
  // Rows of tokens that have expired on their own are no longer needed.
  await db.$executeRaw`DELETE FROM revoked_sessions WHERE expires_at < now()`;
}
