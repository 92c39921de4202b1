import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { applyConditions } from "@/lib/templating/conditional-blocks";
import { renderEmail } from "@/lib/templating/render-email";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The newest this many: an archive page, not an export. */
const MAX_ARCHIVED = 100;
const SENT = ["sending", "sent"] as const;

const archiveUrl = (organizationId: string, broadcastId?: string) => `${env.appUrl}/archive/${organizationId}${broadcastId ? `/${broadcastId}` : ""}`;

/**
 * An organization's public archive (`public_archive` on): the broadcasts it has sent, newest first.
 * Null when the organization keeps none, or does not exist: the page is then 404 either way.
 */
export async function publicArchive(organizationId: string) {
  if (!UUID.test(organizationId)) return null;
  const org = await db.organization.findFirst({ where: { id: organizationId, public_archive: true }, select: { name: true } });
  if (!org) return null;
  const broadcasts = await db.broadcast.findMany({
    where: { organization_id: organizationId, status: { in: [...SENT] }, started_at: { not: null } },
    select: { id: true, subject: true, started_at: true },
    orderBy: [{ started_at: "desc" }, { id: "desc" }],
    take: MAX_ARCHIVED,
  });
  return { name: org.name, broadcasts: broadcasts.map((b) => ({ id: b.id, subject: b.subject, sent_at: b.started_at! })) };
}

/**
 * A sent broadcast as the archive shows it: for nobody in particular, every placeholder at its
 * fallback, and without its conditional blocks (they are for some contacts only, and may name them).
 */
export async function archivedBroadcastHtml(organizationId: string, broadcastId: string): Promise<string | null> {
  if (!UUID.test(organizationId) || !UUID.test(broadcastId)) return null;
  const broadcast = await db.broadcast.findFirst({
    where: { id: broadcastId, organization_id: organizationId, status: { in: [...SENT] }, organization: { public_archive: true } },
    select: { subject: true, html_content: true, text_content: true, preview_text: true, template_id: true },
  });
  if (!broadcast) return null;
  const template = broadcast.template_id
    ? await db.template.findFirst({ where: { id: broadcast.template_id, organization_id: organizationId }, select: { html_content: true, text_content: true } })
    : null;
  const html = (template ? template.html_content : broadcast.html_content) || null;
  const text = (template ? template.text_content : broadcast.text_content) || null;
  const self = archiveUrl(organizationId, broadcastId);
  // Nobody's links: the unsubscribe and preference links of the content lead to the archive itself.
  const links: Record<string, string> = { view_in_browser_url: self, unsubscribe_url: archiveUrl(organizationId), preferences_url: archiveUrl(organizationId) };
  const rendered = renderEmail(
    { subject: broadcast.subject, html: html && applyConditions(html, () => false), text, previewText: broadcast.preview_text },
    { values: (name) => links[name] },
  );
  const escape = (value: string) => value.replace(/&/g, "&amp;").replace(/</g, "&lt;");
  return (
    rendered.html ??
    `<!doctype html><meta charset="utf-8"><title>${escape(rendered.subject)}</title><pre style="white-space:pre-wrap;font-family:sans-serif;padding:16px">${escape(rendered.text)}</pre>`
  );
}
