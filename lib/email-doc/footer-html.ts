import sanitizeHtml from "sanitize-html";

/**
 * The theme's footer as it may appear in every email: links (http, https, mailto, or a placeholder
 * such as {{unsubscribe_url}}), bold, italic, line breaks, paragraphs and spans with a few text
 * styles. Everything else is removed when it is saved: the footer goes inside the renderer's own
 * markup, where a stray tag would break the layout, and into pages the dashboard shows.
 */
export function sanitizeFooterHtml(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: ["a", "b", "strong", "i", "em", "br", "p", "span"],
    allowedAttributes: { a: ["href", "title", "style"], span: ["style"], p: ["style"] },
    allowedStyles: {
      "*": {
        color: [/^#[0-9a-f]{3,6}$/i],
        "font-size": [/^\d{1,2}px$/],
        "font-weight": [/^(bold|normal|[1-9]00)$/],
        "text-align": [/^(left|right|center)$/],
        "text-decoration": [/^(none|underline)$/],
      },
    },
    allowedSchemes: ["http", "https", "mailto"],
    allowProtocolRelative: false,
  }).trim();
}
