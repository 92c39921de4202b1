import { env } from "@/lib/env";
import { AppError } from "@/lib/domain/errors";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

let appOrigin: string | undefined;

/** Whether the request says it carries a body (an empty one does not count). */
function declaresBody(request: Request): boolean {
  const length = request.headers.get("content-length");
  if (length !== null) return length.trim() !== "0";
  return request.headers.has("transfer-encoding");
}

const isJson = (contentType: string) => contentType.split(";")[0].trim().toLowerCase() === "application/json";

/**
 * 415 unless a body is declared as JSON. Bodies used to be parsed as JSON whatever they claimed to
 * be, so an HTML form (`text/plain`, which needs no CORS preflight) could post a JSON document.
 * A POST without a body needs no Content-Type.
 */
export function requireJsonBody(request: Request): void {
  const contentType = request.headers.get("content-type");
  if (contentType !== null && isJson(contentType)) return;
  const refused = contentType !== null ? !SAFE_METHODS.has(request.method) || declaresBody(request) : declaresBody(request);
  if (refused) throw new AppError("UNSUPPORTED_MEDIA_TYPE", "The request body must be JSON, sent with Content-Type: application/json");
}

/**
 * 403 for a state-changing request a browser sent from another origin. A cookie goes with any
 * request to its site, whoever's page made it, so a cookie-authenticated write must show that the
 * dashboard itself sent it: an Origin equal to APP_URL's, or Sec-Fetch-Site: same-origin (both are
 * set by the browser and cannot be forged by a page). Another port or a sibling subdomain is
 * "same-site" to the cookie but not the same origin.
 */
export function requireSameOrigin(request: Request): void {
  if (SAFE_METHODS.has(request.method)) return;
  appOrigin ??= new URL(env.appUrl).origin;
  if (request.headers.get("origin") === appOrigin) return;
  if (request.headers.get("sec-fetch-site") === "same-origin") return;
  throw new AppError("FORBIDDEN", "Cross-site request refused: the Origin of a signed-in request must be this application's");
}

/** Both checks, for the dashboard's own routes outside /v1 (session, sign-up). */
export function requireBrowserJsonRequest(request: Request): void {
  requireJsonBody(request);
  requireSameOrigin(request);
}
