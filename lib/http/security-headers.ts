// Response headers every answer carries. Kept free of lib/env so that next.config.ts can load it.

/** Headers that do not depend on the request or the settings: next.config.ts sends them with every answer. */
export const staticSecurityHeaders = [
  // A JSON answer or an uploaded file is never run as a script or a page because a browser guessed its type.
  { key: "X-Content-Type-Options", value: "nosniff" },
  // Dashboard URLs carry invitation tokens and record ids: other sites learn nothing from a Referer.
  { key: "Referrer-Policy", value: "same-origin" },
  // For browsers older than CSP's frame-ancestors: no page of ours is shown in another site's frame (clickjacking).
  { key: "X-Frame-Options", value: "DENY" },
];

/** The policy of answers that are data, not pages (/v1, the tracking routes, /api): nothing may load, nothing may frame them. */
export const dataContentSecurityPolicy = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * The policy of the dashboard's pages. Scripts run only with this response's nonce (Next.js puts it
 * on its own scripts) or when loaded by such a script. Emails are shown in sandboxed frames whose
 * srcdoc documents inherit this policy, so styles, fonts and images may come from anywhere, as they
 * do in a mail client; the sandbox keeps their scripts from running at all.
 */
export function pageContentSecurityPolicy(nonce: string, { development = false, https = false, anyFormTarget = false } = {}): string {
  return [
    "default-src 'self'",
    // React's development build evaluates code for its error overlay.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline' https:",
    "img-src 'self' data: blob: https: http:",
    "font-src 'self' data: https:",
    "connect-src 'self'",
    "frame-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    // A public form's pages post to our endpoint, which may redirect to the form's own site: browsers
    // hold that redirect to form-action too.
    anyFormTarget ? "form-action 'self' https: http:" : "form-action 'self'",
    "frame-ancestors 'none'",
    ...(https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

/** Sent when APP_URL is https: browsers then refuse plain http to this host for a year. */
export const strictTransportSecurity = "max-age=31536000; includeSubDomains";
