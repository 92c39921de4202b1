import { replacePlaceholders } from "@/lib/templating/variables";
import { htmlToText } from "./html-to-text";

/** A placeholder's value by name, or undefined when there is none (its fallback applies). */
export type PlaceholderValues = (name: string) => string | undefined;

export type RenderSource = { subject: string; html: string | null; text: string | null; previewText?: string | null };

export type RenderedEmail = { subject: string; html: string | null; text: string };

const escapeHtml = (value: string) => value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

const scalar = (value: unknown) => (typeof value === "string" || typeof value === "number" || typeof value === "boolean" ? String(value) : undefined);

function lookup(root: unknown, path: string): string | undefined {
  let current = root;
  for (const part of path.split(".")) {
    if (current === null || typeof current !== "object" || Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return scalar(current);
}

export type ContactFields = { email: string; first_name: string | null; last_name: string | null; metadata: unknown };

/**
 * A contact's placeholders: `email`, `first_name`, `last_name`, `metadata.<key>` and, as a
 * shorthand, a bare metadata key. `extra` (e.g. `unsubscribe_url`) wins over all of them.
 */
export function contactValues(contact: ContactFields, extra: Record<string, string> = {}): PlaceholderValues {
  return (name) => {
    if (Object.hasOwn(extra, name)) return extra[name];
    if (name === "email") return contact.email;
    if (name === "first_name") return contact.first_name ?? undefined;
    if (name === "last_name") return contact.last_name ?? undefined;
    if (name.startsWith("metadata.")) return lookup(contact.metadata, name.slice("metadata.".length));
    return lookup(contact.metadata, name);
  };
}

/** Placeholders from a transactional request's `variables`, dotted names reaching into objects. */
export const variableValues =
  (variables: Record<string, unknown>): PlaceholderValues =>
  (name) =>
    scalar(variables[name]) ?? lookup(variables, name);

// Clients show the first text of the body beside the subject; this is the usual hidden block.
const preheader = (text: string) =>
  `<div style="display:none;max-height:0;max-width:0;overflow:hidden;opacity:0;mso-hide:all" aria-hidden="true">${escapeHtml(text)}</div>`;

function afterBodyOpen(html: string, insert: string): string {
  const tag = /<body\b[^>]*>/i.exec(html);
  if (!tag) return insert + html;
  const at = tag.index + tag[0].length;
  return html.slice(0, at) + insert + html.slice(at);
}

function beforeBodyClose(html: string, insert: string): string {
  const at = html.search(/<\/body\s*>/i);
  return at < 0 ? html + insert : html.slice(0, at) + insert + html.slice(at);
}

const footerLink = (url: string, label: string) => `<a href="${escapeHtml(url)}" style="color:#6b7280;text-decoration:underline">${label}</a>`;

const footerHtml = (links: string[]) => `<p style="margin:24px 0 0;font-size:12px;line-height:18px;color:#6b7280;text-align:center">${links.join(" · ")}</p>`;

/**
 * The footer marketing mail needs and its content lacks: the unsubscribe link (with "You receive
 * this email because you subscribed") and the preference page, each added only when the content
 * does not already show its URL (through `{{unsubscribe_url}}` or `{{preferences_url}}`).
 */
function footer(html: string | null, text: string, unsubscribeUrl: string, preferencesUrl: string | null | undefined) {
  const wanted = (url: string, inHtml: boolean) => (inHtml ? !html!.includes(escapeHtml(url)) : !text.includes(url));
  const links: [string, string][] = [];
  if (html !== null) {
    if (wanted(unsubscribeUrl, true)) links.push([unsubscribeUrl, "Unsubscribe"]);
    if (preferencesUrl && wanted(preferencesUrl, true)) links.push([preferencesUrl, "Manage preferences"]);
    if (links.length > 0) {
      const because = links[0][1] === "Unsubscribe" ? "You receive this email because you subscribed. " : "";
      html = beforeBodyClose(html, footerHtml([because + footerLink(...links[0]), ...links.slice(1).map((l) => footerLink(...l))]));
    }
  }
  const lines: string[] = [];
  if (wanted(unsubscribeUrl, false)) lines.push(`Unsubscribe: ${unsubscribeUrl}`);
  if (preferencesUrl && wanted(preferencesUrl, false)) lines.push(`Manage preferences: ${preferencesUrl}`);
  if (lines.length > 0) text += `\n\n--\n${lines.join("\n")}`;
  return { html, text };
}

/**
 * Fills `{{name}}` / `{{name|fallback}}` placeholders (values HTML-escaped in the HTML part),
 * adds the preview text as a hidden preheader, derives the plain-text part from the HTML when
 * there is none, and for marketing mail (an `unsubscribeUrl`) adds visible unsubscribe and
 * preference links unless the content already shows them.
 */
export function renderEmail(
  source: RenderSource,
  options: { values: PlaceholderValues; unsubscribeUrl?: string | null; preferencesUrl?: string | null },
): RenderedEmail {
  const fill = (escape: boolean) => (name: string, fallback: string | undefined) => {
    const value = options.values(name);
    if (value === undefined || value === "") return fallback ?? "";
    return escape ? escapeHtml(value) : value;
  };
  const subject = replacePlaceholders(source.subject, fill(false))
    .replace(/[\r\n]+/g, " ")
    .trim();
  let html = source.html ? replacePlaceholders(source.html, fill(true)) : null;
  let text = source.text ? replacePlaceholders(source.text, fill(false)) : html ? htmlToText(html) : "";
  const previewText = source.previewText ? replacePlaceholders(source.previewText, fill(false)).trim() : "";
  if (html && previewText) html = afterBodyOpen(html, preheader(previewText));
  if (options.unsubscribeUrl) ({ html, text } = footer(html, text, options.unsubscribeUrl, options.preferencesUrl));
  return { subject, html, text };
}
