import type { EmailDocument } from "@/lib/email-doc/document";
import type { Filter } from "@/lib/schemas/filters";

/**
 * Conditional blocks in rendered HTML: the renderer wraps the n-th one's markup in these comments
 * (lib/email-doc/render.ts); the sender keeps or cuts each for its recipient. Comments, so a client
 * shown the HTML as stored (the API, a preview) sees every block and no marker. Only the renderer
 * writes them: text of a document is escaped, so `<!--` cannot come from what a person typed.
 */
export const conditionOpen = (index: number) => `<!--mp:if ${index}-->`;
export const conditionClose = (index: number) => `<!--mp:end ${index}-->`;

const BLOCK = /<!--mp:if (\d+)-->([\s\S]*?)<!--mp:end \1-->/g;

export const hasConditionalBlocks = (html: string | null | undefined) => Boolean(html?.includes("<!--mp:if "));

/** The HTML one recipient gets: each conditional block kept when `shown(index)`, cut otherwise; the markers gone. */
export function applyConditions(html: string, shown: (index: number) => boolean): string {
  return html.replace(BLOCK, (_match, index: string, inner: string) => (shown(Number(index)) ? inner : ""));
}

/** The filters of a document's conditional blocks, in the order the renderer numbered them. */
export function documentConditions(doc: EmailDocument | null | undefined): Filter[] {
  return (doc?.content ?? []).flatMap((block) => (block.type === "conditional" ? [block.attrs.filter] : []));
}
