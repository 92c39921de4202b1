import { decode } from "next-auth/jwt";
import { env } from "@/lib/env";
import { liveSession, type LiveSession, type SessionClaims } from "./session-state";

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
async function sessionClaims(cookieHeader: string | null): Promise<SessionClaims | null> {
  for (const name of COOKIE_NAMES) {
    const token = readCookie(cookieHeader, name);
    if (!token) continue;
    try {
      const payload = await decode({ token, secret: env.authSecret });
      if (typeof payload?.sub === "string") {
        return {
          userId: payload.sub,
          sessionVersion: typeof payload.sv === "number" ? payload.sv : 0,
          sessionId: typeof payload.sid === "string" ? payload.sid : null,
        };
      }
    } catch {
      return null;
    }
  }
  return null;
}

export type SessionUser = LiveSession;

/**
 * The signed-in user of a request, or null. The cookie's session version must still be the
 * user's ("sign out everywhere", a password change or reset bumps it) and its session must not
 * have been signed out: every copy of an ended session's cookie stops working at its next request.
 */
export async function sessionUser(cookieHeader: string | null): Promise<SessionUser | null> {
  const claims = await sessionClaims(cookieHeader);
  return claims ? liveSession(claims) : null;
}

/** The signed-in user's id from the next-auth session cookie of a request, or null. */
export async function sessionUserId(cookieHeader: string | null): Promise<string | null> {
  return (await sessionUser(cookieHeader))?.id ?? null;
}

export const ORGANIZATION_COOKIE = "mp_org";

export function selectedOrganizationId(request: Request): string | null {
  return request.headers.get("x-organization-id") ?? readCookie(request.headers.get("cookie"), ORGANIZATION_COOKIE) ?? null;
}
