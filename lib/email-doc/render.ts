import mjml2html from "mjml";
import { htmlToText } from "@/lib/templating/html-to-text";
import type { Block, EmailDocument, Inline, SimpleBlock } from "./document";

/** What the document does not say: the footer's address. */
export type RenderContext = { postalAddress?: string | null };

const FONT = "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";
const TEXT_COLOR = "#18181b";
const LINK_COLOR = "#4f46e5";

const escapeHtml = (value: string) => value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

/** A placeholder as the renderer at send time reads it; the fallback is escaped as text of the HTML. */
const placeholder = (name: string, fallback: string | null | undefined) => `{{${name}${fallback ? `|${escapeHtml(fallback)}` : ""}}}`;

function inline(nodes: readonly Inline[] | undefined): string {
  let html = "";
  for (const node of nodes ?? []) {
    if (node.type === "hardBreak") {
      html += "<br />";
      continue;
    }
    let piece = node.type === "text" ? escapeHtml(node.text) : placeholder(node.attrs.name, node.attrs.fallback);
    // Link outermost, so bold and italic stay inside the anchor as clients expect.
    const marks = [...(node.marks ?? [])].sort((a, b) => (a.type === "link" ? 1 : 0) - (b.type === "link" ? 1 : 0));
    for (const mark of marks) {
      if (mark.type === "bold") piece = `<strong style="font-weight:700">${piece}</strong>`;
      else if (mark.type === "italic") piece = `<em style="font-style:italic">${piece}</em>`;
      else piece = `<a href="${escapeHtml(mark.attrs.href)}" target="_blank" style="color:${LINK_COLOR};text-decoration:underline">${piece}</a>`;
    }
    html += piece;
  }
  return html;
}

const headingSizes = { 1: [28, 36], 2: [22, 30], 3: [18, 26] } as const;

/** A block of text as one mj-text; MJML passes its content through as HTML. */
const text = (html: string, align?: string | null) => `<mj-text align="${align ?? "left"}">${html}</mj-text>`;

function simple(block: SimpleBlock): string {
  switch (block.type) {
    case "paragraph":
      return text(`<p style="margin:0;font-size:16px;line-height:26px;color:${TEXT_COLOR}">${inline(block.content) || "&nbsp;"}</p>`, block.attrs?.textAlign);
    case "heading": {
      const [size, height] = headingSizes[block.attrs.level];
      const tag = `h${block.attrs.level}`;
      return text(
        `<${tag} style="margin:0;font-size:${size}px;line-height:${height}px;font-weight:700;color:${TEXT_COLOR}">${inline(block.content)}</${tag}>`,
        block.attrs.textAlign,
      );
    }
    case "bulletList":
    case "orderedList": {
      const tag = block.type === "bulletList" ? "ul" : "ol";
      const items = block.content
        .map(
          (item) =>
            `<li style="margin:0 0 4px;font-size:16px;line-height:26px;color:${TEXT_COLOR}">${item.content.map((p) => inline(p.content)).join("<br />")}</li>`,
        )
        .join("");
      return text(`<${tag} style="margin:0;padding:0 0 0 24px">${items}</${tag}>`);
    }
    case "horizontalRule":
      return `<mj-divider border-width="1px" border-color="#e4e4e7" />`;
    case "image": {
      const { src, alt, width, href } = block.attrs;
      const link = href ? ` href="${escapeHtml(href)}"` : "";
      return `<mj-image src="${escapeHtml(src)}" alt="${escapeHtml(alt ?? "")}"${width ? ` width="${width}px"` : ""}${link} />`;
    }
    case "button":
      return `<mj-button href="${escapeHtml(block.attrs.href)}" align="${block.attrs.align ?? "left"}">${escapeHtml(block.attrs.label)}</mj-button>`;
    case "spacer":
      return `<mj-spacer height="${block.attrs.height}px" />`;
  }
}

function footer(context: RenderContext): string {
  const address = context.postalAddress?.trim();
  const lines = [
    `You receive this email because you subscribed. <a href="{{unsubscribe_url}}" target="_blank" style="color:#71717a;text-decoration:underline">Unsubscribe</a>`,
    ...(address ? [escapeHtml(address).replace(/\r?\n/g, "<br />")] : []),
  ];
  return text(`<p style="margin:0;font-size:12px;line-height:18px;color:#71717a">${lines.join("<br />")}</p>`, "center");
}

/** Top-level blocks in sections: runs of simple blocks share one full-width column, columns get two. */
function sections(blocks: readonly Block[], context: RenderContext): string {
  const out: string[] = [];
  let run: string[] = [];
  const flush = () => {
    if (run.length) out.push(`<mj-section><mj-column>${run.join("")}</mj-column></mj-section>`);
    run = [];
  };
  for (const block of blocks) {
    if (block.type === "columns") {
      flush();
      out.push(`<mj-section>${block.content.map((c) => `<mj-column>${c.content.map(simple).join("")}</mj-column>`).join("")}</mj-section>`);
    } else if (block.type === "footer") {
      flush();
      out.push(`<mj-section padding-top="24px">${`<mj-column>${footer(context)}</mj-column>`}</mj-section>`);
    } else {
      run.push(simple(block));
    }
  }
  flush();
  return out.join("\n");
}

/** The MJML of a document: 600 px wide, system fonts, every style MJML can inline inlined. */
function toMjml(doc: EmailDocument, context: RenderContext = {}): string {
  return `<mjml>
<mj-head>
<mj-attributes>
<mj-all font-family="${FONT}" />
<mj-text padding="8px 24px" color="${TEXT_COLOR}" font-size="16px" line-height="26px" />
<mj-image padding="8px 24px" />
<mj-button background-color="${LINK_COLOR}" color="#ffffff" font-size="16px" font-weight="600" border-radius="6px" inner-padding="12px 24px" padding="12px 24px" />
<mj-divider padding="16px 24px" />
<mj-section padding="0" />
<mj-column padding="0" />
</mj-attributes>
</mj-head>
<mj-body width="600px" background-color="#ffffff">
${sections(doc.content, context)}
</mj-body>
</mjml>`;
}

export type RenderedDocument = { html: string; text: string };

/**
 * The email-client-safe HTML of a document (MJML: table layout, inline styles, 600 px wide,
 * nothing that needs flex or grid) and the plain-text part derived from it. Placeholders stay
 * as `{{name|fallback}}` for the sending renderer to fill per recipient.
 */
export async function renderDocument(doc: EmailDocument, context: RenderContext = {}): Promise<RenderedDocument> {
  const result = await mjml2html(toMjml(doc, context), { validationLevel: "strict", fonts: {}, keepComments: false });
  return { html: result.html, text: htmlToText(result.html) };
}
