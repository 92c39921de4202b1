import type { OrgContext } from "@/lib/domain/context";
import { db, Prisma } from "@/lib/db";
import type { PresendCheck, PresendChecks } from "@/lib/schemas/presend-checks";
import { audienceCondition } from "@/lib/audience/reachable";
import { mimeMessage } from "@/lib/sending/mime-message";
import { renderEmail } from "@/lib/templating/render-email";
import { spamScore } from "@/lib/sending/spam-score";
import { replacePlaceholders } from "@/lib/templating/variables";
import { broadcastContent } from "./broadcast-content";

/** Gmail clips a message body over 102 KB; a little room is left for tracking and the footer. */
const SIZE_LIMIT_BYTES = 100 * 1024;
const MAX_ITEMS = 20;
/** Placeholders every recipient has, or that the platform fills itself. */
const ALWAYS_FILLED = new Set(["email", "unsubscribe_url", "preferences_url", "view_in_browser_url"]);

const PLACEHOLDER = /\{\{\s*([A-Za-z_][\w-]*(?:\.[\w-]+)*)\s*(\|\s*[^{}]*?)?\s*\}\}/g;
const ANCHOR_HREF = /<a\b[^>]*?\shref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi;
const IMG = /<img\b[^>]*>/gi;

const decode = (value: string) =>
  value
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .trim();

type Content = {
  subject: string;
  previewText: string | null;
  html: string | null;
  text: string | null;
  marketing: boolean;
  audience: { segmentId: string; topicId: string | null } | null;
};

const check = (id: PresendCheck["id"], status: PresendCheck["status"], title: string, message: string, items: string[] = []): PresendCheck => ({
  id,
  status,
  title,
  message,
  items: items.slice(0, MAX_ITEMS),
});

/** An href that works for every recipient: http(s), mailto, or a link the platform fills (unsubscribe, preferences, view in browser). */
function resolves(href: string): boolean {
  if (/^\{\{\s*(?:unsubscribe_url|preferences_url|view_in_browser_url)\s*\}\}$/.test(href)) return true;
  if (/^mailto:[^\s@]+@[^\s@]+$/i.test(href)) return true;
  // A placeholder inside a URL (…?id={{metadata.id}}) still leaves an http(s) address.
  const probe = replacePlaceholders(href, () => "x");
  try {
    const url = new URL(probe);
    return (url.protocol === "http:" || url.protocol === "https:") && Boolean(url.hostname);
  } catch {
    return false;
  }
}

function linkCheck(html: string): PresendCheck {
  const broken = new Set<string>();
  let count = 0;
  for (const match of html.matchAll(ANCHOR_HREF)) {
    count += 1;
    const href = decode(match[1] ?? match[2] ?? match[3] ?? "");
    if (!resolves(href)) broken.add(href || "(empty link)");
  }
  if (broken.size)
    return check(
      "links",
      "error",
      "Links that go nowhere",
      `${broken.size} link${broken.size === 1 ? "" : "s"} do not lead to a web address (http or https).`,
      [...broken],
    );
  return check("links", "pass", "Links", count ? `All ${count} links lead to web addresses.` : "The email has no links.");
}

function altCheck(html: string): PresendCheck {
  const missing: string[] = [];
  let count = 0;
  for (const [tag] of html.matchAll(IMG)) {
    count += 1;
    const alt = /\salt\s*=\s*(?:"([^"]*)"|'([^']*)')/i.exec(tag);
    if (!alt || !(alt[1] ?? alt[2] ?? "").trim()) missing.push(/\ssrc\s*=\s*["']([^"']*)["']/i.exec(tag)?.[1] ?? "(image)");
  }
  if (missing.length)
    return check(
      "image_alt",
      "warning",
      "Images without alt text",
      `${missing.length} image${missing.length === 1 ? " has" : "s have"} no alternative text: people who block images or use a screen reader see nothing.`,
      missing,
    );
  return check("image_alt", "pass", "Image descriptions", count ? "Every image has alternative text." : "The email has no images.");
}

/** SQL that is true when a contact has no value for the placeholder, as the renderer reads it. */
function missingCondition(name: string): Prisma.Sql {
  if (name === "first_name") return Prisma.sql`NULLIF(btrim(c.first_name), '') IS NULL`;
  if (name === "last_name") return Prisma.sql`NULLIF(btrim(c.last_name), '') IS NULL`;
  const path = (name.startsWith("metadata.") ? name.slice("metadata.".length) : name).split(".");
  return Prisma.sql`(jsonb_typeof(c.metadata #> ${path}::text[]) NOT IN ('string', 'number', 'boolean') OR jsonb_typeof(c.metadata #> ${path}::text[]) IS NULL OR NULLIF(c.metadata #>> ${path}::text[], '') IS NULL)`;
}

async function placeholderCheck(ctx: OrgContext, content: Content): Promise<PresendCheck> {
  const sources = [content.subject, content.previewText ?? "", content.html ?? "", content.text ?? ""];
  const bare = new Set<string>();
  for (const source of sources) for (const match of source.matchAll(PLACEHOLDER)) if (!match[2] && !ALWAYS_FILLED.has(match[1])) bare.add(match[1]);
  const names = [...bare].slice(0, 50);
  if (!names.length) return check("placeholders", "pass", "Placeholders", "Every placeholder has a fallback, or the email has none.");
  if (!content.audience) {
    return check(
      "placeholders",
      "warning",
      "Placeholders without a fallback",
      "Choose an audience to count the recipients who lack them; meanwhile add a fallback, e.g. {{first_name|there}}.",
      names,
    );
  }
  const audience = await audienceCondition(db, { organizationId: ctx.organizationId, ...content.audience });
  const counts = Prisma.join(names.map((name, i) => Prisma.sql`count(*) FILTER (WHERE ${missingCondition(name)})::int AS ${Prisma.raw(`"m${i}"`)}`));
  const [row] = await db.$queryRaw<Record<string, number>[]>`SELECT count(*)::int AS total, ${counts} FROM contacts c WHERE ${audience}`;
  const lacking = names.map((name, i) => ({ name, missing: row[`m${i}`] })).filter((p) => p.missing > 0);
  if (!lacking.length)
    return check(
      "placeholders",
      "pass",
      "Placeholders",
      `Every one of the ${row.total} recipients has a value for ${names.map((n) => `{{${n}}}`).join(", ")}.`,
    );
  return check(
    "placeholders",
    "warning",
    "Placeholders some recipients lack",
    "These recipients would see an empty space. Add a fallback, e.g. {{first_name|there}}.",
    lacking.map((p) => `{{${p.name}}}: ${p.missing} of ${row.total} recipients have no value`),
  );
}

async function spamCheck(ctx: OrgContext, content: Content, html: string | null, text: string, signal?: AbortSignal): Promise<PresendCheck> {
  const { raw } = mimeMessage({
    from: { name: "Check", address: "check@example.com" },
    to: "recipient@example.com",
    subject: content.subject,
    messageId: "<presend-check@example.com>",
    text,
    html,
  });
  const result = await spamScore(raw, { organizationId: ctx.organizationId, signal });
  if (!result.available) return check("spam", "skipped", "Spam score", `${result.reason}: the content was not scored.`);
  const message = `SpamAssassin (local rules) scores the content ${result.score} (spam from ${result.threshold}).`;
  return check("spam", result.score >= result.threshold ? "warning" : "pass", "Spam score", message, result.rules);
}

async function runChecks(ctx: OrgContext, content: Content, signal?: AbortSignal): Promise<PresendChecks> {
  const checks: PresendCheck[] = [];
  checks.push(
    content.subject.trim()
      ? check("subject", "pass", "Subject", "The email has a subject.")
      : check("subject", "error", "Empty subject", "Write a subject: inboxes show it first."),
  );
  checks.push(
    content.previewText?.trim()
      ? check("preview_text", "pass", "Preview text", "Inboxes show it beside the subject.")
      : check("preview_text", "warning", "No preview text", "Inboxes then show the first words of the body beside the subject."),
  );
  const html = content.html ?? "";
  if (!html.trim() && !content.text?.trim()) checks.push(check("content", "error", "No content", "Write the email, or choose a template."));
  if (content.marketing) {
    const linked = /\{\{\s*unsubscribe_url\s*\}\}/.test(html) || /\{\{\s*unsubscribe_url\s*\}\}/.test(content.text ?? "");
    checks.push(
      linked
        ? check("unsubscribe", "pass", "Unsubscribe link", "The content has its own unsubscribe link.")
        : check(
            "unsubscribe",
            "warning",
            "No unsubscribe link in the content",
            "Marketing mail must let people unsubscribe: a plain line with the link is added at the bottom. Add a footer block to place it yourself.",
          ),
    );
  }
  checks.push(linkCheck(html));
  checks.push(altCheck(html));
  checks.push(await placeholderCheck(ctx, content));
  // Measured as sent: placeholders at their fallbacks, preheader and footer added.
  const sample = renderEmail(
    { subject: content.subject, html: content.html, text: content.text, previewText: content.previewText },
    { values: () => undefined, unsubscribeUrl: content.marketing ? "https://example.com/u/xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" : null },
  );
  const bytes = Buffer.byteLength(sample.html ?? "", "utf8");
  const kb = Math.round(bytes / 102.4) / 10;
  checks.push(
    bytes > SIZE_LIMIT_BYTES
      ? check(
          "size",
          "warning",
          "Too large for Gmail",
          `The HTML is ${kb} KB: Gmail clips messages over 102 KB behind a "View entire message" link, hiding the rest and the unsubscribe link.`,
        )
      : check("size", "pass", "Size", `The HTML is ${kb} KB (Gmail clips at 102 KB).`),
  );
  checks.push(await spamCheck(ctx, content, sample.html, sample.text, signal));
  const errors = checks.filter((c) => c.status === "error").length;
  const warnings = checks.filter((c) => c.status === "warning").length;
  return { ok: errors === 0, errors, warnings, checks };
}

/**
 * GET /v1/broadcasts/{id}/checks (`stepId`: a follow-up step's instead of the first email's): what
 * to fix, or know, before sending. `signal` is the request's: when the client goes away, its spam
 * check leaves SpamAssassin's queue or has its run stopped.
 */
export async function broadcastChecks(ctx: OrgContext, id: string, options: { signal?: AbortSignal; stepId?: string } = {}): Promise<PresendChecks> {
  const { broadcast: b, source } = await broadcastContent(ctx, id, options.stepId);
  const content: Content = {
    subject: source.subject,
    previewText: source.previewText ?? null,
    html: source.html,
    text: source.text,
    marketing: true,
    audience: b.segment_id ? { segmentId: b.segment_id, topicId: b.topic_id } : null,
  };
  return runChecks(ctx, content, options.signal);
}
