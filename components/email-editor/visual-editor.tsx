"use client";

import { EditorContent, useEditor, useEditorState, type Editor } from "@tiptap/react";
import {
  Bold,
  Braces,
  Columns2,
  Filter as FilterIcon,
  Globe,
  Heading1,
  Heading2,
  Heading3,
  ImageIcon,
  Italic,
  LayoutTemplate,
  Link2,
  List,
  ListOrdered,
  Minus,
  MousePointerClick,
  MoveVertical,
  PanelBottom,
  Redo2,
  Undo2,
} from "lucide-react";
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/select";
import { cn } from "@/lib/client/cn";
import type { EmailDocument } from "@/lib/email-doc/document";
import { toast as sonner } from "sonner";
import { toast } from "@/components/ui/toast";
import { useUploadMedia } from "@/lib/client/resources/media";
import { emailExtensions } from "./extensions";
import { ImageDialog } from "./image-dialog";
import { SectionsDialog } from "./sections-dialog";
import { ConditionDialog } from "./condition-dialog";
import type { Filter } from "@/lib/schemas/filter-language";
import { altFromName } from "./image-files";

export type PlaceholderOption = { name: string; label: string };

type Props = {
  /** The document to start from; when null, `html` is imported (hand-written HTML, cleaned to the allowed blocks). */
  initial: EmailDocument | null;
  html?: string;
  onChange: (doc: EmailDocument) => void;
  placeholders: PlaceholderOption[];
  editable: boolean;
};

type Prompt = "link" | "image" | "button" | "placeholder" | "sections" | "condition" | null;

function ToolbarButton({
  label,
  shortcut,
  active,
  onClick,
  disabled,
  children,
}: {
  label: string;
  shortcut?: string;
  active?: boolean;
  onClick: () => void;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      title={shortcut ? `${label} (${shortcut})` : label}
      aria-pressed={active}
      disabled={disabled}
      onMouseDown={(event) => event.preventDefault()}
      onClick={onClick}
      className={cn(
        "inline-flex size-8 items-center justify-center rounded-md text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 disabled:opacity-40 [&_svg]:size-4",
        active && "bg-zinc-200 text-zinc-900",
      )}
    >
      {children}
    </button>
  );
}

const Separator = () => <span className="mx-1 h-5 w-px bg-zinc-200" aria-hidden />;

const field = (form: HTMLFormElement, name: string) => String(new FormData(form).get(name) ?? "").trim();

function PromptDialog({ kind, editor, placeholders, onClose }: { kind: Prompt; editor: Editor; placeholders: PlaceholderOption[]; onClose: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const titles = { link: "Link", button: "Button", placeholder: "Insert placeholder" } as const;
  const currentLink = (editor.getAttributes("link").href as string | undefined) ?? "";
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    event.stopPropagation();
    const form = event.currentTarget;
    const chain = editor.chain().focus();
    if (kind === "link") {
      const href = field(form, "href");
      if (!href) chain.extendMarkRange("link").unsetLink().run();
      else chain.extendMarkRange("link").setLink({ href }).run();
    } else if (kind === "button") {
      const label = field(form, "label");
      const href = field(form, "href");
      if (!label) return setError("Write the button's words.");
      if (!href) return setError("Give the button a link.");
      chain.insertButton({ label, href }).run();
    } else if (kind === "placeholder") {
      const fallback = field(form, "fallback").replace(/[{}|]/g, "");
      chain
        .insertVariable({ name: field(form, "name"), fallback: fallback || null })
        .insertContent(" ")
        .run();
    }
    setError(null);
    onClose();
  };
  if (!kind) return null;
  if (kind === "image") return <ImageDialog onClose={onClose} onInsert={(attrs) => editor.chain().focus().insertImage(attrs).run()} />;
  if (kind === "sections") return <SectionsDialog editor={editor} onClose={onClose} />;
  if (kind === "condition") {
    return (
      <ConditionDialog
        value={editor.isActive("conditional") ? (editor.getAttributes("conditional").filter as Filter | null) : null}
        onApply={(filter) => editor.chain().focus().setCondition(filter).run()}
        onRemove={() => editor.chain().focus().removeCondition().run()}
        onClose={onClose}
      />
    );
  }
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={titles[kind]} size="sm">
      <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
        {kind === "link" && (
          <FormField label="Link address" hint="Leave empty to remove the link.">
            <Input name="href" defaultValue={currentLink} placeholder="https://example.com" autoFocus />
          </FormField>
        )}
        {kind === "button" && (
          <>
            <FormField label="Button text" required>
              <Input name="label" autoFocus />
            </FormField>
            <FormField label="Button link" required>
              <Input name="href" placeholder="https://example.com" />
            </FormField>
          </>
        )}
        {kind === "placeholder" && (
          <>
            <FormField label="Field" hint="Contact fields, your typed properties (Settings → Properties), and the other metadata keys your contacts have.">
              <NativeSelect
                name="name"
                defaultValue={placeholders[0]?.name}
                options={placeholders.map((option) => ({ value: option.name, label: option.label }))}
              />
            </FormField>
            <FormField label="Fallback" hint="Shown to recipients without a value, e.g. “there” in “Hello there”.">
              <Input name="fallback" />
            </FormField>
          </>
        )}
        {error && (
          <p role="alert" className="text-sm text-red-600">
            {error}
          </p>
        )}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit">{kind === "placeholder" ? "Insert" : kind === "link" ? "Apply" : "Add"}</Button>
        </div>
      </form>
    </Dialog>
  );
}

function Toolbar({ editor, open }: { editor: Editor; open: (kind: Prompt) => void }) {
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive("bold"),
      italic: e.isActive("italic"),
      link: e.isActive("link"),
      h1: e.isActive("heading", { level: 1 }),
      h2: e.isActive("heading", { level: 2 }),
      h3: e.isActive("heading", { level: 3 }),
      bullet: e.isActive("bulletList"),
      ordered: e.isActive("orderedList"),
      conditional: e.isActive("conditional"),
      canUndo: e.can().undo(),
      canRedo: e.can().redo(),
    }),
  });
  const run = () => editor.chain().focus();
  return (
    <div role="toolbar" aria-label="Formatting" className="flex flex-wrap items-center gap-0.5 border-b border-zinc-200 bg-zinc-50 px-2 py-1.5">
      <ToolbarButton label="Undo" shortcut="Ctrl+Z" disabled={!state.canUndo} onClick={() => run().undo().run()}>
        <Undo2 aria-hidden />
      </ToolbarButton>
      <ToolbarButton label="Redo" shortcut="Ctrl+Shift+Z" disabled={!state.canRedo} onClick={() => run().redo().run()}>
        <Redo2 aria-hidden />
      </ToolbarButton>
      <Separator />
      <ToolbarButton label="Heading 1" shortcut="Ctrl+Alt+1" active={state.h1} onClick={() => run().toggleHeading({ level: 1 }).run()}>
        <Heading1 aria-hidden />
      </ToolbarButton>
      <ToolbarButton label="Heading 2" shortcut="Ctrl+Alt+2" active={state.h2} onClick={() => run().toggleHeading({ level: 2 }).run()}>
        <Heading2 aria-hidden />
      </ToolbarButton>
      <ToolbarButton label="Heading 3" shortcut="Ctrl+Alt+3" active={state.h3} onClick={() => run().toggleHeading({ level: 3 }).run()}>
        <Heading3 aria-hidden />
      </ToolbarButton>
      <ToolbarButton label="Bold" shortcut="Ctrl+B" active={state.bold} onClick={() => run().toggleBold().run()}>
        <Bold aria-hidden />
      </ToolbarButton>
      <ToolbarButton label="Italic" shortcut="Ctrl+I" active={state.italic} onClick={() => run().toggleItalic().run()}>
        <Italic aria-hidden />
      </ToolbarButton>
      <ToolbarButton label="Link" shortcut="Ctrl+K" active={state.link} onClick={() => open("link")}>
        <Link2 aria-hidden />
      </ToolbarButton>
      <ToolbarButton label="Bulleted list" shortcut="Ctrl+Shift+8" active={state.bullet} onClick={() => run().toggleBulletList().run()}>
        <List aria-hidden />
      </ToolbarButton>
      <ToolbarButton label="Numbered list" shortcut="Ctrl+Shift+7" active={state.ordered} onClick={() => run().toggleOrderedList().run()}>
        <ListOrdered aria-hidden />
      </ToolbarButton>
      <Separator />
      <ToolbarButton label="Insert image" onClick={() => open("image")}>
        <ImageIcon aria-hidden />
      </ToolbarButton>
      <ToolbarButton label="Insert button" onClick={() => open("button")}>
        <MousePointerClick aria-hidden />
      </ToolbarButton>
      <ToolbarButton label="Insert divider" onClick={() => run().setHorizontalRule().run()}>
        <Minus aria-hidden />
      </ToolbarButton>
      <ToolbarButton label="Insert spacer" onClick={() => run().insertSpacer(24).run()}>
        <MoveVertical aria-hidden />
      </ToolbarButton>
      <ToolbarButton label="Insert two columns" onClick={() => run().insertColumns().run()}>
        <Columns2 aria-hidden />
      </ToolbarButton>
      <ToolbarButton label="Insert footer" onClick={() => run().insertFooter().run()}>
        <PanelBottom aria-hidden />
      </ToolbarButton>
      <ToolbarButton label="Insert a link to view the email in a browser" onClick={() => run().insertViewInBrowser().run()}>
        <Globe aria-hidden />
      </ToolbarButton>
      <ToolbarButton label="Show only to some contacts" active={state.conditional} onClick={() => open("condition")}>
        <FilterIcon aria-hidden />
      </ToolbarButton>
      <Separator />
      <Button variant="secondary" size="sm" onMouseDown={(event) => event.preventDefault()} onClick={() => open("placeholder")}>
        <Braces aria-hidden />
        Placeholder
      </Button>
      <Button variant="secondary" size="sm" className="ml-1" onMouseDown={(event) => event.preventDefault()} onClick={() => open("sections")}>
        <LayoutTemplate aria-hidden />
        Sections
      </Button>
    </div>
  );
}

const imageFiles = (files: FileList | undefined | null) => [...(files ?? [])].filter((file) => file.type.startsWith("image/"));

/** The block editor (Tiptap): loaded lazily, since it is the heaviest part of the broadcast page. */
export default function VisualEditor({ initial, html, onChange, placeholders, editable }: Props) {
  const [prompt, setPrompt] = useState<Prompt>(null);
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);
  const { mutateAsync: uploadFile } = useUploadMedia();
  // Images dropped or pasted into the email go to the media library first; the block shows its URL.
  const insertFiles = useRef<(files: File[], at: number | null) => void>(() => undefined);
  const editor = useEditor({
    extensions: emailExtensions,
    content: initial ?? html ?? "",
    editable,
    immediatelyRender: false,
    editorProps: {
      attributes: {
        "aria-label": "Email content",
        role: "textbox",
        "aria-multiline": "true",
        class: "email-canvas min-h-80 px-8 py-6 focus:outline-none",
      },
      handleDrop: (view, event, _slice, moved) => {
        const files = imageFiles(event.dataTransfer?.files);
        if (moved || files.length === 0) return false;
        event.preventDefault();
        insertFiles.current(files, view.posAtCoords({ left: event.clientX, top: event.clientY })?.pos ?? null);
        return true;
      },
      handlePaste: (_view, event) => {
        const files = imageFiles(event.clipboardData?.files);
        if (files.length === 0) return false;
        event.preventDefault();
        insertFiles.current(files, null);
        return true;
      },
      handleKeyDown: (_view, event) => {
        if ((event.metaKey || event.ctrlKey) && event.key.toLowerCase() === "k") {
          event.preventDefault();
          setPrompt("link");
          return true;
        }
        return false;
      },
    },
    onUpdate: ({ editor: e }) => onChangeRef.current(e.getJSON() as EmailDocument),
    // Imported HTML becomes the document at once, so saving keeps what the editor shows.
    onCreate: ({ editor: e }) => {
      if (!initial && html?.trim()) onChangeRef.current(e.getJSON() as EmailDocument);
    },
  });
  useEffect(() => {
    editor?.setEditable(editable);
  }, [editor, editable]);
  useEffect(() => {
    insertFiles.current = (files, at) => {
      for (const file of files) {
        // sonner's own loading toast: this lazy chunk carries it, not every page's toast helper.
        const pending = sonner.loading(`Uploading ${file.name}…`);
        // mutateAsync: mutate's own callbacks fire for the last of several calls only.
        uploadFile(file)
          .then((media) => {
            if (!editor) return;
            const chain = editor.chain().focus();
            (at === null ? chain : chain.setTextSelection(at)).insertImage({ src: media.url, alt: altFromName(media.filename) }).run();
          })
          .catch((error: unknown) => toast.error(error, `${file.name} was not uploaded`))
          .finally(() => sonner.dismiss(pending));
      }
    };
  }, [uploadFile, editor]);

  return (
    <div className="overflow-hidden rounded-lg border border-zinc-200 bg-white">
      {editor && editable && <Toolbar editor={editor} open={setPrompt} />}
      <div className="bg-zinc-100 px-2 py-4 sm:px-6">
        <div className="mx-auto max-w-[600px] bg-white shadow-sm">
          <EditorContent editor={editor} />
        </div>
      </div>
      {editor && <PromptDialog kind={prompt} editor={editor} placeholders={placeholders} onClose={() => setPrompt(null)} />}
    </div>
  );
}
