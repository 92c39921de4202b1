import { decode } from "next-auth/jwt";
import { env } from "@/lib/env";

const COOKIE_NAMES = ["__Secure-next-auth.session-token", "next-auth.session-token"];

function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  // next-auth splits large tokens into name.0, name.1, …
  const parts = new Map<string, string>();
  for (const piece of header.split(";")) {
    const eq = piece.indexOf("=");
    if (eq < 0) continue;
    parts.set(piece.slice(0, eq).trim(), decodeURIComponent(piece.slice(eq + 1).trim()));
  }
  if (parts.has(name)) return parts.get(name);
  const chunks: string[] = [];
  for (let i = 0; parts.has(`${name}.${i}`); i++) chunks.push(parts.get(`${name}.${i}`)!);
  return chunks.length ? chunks.join("") : undefined;
}

/** The signed-in user's id from the next-auth session cookie of a request, or null. */
export async function sessionUserId(cookieHeader: string | null): Promise<string | null> {
  for (const name of COOKIE_NAMES) {
    const token = readCookie(cookieHeader, name);
    if (!token) continue;
    try {
      const payload = await decode({ token, secret: env.authSecret });
      if (payload?.sub) return payload.sub;
    } catch {
      return null;
    }
  }
  return null;
}

export const ORGANIZATION_COOKIE = "mp_org";

export function selectedOrganizationId(request: Request): string | null {
  return request.headers.get("x-organization-id") ?? readCookie(request.headers.get("cookie"), ORGANIZATION_COOKIE) ?? null;
}
