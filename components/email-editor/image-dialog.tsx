"use client";

import { Trash2 } from "lucide-react";
import { useState, type FormEvent } from "react";
import { FileDrop } from "@/components/contacts/import/file-drop";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Dialog } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import { toast } from "@/components/ui/toast";
import { errorMessage } from "@/lib/client/api";
import { useDeleteMedia, useMediaLibrary, useUploadMedia, type Media } from "@/lib/client/resources/media";

import { altFromName, IMAGE_FILES } from "./image-files";

export type ImageAttrs = { src: string; alt: string };

function Library({ onPick }: { onPick: (media: Media) => void }) {
  const library = useMediaLibrary();
  const remove = useDeleteMedia();
  const [deleting, setDeleting] = useState<Media | null>(null);
  if (library.isPending) return <Skeleton className="h-24 w-full" />;
  if (library.isError) return <p className="text-sm text-red-600">{errorMessage(library.error)}</p>;
  if (library.data.length === 0) return <p className="text-sm text-zinc-500">No images yet: the ones you upload are kept here for every email.</p>;
  return (
    <>
      <ul aria-label="Media library" className="grid max-h-56 grid-cols-4 gap-2 overflow-y-auto">
        {library.data.map((media) => (
          <li key={media.id} className="group relative">
            <button
              type="button"
              onClick={() => onPick(media)}
              title={media.filename}
              aria-label={`Use ${media.filename}`}
              className="flex aspect-square w-full items-center justify-center overflow-hidden rounded-md border border-zinc-200 bg-zinc-50 hover:border-brand-400"
            >
              {/* eslint-disable-next-line @next/next/no-img-element -- the library's own URL, any size */}
              <img src={media.url} alt="" className="max-h-full max-w-full object-contain" />
            </button>
            <button
              type="button"
              aria-label={`Delete ${media.filename}`}
              onClick={() => setDeleting(media)}
              className="absolute top-1 right-1 hidden rounded bg-white/90 p-1 text-zinc-600 shadow-xs group-hover:block hover:text-red-600"
            >
              <Trash2 className="size-3.5" aria-hidden />
            </button>
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete this image?"
        description="Emails already sent that show it will show a broken image."
        confirmLabel="Delete image"
        destructive
        onConfirm={async () => {
          if (deleting) await remove.mutateAsync(deleting.id);
        }}
      />
    </>
  );
}

/** Insert an image: upload one, pick one from the organization's library, or give an address. */
export function ImageDialog({ onInsert, onClose }: { onInsert: (attrs: ImageAttrs) => void; onClose: () => void }) {
  const upload = useUploadMedia();
  const [alt, setAlt] = useState("");
  const [error, setError] = useState<string | null>(null);
  const insert = (src: string, fallbackAlt: string) => {
    onInsert({ src, alt: alt.trim() || fallbackAlt });
    onClose();
  };
  const onFile = (file: File) =>
    upload.mutate(file, {
      onSuccess: (media) => insert(media.url, altFromName(media.filename)),
      onError: (failure) => toast.error(failure, "The image was not uploaded"),
    });
  const submitUrl = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    event.stopPropagation();
    const src = String(new FormData(event.currentTarget).get("src") ?? "").trim();
    if (!/^https?:\/\/\S+$/i.test(src)) return setError("The image address must start with https:// (email clients load it from the web).");
    insert(src, "");
  };
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title="Image" size="lg">
      <div className="flex flex-col gap-4">
        <FormField label="Description (alt text)" hint="Read aloud by screen readers, and shown where images are blocked.">
          <Input value={alt} onChange={(event) => setAlt(event.target.value)} />
        </FormField>
        <FileDrop onFile={onFile} disabled={upload.isPending} text={IMAGE_FILES} />
        <Library onPick={(media) => insert(media.url, altFromName(media.filename))} />
        <form onSubmit={submitUrl} className="flex flex-col gap-2" noValidate>
          <FormField label="Or an image address">
            <Input name="src" placeholder="https://example.com/picture.png" />
          </FormField>
          {error && (
            <p role="alert" className="text-sm text-red-600">
              {error}
            </p>
          )}
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit">Add</Button>
          </div>
        </form>
      </div>
    </Dialog>
  );
}
