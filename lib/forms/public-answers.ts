import { isDatabaseUnavailable } from "@/lib/db/unavailable";
import { isWriteConflict } from "@/lib/db/write-conflict";
import { log, errorField } from "@/lib/log";

/** Any site may post to a form's endpoint and read its answer: it carries no credential and says nothing private. */
export const corsHeaders = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "POST, OPTIONS",
  "access-control-allow-headers": "content-type, accept",
};

const escape = (value: string) => value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * A small page for a plain form's visitor when there is nowhere better to send them (a refusal of
 * the rate limit, a form that no longer exists, a body too large): words, not an error page.
 */
export function messagePage(status: number, title: string, message: string, headers: Record<string, string> = {}): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escape(title)}</title></head>
<body style="font-family:system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;background:#fafafa;color:#18181b;margin:0;padding:64px 16px">
<main style="max-width:420px;margin:0 auto;background:#fff;border:1px solid #e4e4e7;border-radius:12px;padding:28px"><h1 style="font-size:20px;margin:0 0 8px">${escape(title)}</h1><p style="color:#52525b;font-size:14px;line-height:1.5;margin:0">${escape(message)}</p></main></body></html>`;
  return new Response(html, {
    status,
    headers: {
      ...corsHeaders,
      ...headers,
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    },
  });
}

/** A refusal of a per-address limit, as a page a person understands (429 with Retry-After). */
export const tryAgainPage = (retryAfter: number) =>
  messagePage(429, "Please try again shortly", `Too many requests from your network; please try again in ${retryAfter} seconds.`, {
    "retry-after": String(retryAfter),
  });

/**
 * A public page's answer when the database is out of reach or out of connections (a flood of
 * signups), or a write lost a conflict: 503 with Retry-After, a page or JSON, never a 500. Null for
 * any other error, which stays one.
 */
export function unavailableAnswer(error: unknown, asJson: boolean): Response | null {
  if (!isDatabaseUnavailable(error) && !isWriteConflict(error)) return null;
  log.warn({ err: errorField(error) }, "public consent page: database busy or unavailable; answering 503");
  const headers = { "retry-after": "5" };
  const message = "We could not take this just now; please try again in a few seconds.";
  return asJson ? json(503, { error: message, code: "SERVICE_UNAVAILABLE" }, headers) : messagePage(503, "Please try again shortly", message, headers);
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...corsHeaders, ...headers, "content-type": "application/json" } });
}

export const seeOther = (location: string) => new Response(null, { status: 303, headers: { ...corsHeaders, location } });
