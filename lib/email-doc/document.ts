import { z } from "zod";
import { filter } from "@/lib/schemas/filters";

/**
 * The visual editor's document: Tiptap's JSON (a ProseMirror document) restricted to the blocks an
 * email can hold. The server renders html_content and text_content from it (lib/email-doc/render.ts),
 * so the API, the dashboard and the worker send the same thing. Shared by the API schemas and the editor.
 */

const MAX_TEXT = 10_000;
const MAX_BLOCKS = 500;
const MAX_INLINE = 2_000;
/** The whole document as JSON; html_content has the same limit. */
const MAX_DOCUMENT_BYTES = 1_000_000;
/** Each conditional block is one more condition the sender evaluates for every batch of recipients. */
const MAX_CONDITIONAL_BLOCKS = 20;

const noNul = (value: string) => !value.includes("\u0000");
const str = (max: number) => z.string().max(max).refine(noNul, "must not contain NUL characters");

/** A link target as written: http(s), mailto, or a placeholder such as {{unsubscribe_url}}. The pre-send checks judge it. */
const href = str(2048).min(1);
/** Images are fetched by the recipient's client, so only an absolute http(s) address works. */
const imageUrl = str(2048).regex(/^https?:\/\/[^\s"'<>]+$/i, "must be an absolute http(s) URL");
/** Placeholder names as the renderer reads them: `first_name`, `metadata.plan`. */
const placeholderName = z
  .string()
  .regex(/^[A-Za-z_][\w-]*(?:\.[\w-]+)*$/, "must be a placeholder name like first_name or metadata.plan")
  .max(100);
/** A fallback cannot hold braces: `{{first_name|there}}` must stay one placeholder. */
const fallback = str(200).regex(/^[^{}]*$/, "must not contain { or }");

const mark = z.discriminatedUnion("type", [
  z.object({ type: z.literal("bold") }),
  z.object({ type: z.literal("italic") }),
  z.object({ type: z.literal("link"), attrs: z.object({ href }).loose() }),
]);
mark.register(z.globalRegistry, { id: "EmailDocumentMark" });

const textNode = z.object({ type: z.literal("text"), text: str(MAX_TEXT).min(1), marks: z.array(mark).max(3).optional() });
const variableNode = z.object({
  type: z.literal("variable"),
  attrs: z.object({ name: placeholderName, fallback: fallback.nullish() }),
  marks: z.array(mark).max(3).optional(),
});
const hardBreak = z.object({ type: z.literal("hardBreak") });
const inline = z.discriminatedUnion("type", [textNode, variableNode, hardBreak]).meta({ id: "EmailDocumentInline" });
const inlineContent = z.array(inline).max(MAX_INLINE).optional();

const align = z.enum(["left", "center", "right"]).nullish();

const paragraph = z.object({ type: z.literal("paragraph"), attrs: z.object({ textAlign: align }).loose().optional(), content: inlineContent });
paragraph.register(z.globalRegistry, { id: "EmailDocumentParagraph" });
const heading = z.object({
  type: z.literal("heading"),
  attrs: z.object({ level: z.union([z.literal(1), z.literal(2), z.literal(3)]), textAlign: align }).loose(),
  content: inlineContent,
});
heading.register(z.globalRegistry, { id: "EmailDocumentHeading" });
const listItem = z.object({ type: z.literal("listItem"), content: z.array(paragraph).min(1).max(20) }).meta({ id: "EmailDocumentListItem" });
const bulletList = z.object({ type: z.literal("bulletList"), content: z.array(listItem).min(1).max(200) }).meta({ id: "EmailDocumentBulletList" });
const orderedList = z.object({
  type: z.literal("orderedList"),
  attrs: z
    .object({ start: z.number().int().min(0).max(100_000).nullish() })
    .loose()
    .optional(),
  content: z.array(listItem).min(1).max(200),
});
orderedList.register(z.globalRegistry, { id: "EmailDocumentOrderedList" });
const divider = z.object({ type: z.literal("horizontalRule") }).meta({ id: "EmailDocumentDivider" });
const image = z.object({
  type: z.literal("image"),
  attrs: z
    .object({
      src: imageUrl,
      alt: str(500).nullish(),
      width: z.number().int().min(16).max(600).nullish(),
      href: href.nullish(),
    })
    .loose(),
});
image.register(z.globalRegistry, { id: "EmailDocumentImage" });
const button = z.object({
  type: z.literal("button"),
  attrs: z.object({ label: str(200).min(1), href, align }).loose(),
});
button.register(z.globalRegistry, { id: "EmailDocumentButton" });
const spacer = z.object({ type: z.literal("spacer"), attrs: z.object({ height: z.number().int().min(4).max(200) }).loose() });
spacer.register(z.globalRegistry, { id: "EmailDocumentSpacer" });
const footer = z.object({ type: z.literal("footer") }).meta({ id: "EmailDocumentFooter" });

/** What a column holds: every block but columns and the footer. */
const simpleBlock = z.discriminatedUnion("type", [paragraph, heading, bulletList, orderedList, divider, image, button, spacer]);
const column = z.object({ type: z.literal("column"), content: z.array(simpleBlock).min(1).max(100) });
const columns = z.object({ type: z.literal("columns"), content: z.tuple([column, column]) }).meta({ id: "EmailDocumentColumns" });

/** Blocks shown only to the contacts its filter matches; it holds every block but the footer and another condition. */
const conditional = z
  .object({
    type: z.literal("conditional"),
    attrs: z.object({ filter }).loose(),
    content: z
      .array(z.discriminatedUnion("type", [paragraph, heading, bulletList, orderedList, divider, image, button, spacer, columns]))
      .min(1)
      .max(100),
  })
  .meta({ id: "EmailDocumentConditional" });

const block = z.discriminatedUnion("type", [paragraph, heading, bulletList, orderedList, divider, image, button, spacer, columns, footer, conditional]);

export const emailDocument = z
  .object({ type: z.literal("doc"), content: z.array(block).min(1).max(MAX_BLOCKS) })
  .refine((doc) => JSON.stringify(doc).length <= MAX_DOCUMENT_BYTES, `must be at most ${MAX_DOCUMENT_BYTES} bytes as JSON`)
  .refine(
    (doc) => doc.content.filter((b) => b.type === "conditional").length <= MAX_CONDITIONAL_BLOCKS,
    `must have at most ${MAX_CONDITIONAL_BLOCKS} conditional blocks`,
  )
  .meta({
    id: "EmailDocument",
    description:
      "The visual editor's document (Tiptap/ProseMirror JSON). Blocks: paragraph, heading (levels 1–3), bulletList, orderedList, " +
      "horizontalRule, image { src, alt, width, href }, button { label, href, align }, spacer { height }, columns (two column nodes), footer " +
      "(the unsubscribe link and the organization's postal address) and conditional { filter } (blocks sent only to the contacts the Filter matches). Inline: text with bold, italic and link marks, hardBreak, and " +
      "variable { name, fallback } for a `{{name|fallback}}` placeholder.",
  });

export type EmailDocument = z.infer<typeof emailDocument>;
export type Block = EmailDocument["content"][number];
export type SimpleBlock = z.infer<typeof simpleBlock>;
export type Inline = z.infer<typeof inline>;
