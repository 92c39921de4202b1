import mjml2html from "mjml";
import { conditionClose, conditionOpen } from "@/lib/templating/conditional-blocks";
import { htmlToText } from "@/lib/templating/html-to-text";
import type { Block, EmailDocument, Inline, SimpleBlock } from "./document";

/**
 * The organization's brand (its theme, lib/schemas/organizations.ts), every value already checked:
 * colours are #rrggbb, the font stack holds no quote that could end an attribute, the footer's HTML
 * was sanitized when it was saved.
 */
export type RenderTheme = {
  primaryColor: string;
  textColor: string;
  backgroundColor: string;
  fontFamily: string;
  logoUrl: string | null;
  footerHtml: string | null;
};

export const defaultTheme: RenderTheme = {
  primaryColor: "#4f46e5",
  textColor: "#18181b",
  backgroundColor: "#ffffff",
  fontFamily: "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif",
  logoUrl: null,
  footerHtml: null,
};

/** What the document does not say: the footer's address, the brand, and the name the logo stands for. */
export type RenderContext = { postalAddress?: string | null; theme?: RenderTheme; brandName?: string };

const escapeHtml = (value: string) => value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

/** A placeholder as the renderer at send time reads it; the fallback is escaped as text of the HTML. */
const placeholder = (name: string, fallback: string | null | undefined) => `{{${name}${fallback ? `|${escapeHtml(fallback)}` : ""}}}`;

function inline(nodes: readonly Inline[] | undefined, theme: RenderTheme): string {
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
      else piece = `<a href="${escapeHtml(mark.attrs.href)}" target="_blank" style="color:${theme.primaryColor};text-decoration:underline">${piece}</a>`;
    }
    html += piece;
  }
  return html;
}

const headingSizes = { 1: [28, 36], 2: [22, 30], 3: [18, 26] } as const;

/** A block of text as one mj-text; MJML passes its content through as HTML. */
const text = (html: string, align?: string | null) => `<mj-text align="${align ?? "left"}">${html}</mj-text>`;

function simple(block: SimpleBlock, theme: RenderTheme): string {
  switch (block.type) {
    case "paragraph":
      return text(
        `<p style="margin:0;font-size:16px;line-height:26px;color:${theme.textColor}">${inline(block.content, theme) || "&nbsp;"}</p>`,
        block.attrs?.textAlign,
      );
    case "heading": {
      const [size, height] = headingSizes[block.attrs.level];
      const tag = `h${block.attrs.level}`;
      return text(
        `<${tag} style="margin:0;font-size:${size}px;line-height:${height}px;font-weight:700;color:${theme.textColor}">${inline(block.content, theme)}</${tag}>`,
        block.attrs.textAlign,
      );
    }
    case "bulletList":
    case "orderedList": {
      const tag = block.type === "bulletList" ? "ul" : "ol";
      const items = block.content
        .map(
          (item) =>
            `<li style="margin:0 0 4px;font-size:16px;line-height:26px;color:${theme.textColor}">${item.content.map((p) => inline(p.content, theme)).join("<br />")}</li>`,
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

/** The unsubscribe line, then the theme's footer, or else the postal address. */
function footer(context: RenderContext): string {
  const address = context.postalAddress?.trim();
  const own = context.theme?.footerHtml?.trim();
  const lines = [
    `You receive this email because you subscribed. <a href="{{unsubscribe_url}}" target="_blank" style="color:#71717a;text-decoration:underline">Unsubscribe</a>`,
    ...(own ? [own] : address ? [escapeHtml(address).replace(/\r?\n/g, "<br />")] : []),
  ];
  // A div, not a p: the theme's footer may hold paragraphs of its own.
  return text(`<div style="margin:0;font-size:12px;line-height:18px;color:#71717a">${lines.join("<br />")}</div>`, "center");
}

/**
 * Top-level blocks in sections: runs of simple blocks share one full-width column, columns get two;
 * a conditional block's sections sit between its markers (numbered in document order), which the
 * sender keeps or cuts per recipient (lib/templating/conditional-blocks.ts).
 */
function sections(blocks: readonly Block[], context: RenderContext, theme: RenderTheme, conditions = { next: 0 }): string {
  const out: string[] = [];
  let run: string[] = [];
  const flush = () => {
    if (run.length) out.push(`<mj-section><mj-column>${run.join("")}</mj-column></mj-section>`);
    run = [];
  };
  for (const block of blocks) {
    if (block.type === "columns") {
      flush();
      out.push(`<mj-section>${block.content.map((c) => `<mj-column>${c.content.map((b) => simple(b, theme)).join("")}</mj-column>`).join("")}</mj-section>`);
    } else if (block.type === "conditional") {
      flush();
      const index = conditions.next++;
      out.push(`<mj-raw>${conditionOpen(index)}</mj-raw>`, sections(block.content, context, theme, conditions), `<mj-raw>${conditionClose(index)}</mj-raw>`);
    } else if (block.type === "footer") {
      flush();
      out.push(`<mj-section padding-top="24px">${`<mj-column>${footer(context)}</mj-column>`}</mj-section>`);
    } else {
      run.push(simple(block, theme));
    }
  }
  flush();
  return out.join("\n");
}

/** The logo at the top, centred, at most 200 px wide. */
const logo = (context: RenderContext, url: string) =>
  `<mj-section padding-top="16px"><mj-column><mj-image src="${escapeHtml(url)}" alt="${escapeHtml(context.brandName ?? "")}" width="200px" align="center" /></mj-column></mj-section>`;

/** The MJML of a document: 600 px wide, the theme's fonts and colours, every style MJML can inline inlined. */
function toMjml(doc: EmailDocument, context: RenderContext = {}): string {
  const theme = context.theme ?? defaultTheme;
  // Quotes in a font stack would end the attribute: MJML attributes take it with single quotes as double.
  const font = theme.fontFamily.replace(/"/g, "'");
  return `<mjml>
<mj-head>
<mj-attributes>
<mj-all font-family="${font}" />
<mj-text padding="8px 24px" color="${theme.textColor}" font-size="16px" line-height="26px" />
<mj-image padding="8px 24px" />
<mj-button background-color="${theme.primaryColor}" color="#ffffff" font-size="16px" font-weight="600" border-radius="6px" inner-padding="12px 24px" padding="12px 24px" />
<mj-divider padding="16px 24px" />
<mj-section padding="0" />
<mj-column padding="0" />
</mj-attributes>
</mj-head>
<mj-body width="600px" background-color="${theme.backgroundColor}">
${theme.logoUrl ? logo(context, theme.logoUrl) : ""}${sections(doc.content, context, theme)}
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
