import { resolveCaller } from "@/lib/api/credentials";
import { errorResponse } from "@/lib/api/errors";
import { sessionUserId } from "@/lib/auth/session-user";
import { AppError } from "@/lib/domain/errors";
import { env } from "@/lib/env";
import type { OAuthProvider } from "@/lib/generated/prisma/enums";
import { oauthStartQuery } from "@/lib/schemas/inboxes";
import { BINDING_COOKIE, finishConsent, OAUTH_PATH, startConsent } from "./consent";
import { oauthProviderNames } from "./provider-table";

function bindingCookie(value: string, maxAgeSeconds: number): string {
  return [
    `${BINDING_COOKIE}=${value}`,
    `Path=${OAUTH_PATH}`,
    "HttpOnly",
    // Lax: the provider's redirect back is a top-level navigation from another site, which Lax cookies follow.
    "SameSite=Lax",
    `Max-Age=${maxAgeSeconds}`,
    ...(env.appUrl.startsWith("https:") ? ["Secure"] : []),
  ].join("; ");
}

function readCookie(header: string | null, name: string): string | undefined {
  for (const piece of (header ?? "").split(";")) {
    const eq = piece.indexOf("=");
    if (eq > 0 && piece.slice(0, eq).trim() === name) return piece.slice(eq + 1).trim();
  }
  return undefined;
}

const redirect = (location: string, headers: Record<string, string> = {}) =>
  new Response(null, { status: 303, headers: { location, "cache-control": "no-store", ...headers } });

/**
 * GET /api/inboxes/oauth/{provider}/start: the dashboard's session only (an API key cannot follow
 * a consent screen), from the dashboard itself: a navigation another site started (Sec-Fetch-Site
 * cross-site) is refused, so no page can send a signed-in admin to a consent they did not ask for.
 */
export async function startRoute(request: Request, providerParam: string): Promise<Response> {
  try {
    if (request.headers.get("sec-fetch-site") === "cross-site") throw new AppError("FORBIDDEN", "Start connecting a mailbox from the dashboard");
    if (request.headers.has("authorization")) throw new AppError("UNAUTHORIZED", "Connecting a mailbox needs the dashboard's session");
    const provider = oauthProviderNames.find((name) => name === providerParam) as OAuthProvider | undefined;
    if (!provider) throw new AppError("NOT_FOUND", "Unknown provider");
    const { org } = await resolveCaller(request);
    if (!org) throw new AppError("FORBIDDEN", "Create or join an organization first");
    const parsed = oauthStartQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
    if (!parsed.success) {
      throw new AppError(
        "VALIDATION_ERROR",
        "Invalid query",
        parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })),
      );
    }
    const { url, binding } = await startConsent(org, provider, parsed.data);
    return redirect(url, { "set-cookie": bindingCookie(binding, 600) });
  } catch (error) {
    return errorResponse(error);
  }
}

/** GET /api/inboxes/oauth/callback: where the provider sends the browser back (finishConsent). */
export async function callbackRoute(request: Request): Promise<Response> {
  try {
    const query = new URL(request.url).searchParams;
    const cookies = request.headers.get("cookie");
    const location = await finishConsent(await sessionUserId(cookies), query, readCookie(cookies, BINDING_COOKIE));
    // The binding is spent with its state.
    return redirect(location, { "set-cookie": bindingCookie("", 0) });
  } catch (error) {
    return errorResponse(error);
  }
}
