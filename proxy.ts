import { NextResponse, type NextRequest } from "next/server";
import { AppError } from "@/lib/domain/errors";
import { errorResponse } from "@/lib/api/errors";
import { env } from "@/lib/env";
import { pageContentSecurityPolicy, strictTransportSecurity } from "@/lib/http/security-headers";

function decodable(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Before Next.js routes a request: a path whose %-escapes do not decode is a 400 here (Next.js fails
 * to decode it into route parameters and answers 500); pages get a Content-Security-Policy with a
 * fresh nonce, which Next.js reads from the request and puts on its scripts; HSTS when APP_URL is https.
 */
export function proxy(request: NextRequest) {
  const path = request.nextUrl.pathname;
  if (!decodable(path))
    return errorResponse(
      new AppError("VALIDATION_ERROR", "The path is not valid percent-encoded UTF-8", [{ path: "", message: "malformed percent-encoding" }]),
    );
  // The matcher sends /v1, /api and the tracking routes here only for their %-escapes.
  if (path.startsWith("/v1/") || path.startsWith("/t/") || path.startsWith("/m/") || path.startsWith("/v/")) return NextResponse.next();
  const https = env.appUrl.startsWith("https:");
  if (path.startsWith("/api/")) {
    const response = NextResponse.next();
    if (https) response.headers.set("Strict-Transport-Security", strictTransportSecurity);
    return response;
  }
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const policy = pageContentSecurityPolicy(nonce, { development: !env.isProduction, https, anyFormTarget: path.startsWith("/f/") });
  const headers = new Headers(request.headers);
  headers.set("Content-Security-Policy", policy);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("Content-Security-Policy", policy);
  if (https) response.headers.set("Strict-Transport-Security", strictTransportSecurity);
  return response;
}

export const config = {
  matcher: [
    // Pages. Not /v1, the dashboard's /api routes, the tracking routes or static files: no
    // per-request work there, next.config.ts gives them their headers. Next.js reads the whole body
    // of a request the proxy sees before the route runs, so routes that take bodies stay out and
    // stop reading at their own limit (lib/api/request-body.ts).
    // Nor the public forms' submit and the preference page's save, which read bounded bodies themselves,
    // nor uploaded images (/m) and emails viewed in a browser (/v), which set their own policies.
    "/((?!v1(?:/|$)|api/|t/|m/|v/|[fp]/[^/]+/(?:submit|save)$|_next/static/|_next/image|favicon.ico|icon.svg).*)",
    // Paths Next.js would fail to decode.
    "/v1/:path(.*%.*)",
    "/api/:path(.*%.*)",
    "/t/:path(.*%.*)",
    "/f/:path(.*%.*)",
    "/p/:path(.*%.*)",
    "/m/:path(.*%.*)",
    "/v/:path(.*%.*)",
  ],
};
