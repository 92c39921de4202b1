"use client";

import dynamic from "next/dynamic";
import { Code2, PenLine } from "lucide-react";
import { useMemo, useState } from "react";
import { useFormContext, useWatch } from "react-hook-form";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { FormField } from "@/components/ui/form-field";
import { Skeleton } from "@/components/ui/skeleton";
import { Textarea } from "@/components/ui/textarea";
import { cn } from "@/lib/client/cn";
import { useContactFields } from "@/lib/client/resources/contacts";
import { useContactProperties } from "@/lib/client/resources/contact-properties";
import { documentOf, documentText } from "./document-text";
import type { PlaceholderOption } from "./visual-editor";

// Tiptap and ProseMirror are most of the editor's weight: they load when the content is shown.
const VisualEditor = dynamic(() => import("./visual-editor"), {
  ssr: false,
  loading: () => <Skeleton className="h-96 w-full rounded-lg" />,
});

/**
 * The form fields every content editor shares (broadcasts, templates, sequence steps). The document
 * is kept as its JSON text ("" for none): one value, so react-hook-form's dirty tracking and the
 * reset after an autosave treat it whole instead of merging two versions path by path.
 */
export type ContentValues = { content_json: string; html_content: string; text_content: string };

type Mode = "visual" | "code";

function ModeSwitch({ mode, onChange }: { mode: Mode; onChange: (mode: Mode) => void }) {
  const options: { value: Mode; label: string; icon: typeof PenLine }[] = [
    { value: "visual", label: "Visual", icon: PenLine },
    { value: "code", label: "Code", icon: Code2 },
  ];
  return (
    <div role="group" aria-label="Editing mode" className="inline-flex rounded-md border border-zinc-200 bg-zinc-50 p-0.5">
      {options.map(({ value, label, icon: Icon }) => (
        <button
          key={value}
          type="button"
          aria-pressed={mode === value}
          onClick={() => onChange(value)}
          className={cn(
            "inline-flex h-7 items-center gap-1.5 rounded px-2.5 text-sm font-medium text-zinc-600 [&_svg]:size-3.5",
            mode === value && "bg-white text-zinc-900 shadow-xs",
          )}
        >
          <Icon aria-hidden />
          {label}
        </button>
      ))}
    </div>
  );
}

/**
 * Visual (block editor) or Code (raw HTML and plain text). The visual document is rendered to
 * HTML on the server when saved; hand-written HTML is kept as written. Going from Code to Visual
 * on hand-written HTML asks first: what the blocks cannot hold is lost.
 */
export function ContentEditor({ editable, actions, defaultMode = "visual" }: { editable: boolean; actions?: React.ReactNode; defaultMode?: Mode }) {
  const { register, setValue, getValues, formState } = useFormContext<ContentValues>();
  const docText = useWatch<ContentValues, "content_json">({ name: "content_json" });
  const doc = useMemo(() => documentOf(docText), [docText]);
  const html = useWatch<ContentValues, "html_content">({ name: "html_content" });
  const [mode, setMode] = useState<Mode>(() => (doc ? "visual" : html.trim() ? "code" : defaultMode));
  const [importing, setImporting] = useState(false);
  // A new key remounts the editor, e.g. to import hand-written HTML.
  const [generation, setGeneration] = useState(0);
  const [importHtml, setImportHtml] = useState<string | undefined>(undefined);
  const fields = useContactFields();
  const properties = useContactProperties();
  // The contact's fields, then the typed properties (Settings → Properties), then the other keys contacts carry.
  const placeholders: PlaceholderOption[] = useMemo(() => {
    const typed = new Set((properties.data ?? []).map((p) => p.key));
    return [
      ...(fields.data?.fields ?? [
        { name: "first_name", label: "First name" },
        { name: "last_name", label: "Last name" },
        { name: "email", label: "Email" },
      ]),
      ...(properties.data ?? []).map((p) => ({ name: `metadata.${p.key}`, label: `${p.label} (${p.type} property)` })),
      ...(fields.data?.metadata_keys ?? [])
        .filter((k) => !typed.has(k.key))
        .map((k) => ({ name: `metadata.${k.key}`, label: `${k.key} (metadata, ${k.contacts} contacts)` })),
    ];
  }, [fields.data, properties.data]);
  const { errors } = formState;

  const switchTo = (next: Mode) => {
    if (next === mode) return;
    if (next === "visual" && !getValues("content_json") && getValues("html_content").trim()) return setImporting(true);
    setMode(next);
  };

  const htmlField = register("html_content", {
    // Writing HTML by hand leaves the visual document behind; the server drops it on save.
    onChange: () => {
      if (getValues("content_json")) setValue("content_json", "", { shouldDirty: true });
    },
  });

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <ModeSwitch mode={mode} onChange={switchTo} />
        <div className="flex flex-wrap gap-2">{actions}</div>
      </div>
      {mode === "visual" ? (
        <>
          <VisualEditor
            key={generation}
            initial={doc}
            html={importHtml}
            editable={editable}
            placeholders={placeholders}
            onChange={(next) => setValue("content_json", documentText(next), { shouldDirty: true, shouldValidate: true })}
          />
          {errors.content_json && (
            <p role="alert" className="text-sm text-red-600">
              {errors.content_json.message ?? "The content has a block the email cannot hold."}
            </p>
          )}
        </>
      ) : (
        <>
          <FormField
            label="HTML"
            error={errors.html_content?.message}
            hint={
              doc
                ? "Rendered from the visual editor when saved; editing it here turns the email into hand-written HTML."
                : "Placeholders like {{first_name|there}} are filled per recipient."
            }
          >
            <Textarea
              rows={14}
              spellCheck={false}
              wrap="off"
              className="font-mono text-[13px]"
              placeholder="<h1>Hello {{first_name|there}}</h1>"
              {...htmlField}
            />
          </FormField>
          <FormField label="Plain text" error={errors.text_content?.message} hint="For clients that do not show HTML. Leave empty to derive it from the HTML.">
            <Textarea
              rows={8}
              placeholder={"Hello {{first_name|there}},\n\n…"}
              {...register("text_content", { onChange: () => getValues("content_json") && setValue("content_json", "", { shouldDirty: true }) })}
            />
          </FormField>
        </>
      )}
      <ConfirmDialog
        open={importing}
        onOpenChange={setImporting}
        title="Switch to the visual editor?"
        description="This HTML was written by hand. The visual editor keeps its headings, paragraphs, lists, links, images and buttons; layout, styles and any other markup are lost. Stay in Code to keep it exactly as written."
        confirmLabel="Convert to visual"
        cancelLabel="Stay in Code"
        onConfirm={() => {
          setImportHtml(getValues("html_content"));
          setGeneration((n) => n + 1);
          setMode("visual");
        }}
      />
    </div>
  );
}
