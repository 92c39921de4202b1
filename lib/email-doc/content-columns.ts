import type { OrgContext } from "@/lib/domain/context";
import { invalidField } from "@/lib/domain/errors";
import { filterCondition } from "@/lib/audience/membership";
import { db, Prisma } from "@/lib/db";
import type { EmailDocument } from "./document";
import { renderDocument } from "./render";
import { renderContextOf } from "./render-context";

type ContentInput = { content_json?: EmailDocument | null; html_content?: string | null; text_content?: string | null };

export type ContentColumns = {
  content_json?: Prisma.InputJsonValue | typeof Prisma.DbNull;
  html_content?: string | null;
  text_content?: string | null;
};

/** A conditional block's filter must make sense in this organization (its segments, its properties' types): 400 naming it. */
async function checkConditions(ctx: OrgContext, doc: EmailDocument) {
  for (const [i, block] of doc.content.entries()) {
    if (block.type === "conditional") await filterCondition(db, ctx.organizationId, block.attrs.filter, { path: `content_json.content.${i}.attrs.filter` });
  }
}

/**
 * The content columns a write sets. A document is rendered here, on the server, into the HTML and
 * text every sender uses, so API clients, the dashboard and the worker agree; giving HTML or text
 * beside it would be ambiguous and is refused. HTML or text given alone are hand-written content:
 * the document, which no longer describes them, is dropped.
 */
export async function contentColumns(ctx: OrgContext, input: ContentInput): Promise<ContentColumns> {
  const { content_json, html_content, text_content } = input;
  if (content_json) {
    if (html_content !== undefined) throw invalidField("html_content", "cannot be combined with content_json: the HTML is rendered from the document");
    if (text_content !== undefined) throw invalidField("text_content", "cannot be combined with content_json: the text is rendered from the document");
    await checkConditions(ctx, content_json);
    const rendered = await renderDocument(content_json, await renderContextOf(ctx));
    return { content_json: content_json as Prisma.InputJsonValue, html_content: rendered.html, text_content: rendered.text };
  }
  const columns: ContentColumns = {};
  if (html_content !== undefined) columns.html_content = html_content;
  if (text_content !== undefined) columns.text_content = text_content;
  if (content_json === null || html_content !== undefined || text_content !== undefined) columns.content_json = Prisma.DbNull;
  return columns;
}
