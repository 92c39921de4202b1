import { matchBlockConditions } from "@/lib/audience/block-conditions";
import type { EmailDocument } from "@/lib/email-doc/document";
import type { Email } from "@/lib/generated/prisma/client";
import type { Filter } from "@/lib/schemas/filters";
import { applyConditions, documentConditions, hasConditionalBlocks } from "@/lib/templating/conditional-blocks";
import { htmlToText } from "@/lib/templating/html-to-text";
import type { RenderSource } from "@/lib/templating/render-email";
import { engineDb } from "./engine-db";

/** Content a broadcast's email is rendered from, with the record (broadcast, step or template) whose document it is. */
export type MarketingSource = RenderSource & { origin: { key: string; doc: unknown } | null };

type Conditional = {
  filters: Filter[];
  /** Contact id → whether it matches each filter. */
  matches: Map<string, boolean[]>;
  /** What each combination of shown blocks renders to: most recipients share a few. */
  rendered: Map<string, { html: string; text: string }>;
};

/** Content with conditional blocks, by its record's key, with the batch's recipients matched against them. */
export type ConditionalContent = Map<string, Conditional>;

/**
 * For every record among the batch's sources that has conditional blocks: its filters, and which of
 * them each of the batch's contacts matches — one query per record per batch.
 */
export async function loadConditionalContent(items: { email: Email; source: MarketingSource }[]): Promise<ConditionalContent> {
  const groups = new Map<string, { organizationId: string; filters: Filter[]; contacts: Set<string> }>();
  for (const { email, source } of items) {
    if (!source.origin || !email.contact_id || !hasConditionalBlocks(source.html)) continue;
    let group = groups.get(source.origin.key);
    if (!group) {
      group = { organizationId: email.organization_id, filters: documentConditions(source.origin.doc as EmailDocument | null), contacts: new Set() };
      groups.set(source.origin.key, group);
    }
    group.contacts.add(email.contact_id);
  }
  const content: ConditionalContent = new Map();
  for (const [key, group] of groups) {
    if (group.filters.length === 0) continue;
    const matches = await matchBlockConditions(engineDb(), group.organizationId, group.filters, [...group.contacts]);
    content.set(key, { filters: group.filters, matches, rendered: new Map() });
  }
  return content;
}

/**
 * The source as one recipient gets it: the conditional blocks it does not match cut out, and the
 * plain text (derived from the document's HTML when it was rendered) derived again from what is left.
 */
export function forRecipient(source: MarketingSource, contactId: string | null, content: ConditionalContent): RenderSource {
  const conditional = source.origin ? content.get(source.origin.key) : undefined;
  if (!conditional || !source.html) return source;
  const shown = (contactId ? conditional.matches.get(contactId) : undefined) ?? conditional.filters.map(() => false);
  const key = shown.map((on) => (on ? "1" : "0")).join("");
  let rendered = conditional.rendered.get(key);
  if (!rendered) {
    const html = applyConditions(source.html, (index) => shown[index] === true);
    rendered = { html, text: htmlToText(html) };
    conditional.rendered.set(key, rendered);
  }
  return { ...source, html: rendered.html, text: rendered.text };
}
