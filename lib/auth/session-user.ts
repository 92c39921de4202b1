import { decode } from "next-auth/jwt";
import { db } from "@/lib/db";
import { env } from "@/lib/env";

const COOKIE_NAMES = ["__Secure-next-auth.session-token", "next-auth.session-token"];

function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  // next-auth splits large tokens into name.0, name.1, …
  const parts = new Map<string, string>();
  for (const piece of header.split(";")) {
    const eq = piece.indexOf("=");
    if (eq < 0) continue;
    let value = piece.slice(eq + 1).trim();
    try {
      value = decodeURIComponent(value);
    } catch {
      // A malformed %-sequence is only a bad cookie, never a 500.
    }
    parts.set(piece.slice(0, eq).trim(), value);
  }
  if (parts.has(name)) return parts.get(name);
  const chunks: string[] = [];
  for (let i = 0; parts.has(`${name}.${i}`); i++) chunks.push(parts.get(`${name}.${i}`)!);
  return chunks.length ? chunks.join("") : undefined;
}

/** The claims of the session cookie of a request (signature and expiry checked), or null. */
export async function sessionClaims(cookieHeader: string | null): Promise<{ userId: string; sessionVersion: number } | null> {
  for (const name of COOKIE_NAMES) {
    const token = readCookie(cookieHeader, name);
    if (!token) continue;
    try {
      const payload = await decode({ token, secret: env.authSecret });
      if (typeof payload?.sub === "string") return { userId: payload.sub, sessionVersion: typeof payload.sv === "number" ? payload.sv : 0 };
    } catch {
      return null;
    }
  }
  return null;
}

export type SessionUser = { id: string; email: string; emailVerified: boolean };

/**
 * The signed-in user of a request, or null. The cookie's session version must still be the
 * user's: "sign out everywhere", a password change or reset bumps it, and every session made
 * before stops working at its next request, copied cookies included.
 */
export async function sessionUser(cookieHeader: string | null): Promise<SessionUser | null> {
  const claims = await sessionClaims(cookieHeader);
  if (!claims || !/^[0-9a-f-]{36}$/i.test(claims.userId)) return null;
  const user = await db.user.findUnique({
    where: { id: claims.userId },
    select: { id: true, email: true, email_verified_at: true, session_version: true },
  });
  if (!user || user.session_version !== claims.sessionVersion) return null;
  return { id: user.id, email: user.email, emailVerified: user.email_verified_at !== null };
}

/** The signed-in user's id from the next-auth session cookie of a request, or null. */
export async function sessionUserId(cookieHeader: string | null): Promise<string | null> {
  return (await sessionUser(cookieHeader))?.id ?? null;
}

export const ORGANIZATION_COOKIE = "mp_org";

export function selectedOrganizationId(request: Request): string | null {
  return request.headers.get("x-organization-id") ?? readCookie(request.headers.get("cookie"), ORGANIZATION_COOKIE) ?? null;
}
