import { env } from "@/lib/env";
import { signClickToken, signOpenToken } from "./token";

export type TrackingOptions = {
  /** Origin of the tracking routes; the app's public URL by default. */
  baseUrl?: string;
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

/** Whether a link is one tracking rewrites: http(s), and not to this service itself. */
const trackable = (url: string, baseUrl: string) => /^https?:\/\//i.test(url) && !url.startsWith(`${baseUrl}/`) && url !== baseUrl;

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
 * Rewrites every http(s) link of the HTML to a signed click redirect and adds a 1×1 open pixel
 * before `</body>`. Links to this service itself (unsubscribe pages, …) are left alone.
 * Run it on the final, rendered HTML of one email; `links` lists the original URLs it rewrote.
 */
export function addTracking(html: string, emailId: string, options: TrackingOptions = {}): { html: string; links: string[] } {
  const baseUrl = (options.baseUrl ?? env.appUrl).replace(/\/$/, "");
  const links = new Set<string>();
  const rewritten = mapHrefs(html, (url) => {
    if (!trackable(url, baseUrl)) return undefined;
    links.add(url);
    return clickUrl(emailId, url, baseUrl);
  });
  const pixel = `<img src="${openPixelUrl(emailId, baseUrl)}" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0;margin:0;padding:0" />`;
  let bodyEnd = -1;
  for (const match of rewritten.matchAll(/<\/body\s*>/gi)) bodyEnd = match.index;
  const withPixel = bodyEnd === -1 ? `${rewritten}${pixel}` : `${rewritten.slice(0, bodyEnd)}${pixel}${rewritten.slice(bodyEnd)}`;
  return { html: withPixel, links: [...links] };
}
