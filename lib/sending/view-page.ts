import { db } from "@/lib/db";
import { readViewToken } from "./view-in-browser";

/**
 * The email's own HTML runs under this policy: a sandbox without scripts or forms (it is a tenant's
 * markup on the app's origin), whose links may still open in a new tab or the same one when clicked;
 * images, styles and fonts from anywhere, as in a mail client.
 */
const POLICY = [
  "sandbox allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation",
  "default-src 'none'",
  "img-src * data:",
  "style-src * 'unsafe-inline'",
  "font-src * data:",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join("; ");

const notFound = () =>
  new Response("This link is not valid. It may have been cut short by your email program.", {
    status: 404,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
  });

const escapeText = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** A tenant's email as a page of the app's origin: sandboxed, never cached or indexed. */
export function sandboxedEmailPage(html: string): Response {
  return new Response(html, {
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": POLICY,
      "cache-control": "private, no-store",
      "x-robots-tag": "noindex, nofollow",
      "referrer-policy": "no-referrer",
    },
  });
}

/**
 * GET /v/<token>: the email as its recipient got it (the HTML recorded when it was sent: their
 * placeholders, conditional blocks, links). The token names the email and cannot be forged, so the
 * lookup is by id alone; an email not sent yet, or a changed token, is 404.
 */
export async function serveViewInBrowser(token: string): Promise<Response> {
  const id = readViewToken(token);
  if (!id) return notFound();
  const email = await db.email.findUnique({ where: { id }, select: { subject: true, html_content: true, text_content: true, sent_at: true } });
  if (!email?.sent_at || (!email.html_content && !email.text_content)) return notFound();
  const html =
    email.html_content ??
    `<!doctype html><meta charset="utf-8"><title>${escapeText(email.subject)}</title><pre style="white-space:pre-wrap;font-family:sans-serif;padding:16px">${escapeText(email.text_content ?? "")}</pre>`;
  return sandboxedEmailPage(html);
}
