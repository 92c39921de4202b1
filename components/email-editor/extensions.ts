import { mergeAttributes, Node, type Extensions, type SingleCommands } from "@tiptap/core";
import { ListItem } from "@tiptap/extension-list";
import { Placeholder } from "@tiptap/extensions";
import type { EditorState } from "@tiptap/pm/state";
import StarterKit from "@tiptap/starter-kit";
import type { Filter } from "@/lib/schemas/filter-language";
import { filterSummary } from "./filter-summary";

/**
 * The editor's schema is the email document's (lib/email-doc/document.ts): what it cannot hold,
 * ProseMirror drops on paste, so text from Google Docs or Word arrives as headings, paragraphs,
 * lists, bold, italic and links only (Google Docs' `<b style="font-weight:normal">` wrapper is
 * not taken for bold: the Bold extension knows it).
 */

const SIMPLE_BLOCKS = "(paragraph | heading | bulletList | orderedList | horizontalRule | image | button | spacer)+";
const httpUrl = (value: string | null | undefined) => (value && /^https?:\/\/[^\s"'<>]+$/i.test(value) ? value : null);

declare module "@tiptap/core" {
  interface Commands<ReturnType> {
    emailBlocks: {
      insertButton: (attrs: { label: string; href: string }) => ReturnType;
      insertImage: (attrs: { src: string; alt: string; href?: string | null }) => ReturnType;
      insertSpacer: (height?: number) => ReturnType;
      insertColumns: () => ReturnType;
      insertFooter: () => ReturnType;
      insertVariable: (attrs: { name: string; fallback: string | null }) => ReturnType;
      /** Shows the selected blocks only to contacts matching `filter` (or changes the condition of the block the cursor is in). */
      setCondition: (filter: Filter) => ReturnType;
      /** Shows the blocks of the conditional block the cursor is in to everyone again. */
      removeCondition: () => ReturnType;
      /** A small centred "View this email in your browser" line linking {{view_in_browser_url}}. */
      insertViewInBrowser: () => ReturnType;
    };
  }
}

const Variable = Node.create({
  name: "variable",
  group: "inline",
  inline: true,
  atom: true,
  selectable: true,
  addAttributes: () => ({ name: { default: "first_name" }, fallback: { default: null } }),
  parseHTML: () => [
    {
      tag: "span[data-variable]",
      getAttrs: (el) => ({ name: (el as HTMLElement).getAttribute("data-variable"), fallback: (el as HTMLElement).getAttribute("data-fallback") || null }),
    },
  ],
  renderHTML: ({ node }) => [
    "span",
    { "data-variable": node.attrs.name, "data-fallback": node.attrs.fallback ?? "", class: "email-variable" },
    `{{${node.attrs.name}${node.attrs.fallback ? `|${node.attrs.fallback}` : ""}}}`,
  ],
  renderText: ({ node }) => `{{${node.attrs.name}${node.attrs.fallback ? `|${node.attrs.fallback}` : ""}}}`,
});

const Image = Node.create({
  name: "image",
  group: "block",
  atom: true,
  draggable: true,
  addAttributes: () => ({ src: { default: null }, alt: { default: "" }, width: { default: null }, href: { default: null } }),
  // Only images a recipient's client can load: pasted data: and relative images are dropped.
  parseHTML: () => [
    {
      tag: "img[src]",
      getAttrs: (el) =>
        httpUrl((el as HTMLElement).getAttribute("src"))
          ? { src: (el as HTMLElement).getAttribute("src"), alt: (el as HTMLElement).getAttribute("alt") ?? "" }
          : false,
    },
  ],
  renderHTML: ({ HTMLAttributes }) => ["img", mergeAttributes({ class: "email-image" }, { src: HTMLAttributes.src, alt: HTMLAttributes.alt })],
});

const Button = Node.create({
  name: "button",
  group: "block",
  atom: true,
  draggable: true,
  addAttributes: () => ({ label: { default: "Button" }, href: { default: "https://" }, align: { default: null } }),
  parseHTML: () => [
    { tag: "a[data-email-button]", getAttrs: (el) => ({ label: (el as HTMLElement).textContent, href: (el as HTMLElement).getAttribute("href") }) },
  ],
  renderHTML: ({ node }) => [
    "p",
    { class: "email-button-row" },
    ["a", { "data-email-button": "", href: node.attrs.href, class: "email-button", title: node.attrs.href }, node.attrs.label],
  ],
});

const Spacer = Node.create({
  name: "spacer",
  group: "block",
  atom: true,
  addAttributes: () => ({ height: { default: 24 } }),
  parseHTML: () => [{ tag: "div[data-spacer]" }],
  renderHTML: ({ node }) => [
    "div",
    { "data-spacer": "", class: "email-spacer", style: `height:${node.attrs.height}px`, "aria-label": `Space of ${node.attrs.height} pixels` },
  ],
});

const Footer = Node.create({
  name: "footer",
  group: "block",
  atom: true,
  parseHTML: () => [{ tag: "div[data-email-footer]" }],
  renderHTML: () => [
    "div",
    { "data-email-footer": "", class: "email-footer" },
    "You receive this email because you subscribed. Unsubscribe · your organization's postal address",
  ],
});

const Column = Node.create({
  name: "column",
  content: SIMPLE_BLOCKS,
  isolating: true,
  parseHTML: () => [{ tag: "div[data-column]" }],
  renderHTML: () => ["div", { "data-column": "", class: "email-column" }, 0],
});

const Columns = Node.create({
  name: "columns",
  group: "block",
  content: "column{2}",
  isolating: true,
  parseHTML: () => [{ tag: "div[data-columns]" }],
  renderHTML: () => ["div", { "data-columns": "", class: "email-columns" }, 0],
});

const Conditional = Node.create({
  name: "conditional",
  group: "block",
  content: "(paragraph | heading | bulletList | orderedList | horizontalRule | image | button | spacer | columns)+",
  defining: true,
  addAttributes: () => ({
    filter: {
      default: null,
      parseHTML: (el) => {
        try {
          return JSON.parse(el.getAttribute("data-filter") ?? "null") as unknown;
        } catch {
          return null;
        }
      },
      renderHTML: (attrs) => ({ "data-filter": JSON.stringify(attrs.filter) }),
    },
  }),
  parseHTML: () => [{ tag: "div[data-conditional]" }],
  renderHTML: ({ node, HTMLAttributes }) => [
    "div",
    mergeAttributes(HTMLAttributes, {
      "data-conditional": "",
      class: "email-conditional",
      "data-label": `Only for contacts where ${filterSummary(node.attrs.filter as Filter | null)}`,
    }),
    0,
  ],
});

/** Inserts a block after whatever is selected (a button, a word) instead of replacing it. */
const insertBlock =
  (content: object) =>
  ({ state, commands }: { state: EditorState; commands: SingleCommands }) =>
    state.selection.empty ? commands.insertContent(content) : commands.insertContentAt(state.selection.to, content);

const Commands = Node.create({
  name: "emailCommands",
  addCommands: () => ({
    insertButton: (attrs) => insertBlock({ type: "button", attrs }),
    insertImage: (attrs) => insertBlock({ type: "image", attrs }),
    insertSpacer: (height = 24) => insertBlock({ type: "spacer", attrs: { height } }),
    insertColumns: () =>
      insertBlock({
        type: "columns",
        content: [
          { type: "column", content: [{ type: "paragraph", content: [{ type: "text", text: "Left column" }] }] },
          { type: "column", content: [{ type: "paragraph", content: [{ type: "text", text: "Right column" }] }] },
        ],
      }),
    insertFooter: () => insertBlock({ type: "footer" }),
    insertVariable:
      (attrs) =>
      ({ commands }) =>
        commands.insertContent({ type: "variable", attrs }),
    setCondition:
      (filter) =>
      ({ editor, commands }) =>
        editor.isActive("conditional") ? commands.updateAttributes("conditional", { filter }) : commands.wrapIn("conditional", { filter }),
    removeCondition:
      () =>
      ({ commands }) =>
        commands.lift("conditional"),
    insertViewInBrowser: () =>
      insertBlock({
        type: "paragraph",
        content: [{ type: "text", text: "View this email in your browser", marks: [{ type: "link", attrs: { href: "{{view_in_browser_url}}" } }] }],
      }),
  }),
});

export const emailExtensions: Extensions = [
  StarterKit.configure({
    blockquote: false,
    code: false,
    codeBlock: false,
    strike: false,
    underline: false,
    listItem: false,
    heading: { levels: [1, 2, 3] },
    link: { openOnClick: false, autolink: true, defaultProtocol: "https", HTMLAttributes: { rel: null, target: null, class: "email-link" } },
  }),
  // One paragraph per item, no nested lists: what every email client shows alike.
  ListItem.extend({ content: "paragraph+" }),
  Variable,
  Image,
  Button,
  Spacer,
  Footer,
  Column,
  Columns,
  Conditional,
  Commands,
  Placeholder.configure({ placeholder: "Write your email…", showOnlyCurrent: true }),
];
