import { describe, expect, it } from "vitest";
import { contactValues, renderEmail } from "@/lib/templating/render-email";
import { emailDocument } from "./document";
import { renderDocument } from "./render";

const text = (value: string, marks?: unknown[]) => ({ type: "text", text: value, ...(marks ? { marks } : {}) });

/** Every kind of block the editor makes. */
const everyBlock = {
  type: "doc",
  content: [
    { type: "heading", attrs: { level: 1 }, content: [text("Hello "), { type: "variable", attrs: { name: "first_name", fallback: "there" } }] },
    { type: "heading", attrs: { level: 2, textAlign: "center" }, content: [text("Spring & more")] },
    {
      type: "paragraph",
      content: [
        text("Read "),
        text("the news", [{ type: "bold" }, { type: "link", attrs: { href: "https://example.com/news?a=1&b=2" } }]),
        text(" or "),
        text("not", [{ type: "italic" }]),
        { type: "hardBreak" },
        text("<script>alert(1)</script>"),
      ],
    },
    {
      type: "bulletList",
      content: [
        { type: "listItem", content: [{ type: "paragraph", content: [text("One")] }] },
        { type: "listItem", content: [{ type: "paragraph", content: [text("Two")] }] },
      ],
    },
    { type: "orderedList", content: [{ type: "listItem", content: [{ type: "paragraph", content: [text("First")] }] }] },
    { type: "image", attrs: { src: "https://cdn.example.com/hero.png", alt: "Hero", width: 560 } },
    { type: "button", attrs: { label: "Shop now", href: "https://example.com/shop", align: "center" } },
    { type: "horizontalRule" },
    { type: "spacer", attrs: { height: 24 } },
    {
      type: "columns",
      content: [
        { type: "column", content: [{ type: "paragraph", content: [text("Left column")] }] },
        {
          type: "column",
          content: [
            { type: "image", attrs: { src: "https://cdn.example.com/side.png", alt: "Side" } },
            { type: "button", attrs: { label: "More", href: "https://example.com/more" } },
          ],
        },
      ],
    },
    { type: "footer" },
  ],
};

/**
 * What email clients need, as a list a rendered email is checked against: Outlook's Word engine
 * and Gmail drop flex, grid and most <style>, so layout must be tables with inline styles, images
 * absolute, and nothing wider than 600 px.
 */
function emailClientViolations(html: string): string[] {
  const problems: string[] = [];
  const body = html.slice(html.search(/<body\b/i));
  if (/display\s*:\s*(inline-)?(flex|grid)/i.test(html)) problems.push("uses flex or grid");
  if (/\b(flex|grid-template|gap)\s*:/i.test(body)) problems.push("uses flex or grid properties");
  if (!/<table\b[^>]*role="presentation"/i.test(body)) problems.push("no table layout");
  for (const [tag, name] of body.matchAll(/<(p|h[1-6]|a|img|ul|ol|li|strong|em|td)\b[^>]*>/gi)) {
    if (name.toLowerCase() === "td" && !/<td\b[^>]*style=/i.test(tag) && !/align=/.test(tag)) problems.push(`unstyled ${tag}`);
    else if (name.toLowerCase() !== "td" && !/\sstyle="[^"]+"/i.test(tag)) problems.push(`no inline style: ${tag.slice(0, 80)}`);
  }
  for (const [, src] of body.matchAll(/<img\b[^>]*\ssrc="([^"]*)"/gi)) if (!/^https?:\/\//.test(src)) problems.push(`relative image ${src}`);
  for (const [, px] of html.matchAll(/(?:^|[\s;"])(?:max-)?width\s*:\s*(\d+)px/gi)) if (Number(px) > 600) problems.push(`width ${px}px`);
  for (const [, px] of html.matchAll(/\swidth="(\d+)"/gi)) if (Number(px) > 600) problems.push(`width attribute ${px}`);
  if (/<script\b/i.test(html)) problems.push("script");
  return problems;
}

describe("the visual editor's document, rendered on the server", () => {
  it("renders every block as email-client-safe HTML", async () => {
    const doc = emailDocument.parse(everyBlock);
    const { html } = await renderDocument(doc, { postalAddress: "1 Main Street\nSpringfield" });
    expect(emailClientViolations(html)).toEqual([]);
    expect(html).toContain("max-width:600px");
    expect(html).toMatch(/<h1 style="[^"]+">Hello \{\{first_name\|there\}\}<\/h1>/);
    expect(html).toContain('<a href="https://example.com/news?a=1&amp;b=2"');
    expect(html).toContain("<strong");
    expect(html).toContain("&lt;script&gt;");
    expect(html).toMatch(
      /<img[^>]+src="https:\/\/cdn\.example\.com\/hero\.png"[^>]+alt="Hero"|<img[^>]+alt="Hero"[^>]+src="https:\/\/cdn\.example\.com\/hero\.png"/,
    );
    expect(html).toContain('href="https://example.com/shop"');
    expect(html).toContain("Shop now");
    expect(html).toContain('href="{{unsubscribe_url}}"');
    expect(html).toContain("1 Main Street<br />Springfield");
    // Two columns side by side, each half of the 600 px.
    expect(html).toMatch(/width:300px/);
  });

  it("catches what email clients cannot show, so the check above can fail", () => {
    expect(emailClientViolations('<body><div style="display:flex;width:800px"><img src="/a.png"><p>x</p></div></body>')).toEqual(
      expect.arrayContaining(["uses flex or grid", "no table layout", "relative image /a.png", "width 800px"]),
    );
  });

  it("derives the plain-text part from the HTML", async () => {
    const { text: plain } = await renderDocument(emailDocument.parse(everyBlock), { postalAddress: "1 Main Street" });
    expect(plain).toContain("Hello {{first_name|there}}");
    expect(plain).toContain("the news (https://example.com/news?a=1&b=2)");
    expect(plain).toContain("- One\n- Two");
    expect(plain).toContain("Shop now (https://example.com/shop)");
    expect(plain).toContain("Unsubscribe ({{unsubscribe_url}})");
    expect(plain).toContain("<script>alert(1)</script>");
    expect(plain).not.toMatch(/mso|<table|<td|<a |<img/);
  });

  it("is filled per recipient at send time, fallbacks included, with one unsubscribe link", async () => {
    const rendered = await renderDocument(emailDocument.parse(everyBlock));
    const url = "https://app.example/u/token";
    const as = (first_name: string | null) =>
      renderEmail(
        { subject: "Hi {{first_name|friend}}", html: rendered.html, text: rendered.text },
        { values: contactValues({ email: "a@b.c", first_name, last_name: null, metadata: {} }, { unsubscribe_url: url }), unsubscribeUrl: url },
      );
    const pat = as("Pat <b>");
    expect(pat.subject).toBe("Hi Pat <b>");
    expect(pat.html).toContain("Hello Pat &lt;b&gt;</h1>");
    expect(pat.text).toContain("Hello Pat <b>");
    const nobody = as(null);
    expect(nobody.subject).toBe("Hi friend");
    expect(nobody.html).toContain("Hello there</h1>");
    expect(nobody.html!.split(url).length - 1).toBe(1);
    expect(nobody.text.split(url).length - 1).toBe(1);
  });

  it("refuses documents the editor cannot make", () => {
    const bad = (content: unknown[]) => emailDocument.safeParse({ type: "doc", content }).success;
    expect(bad([{ type: "paragraph", content: [text("ok")] }])).toBe(true);
    expect(bad([])).toBe(false);
    expect(bad([{ type: "codeBlock" }])).toBe(false);
    expect(bad([{ type: "image", attrs: { src: "/relative.png" } }])).toBe(false);
    expect(bad([{ type: "image", attrs: { src: "javascript:alert(1)" } }])).toBe(false);
    expect(bad([{ type: "paragraph", content: [{ type: "variable", attrs: { name: "a b" } }] }])).toBe(false);
    expect(bad([{ type: "paragraph", content: [{ type: "variable", attrs: { name: "first_name", fallback: "}}" } }] }])).toBe(false);
    expect(
      bad([
        {
          type: "columns",
          content: [
            { type: "column", content: [{ type: "footer" }] },
            { type: "column", content: [] },
          ],
        },
      ]),
    ).toBe(false);
    expect(bad([{ type: "paragraph", content: [text("a\u0000")] }])).toBe(false);
    expect(
      bad([
        { type: "paragraph", content: [text("x".repeat(10_000))] },
        ...Array.from({ length: 120 }, () => ({ type: "paragraph", content: [text("x".repeat(9_000))] })),
      ]),
    ).toBe(false);
  });
});
