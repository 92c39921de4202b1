import { replacePlaceholders } from "./variables";

const escapeHtml = (value: string) => value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

// A reviewer sees what a recipient without data would see: the fallback where one is written,
// otherwise a visible marker, so a forgotten fallback stands out instead of vanishing.
const sample = (name: string, fallback: string | undefined) => (fallback ? fallback : `[${name}]`);

// Email clients show the first text of the body beside the subject; this is the usual hidden block.
const preheader = (text: string) =>
  `<div style="display:none;max-height:0;max-width:0;overflow:hidden;opacity:0;mso-hide:all" aria-hidden="true">${escapeHtml(text)}</div>`;

/** The HTML a reviewer looks at: placeholders filled with samples, preview text as a hidden preheader. */
export function previewHtml(html: string, previewText: string | null): string {
  const body = replacePlaceholders(html, sample);
  if (!previewText) return body;
  const hidden = preheader(replacePlaceholders(previewText, sample));
  const bodyTag = /<body\b[^>]*>/i.exec(body);
  if (!bodyTag) return hidden + body;
  const at = bodyTag.index + bodyTag[0].length;
  return body.slice(0, at) + hidden + body.slice(at);
}
