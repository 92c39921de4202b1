import type { OrgContext } from "@/lib/domain/context";
import { invalidField } from "@/lib/domain/errors";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { replacePlaceholders } from "@/lib/templating/variables";
import { contactValues } from "@/lib/templating/render-email";
import { broadcastContent } from "./broadcast-content";
import { renderForContact } from "./render-for-contact";

/** Links in a preview go nowhere real: it is not an email anyone was sent. */
const SAMPLE_LINKS = {
  unsubscribe_url: `${env.appUrl}/u/preview`,
  preferences_url: `${env.appUrl}/p/preview`,
  view_in_browser_url: `${env.appUrl}/v/preview`,
};

/**
 * GET /v1/broadcasts/{id}/preview: the first email or a step rendered as the sender would render
 * it for `contact_id` (its placeholders, its conditional blocks), or for nobody in particular.
 */
export async function previewBroadcast(ctx: OrgContext, id: string, query: { step_id?: string; contact_id?: string }) {
  const content = await broadcastContent(ctx, id, query.step_id);
  const contact = query.contact_id ? await db.contact.findFirst({ where: { id: query.contact_id, organization_id: ctx.organizationId } }) : null;
  if (query.contact_id && !contact) throw invalidField("contact_id", "no such contact in this organization");
  const rendered = await renderForContact(ctx, content, contact, SAMPLE_LINKS, {
    unsubscribeUrl: SAMPLE_LINKS.unsubscribe_url,
    preferencesUrl: SAMPLE_LINKS.preferences_url,
  });
  const values = contact ? contactValues(contact) : () => undefined;
  const previewText = content.source.previewText
    ? replacePlaceholders(content.source.previewText, (name, fallback) => values(name) || fallback || "").trim()
    : "";
  return { subject: rendered.subject, preview_text: previewText, html: rendered.html, text: rendered.text };
}
