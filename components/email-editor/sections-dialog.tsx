"use client";

import type { Editor } from "@tiptap/react";
import { Trash2 } from "lucide-react";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/select";
import { Skeleton } from "@/components/ui/skeleton";
import { toast } from "@/components/ui/toast";
import { errorMessage } from "@/lib/client/api";
import { useDeleteSection, useSaveSection, useSections } from "@/lib/client/resources/sections";
import type { EmailDocument } from "@/lib/email-doc/document";

const KINDS = [
  { value: "header", label: "Header" },
  { value: "footer", label: "Footer" },
  { value: "content", label: "Other" },
] as const;

/** What is selected as a document of its own, or the whole email when nothing is. */
function selectedDocument(editor: Editor): EmailDocument {
  const { selection } = editor.state;
  if (selection.empty) return editor.getJSON() as EmailDocument;
  return { type: "doc", content: selection.content().content.toJSON() } as EmailDocument;
}

/** Saved sections (a header, a footer): insert one where the cursor is, or save the selection as one. */
export function SectionsDialog({ editor, onClose }: { editor: Editor; onClose: () => void }) {
  const sections = useSections();
  const save = useSaveSection();
  const remove = useDeleteSection();
  const [error, setError] = useState<string | null>(null);
  const insert = (doc: EmailDocument) => {
    editor.chain().focus().insertContent(doc.content).run();
    onClose();
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    event.stopPropagation();
    const form = new FormData(event.currentTarget);
    const name = String(form.get("name") ?? "").trim();
    if (!name) return setError("Give the section a name.");
    const kind = String(form.get("kind")) as (typeof KINDS)[number]["value"];
    save.mutate(
      { name, kind, content_json: selectedDocument(editor) },
      {
        onSuccess: (saved) => {
          toast.success("Section saved", `“${saved.name}” can now be inserted into any email.`);
          onClose();
        },
        onError: (failure) => setError(errorMessage(failure)),
      },
    );
  };
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Saved sections"
      description="Reuse a header, a footer or any blocks across emails."
      size="lg"
    >
      <div className="flex flex-col gap-5">
        {sections.isPending ? (
          <Skeleton className="h-16 w-full" />
        ) : sections.isError ? (
          <p className="text-sm text-red-600">{errorMessage(sections.error)}</p>
        ) : sections.data.length === 0 ? (
          <p className="text-sm text-zinc-500">No saved sections yet. Select blocks in the email, name them below, and insert them into any other email.</p>
        ) : (
          <ul aria-label="Saved sections" className="flex max-h-64 flex-col divide-y divide-zinc-100 overflow-y-auto rounded-md border border-zinc-200">
            {sections.data.map((section) => (
              <li key={section.id} className="flex items-center justify-between gap-3 px-3 py-2 text-sm">
                <span className="min-w-0 truncate">
                  <span className="font-medium text-zinc-900">{section.name}</span>{" "}
                  <span className="text-zinc-500">· {KINDS.find((k) => k.value === section.kind)?.label}</span>
                </span>
                <span className="flex shrink-0 gap-1">
                  <Button size="sm" variant="secondary" onClick={() => insert(section.content_json)}>
                    Insert
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={`Delete ${section.name}`}
                    onClick={() => remove.mutate(section.id, { onError: (failure) => toast.error(failure, "The section was not deleted") })}
                  >
                    <Trash2 aria-hidden />
                  </Button>
                </span>
              </li>
            ))}
          </ul>
        )}
        <form onSubmit={submit} className="flex flex-col gap-3 border-t border-zinc-100 pt-4" noValidate>
          <p className="text-sm text-zinc-600">
            {editor.state.selection.empty ? "Save the whole email as a section:" : "Save the selected blocks as a section:"}
          </p>
          <div className="flex flex-wrap items-end gap-3">
            <FormField label="Name" className="min-w-48 flex-1">
              <Input name="name" placeholder="Brand header" />
            </FormField>
            <FormField label="Kind">
              <NativeSelect name="kind" defaultValue="header" options={KINDS.map((k) => ({ value: k.value, label: k.label }))} />
            </FormField>
            <Button type="submit" loading={save.isPending}>
              Save section
            </Button>
          </div>
          {error && (
            <p role="alert" className="text-sm text-red-600">
              {error}
            </p>
          )}
        </form>
      </div>
    </Dialog>
  );
}
