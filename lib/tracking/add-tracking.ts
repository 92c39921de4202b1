import { env } from "@/lib/env";
import type { Utm } from "@/lib/schemas/tracking";
import { signClickToken, signOpenToken } from "./token";
import { textWithUtm, withUtm } from "./utm";

export type TrackingOptions = {
  /** Origin of the tracking routes; the app's public URL by default. */
  baseUrl?: string;
  /** The open pixel (default true). */
  opens?: boolean;
  /** Click redirects (default true). */
  clicks?: boolean;
  /** Parameters added to every web link, tracked or not. */
  utm?: Utm | null;
};

const openPixelUrl = (emailId: string, baseUrl = env.appUrl) => `${baseUrl}/t/o/${signOpenToken(emailId)}`;
const clickUrl = (emailId: string, url: string, baseUrl = env.appUrl) => `${baseUrl}/t/c/${signClickToken(emailId, url)}`;

const ANCHOR = /<a\b[^>]*>/gi;
const HREF = /(\shref\s*=\s*)(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/i;
const NAMED: Record<string, string> = { amp: "&", quot: '"', apos: "'", lt: "<", gt: ">", nbsp: "\u00a0" };

/** What a browser would make of an attribute value: entities decoded. */
function decodeAttribute(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    }
    return NAMED[name.toLowerCase()] ?? entity;
  });
}

const ours = (url: string, base: string) => url === base || url.startsWith(`${base}/`);
// A tracking redirect or pixel, on the platform's host or any organization's tracking host.
const TRACKING_URL = /^https?:\/\/[^/?#]+\/t\/[co]\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** Whether a link is one tracking rewrites: http(s), and not to this service itself (its own host, or the tracking host in use). */
export const trackable = (url: string, baseUrl: string = env.appUrl) =>
  /^https?:\/\//i.test(url) && !ours(url, env.appUrl) && !ours(url, baseUrl) && !TRACKING_URL.test(url);

const escapeAttribute = (url: string) => url.replace(/&/g, "&amp;").replace(/"/g, "&quot;");

/** Calls `visit` with each anchor's decoded href; what it returns replaces the attribute value (undefined keeps it). */
function mapHrefs(html: string, visit: (url: string) => string | undefined): string {
  return html.replace(ANCHOR, (tag) =>
    tag.replace(HREF, (attribute, prefix: string, double?: string, single?: string, bare?: string) => {
      const replacement = visit(decodeAttribute(double ?? single ?? bare ?? "").trim());
      return replacement === undefined ? attribute : `${prefix}"${replacement}"`;
    }),
  );
}

/** The links of the HTML that `addTracking` would rewrite, as their original URLs. */
export function trackableLinks(html: string, baseUrl = env.appUrl): string[] {
  const base = baseUrl.replace(/\/$/, "");
  const links = new Set<string>();
  mapHrefs(html, (url) => {
    if (trackable(url, base)) links.add(url);
    return undefined;
  });
  return [...links];
}

/**
 * Both parts with the UTM parameters added to the links tracking would rewrite, and nothing else:
 * a test send shows the links a real send gives, without redirects or a pixel for an email that
 * is never recorded.
 */
export function withUtmOnly(rendered: { html: string | null; text: string }, utm: Utm | null | undefined): { html: string | null; text: string } {
  if (!utm) return rendered;
  const html =
    rendered.html &&
    mapHrefs(rendered.html, (url) => {
      const destination = trackable(url) ? withUtm(url, utm) : url;
      return destination === url ? undefined : escapeAttribute(destination);
    });
  return { html, text: textWithUtm(rendered.text, utm, (url) => trackable(url)) };
}

/**
 * Adds the UTM parameters to every http(s) link of the HTML, rewrites each to a signed click
 * redirect (unless `clicks` is false) and adds a 1×1 open pixel before `</body>` (unless `opens` is).
 * Links to this service itself (unsubscribe pages, …) are left alone. Run it on the final, rendered
 * HTML of one email; `links` lists the URLs the redirects lead to.
 */
export function addTracking(html: string, emailId: string, options: TrackingOptions = {}): { html: string; links: string[] } {
  const baseUrl = (options.baseUrl ?? env.appUrl).replace(/\/$/, "");
  const links = new Set<string>();
  const rewritten = mapHrefs(html, (url) => {
    if (!trackable(url, baseUrl)) return undefined;
    const destination = withUtm(url, options.utm);
    if (options.clicks === false) return destination === url ? undefined : escapeAttribute(destination);
    links.add(destination);
    return clickUrl(emailId, destination, baseUrl);
  });
  if (options.opens === false) return { html: rewritten, links: [...links] };
  const pixel = `<img src="${openPixelUrl(emailId, baseUrl)}" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0;margin:0;padding:0" />`;
  let bodyEnd = -1;
  for (const match of rewritten.matchAll(/<\/body\s*>/gi)) bodyEnd = match.index;
  const withPixel = bodyEnd === -1 ? `${rewritten}${pixel}` : `${rewritten.slice(0, bodyEnd)}${pixel}${rewritten.slice(bodyEnd)}`;
  return { html: withPixel, links: [...links] };
}
