import { matchBlockConditions } from "@/lib/audience/block-conditions";
import type { OrgContext } from "@/lib/domain/context";
import { db } from "@/lib/db";
import type { EmailDocument } from "@/lib/email-doc/document";
import type { Contact } from "@/lib/generated/prisma/client";
import { applyConditions, documentConditions, hasConditionalBlocks } from "@/lib/templating/conditional-blocks";
import { htmlToText } from "@/lib/templating/html-to-text";
import { contactValues, renderEmail, type RenderSource } from "@/lib/templating/render-email";

/**
 * Content rendered for one contact exactly as the sender would (placeholders, preheader, the
 * unsubscribe and preference links of the footer, and the conditional blocks its filters give this
 * contact), or for nobody in particular: every placeholder at its fallback and every conditional
 * block shown, so a reviewer sees all of it.
 */
export async function renderForContact(
  ctx: OrgContext,
  content: { source: RenderSource; doc: unknown },
  contact: Contact | null,
  extra: Record<string, string>,
  links: { unsubscribeUrl: string | null; preferencesUrl: string | null },
) {
  let source = content.source;
  if (source.html && hasConditionalBlocks(source.html)) {
    const filters = documentConditions(content.doc as EmailDocument | null);
    const shown = contact && filters.length ? (await matchBlockConditions(db, ctx.organizationId, filters, [contact.id])).get(contact.id) : undefined;
    const html = applyConditions(source.html, (index) => !contact || filters.length === 0 || shown?.[index] === true);
    source = { ...source, html, text: htmlToText(html) };
  }
  const values = contact ? contactValues(contact, extra) : (name: string) => (Object.hasOwn(extra, name) ? extra[name] : undefined);
  return renderEmail(source, { values, ...links });
}
