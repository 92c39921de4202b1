"use client";

import { FileSpreadsheet, UploadCloud } from "lucide-react";
import { useId, useState, type DragEvent } from "react";
import { cn } from "@/lib/client/cn";

type FileDropText = { accept: string; label: string; action: string; hint: string };

const CSV: FileDropText = {
  accept: ".csv,.tsv,.txt,text/csv,text/tab-separated-values",
  label: "CSV file",
  action: "Choose a CSV file",
  hint: "Comma, semicolon or tab separated, with a header row. Up to 50 MB.",
};

/** A drop zone that is also a keyboard-reachable file input (a CSV file unless `text` says otherwise). */
export function FileDrop({ onFile, disabled, text = CSV }: { onFile: (file: File) => void; disabled?: boolean; text?: FileDropText }) {
  const id = useId();
  const [over, setOver] = useState(false);
  const onDrop = (event: DragEvent<HTMLLabelElement>) => {
    event.preventDefault();
    setOver(false);
    const file = event.dataTransfer.files[0];
    if (file && !disabled) onFile(file);
  };
  return (
    <div>
      <input
        id={id}
        type="file"
        accept={text.accept}
        className="peer sr-only"
        disabled={disabled}
        aria-label={text.label}
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (file) onFile(file);
          event.target.value = "";
        }}
      />
      <label
        htmlFor={id}
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        className={cn(
          "flex cursor-pointer flex-col items-center justify-center gap-2 rounded-xl border-2 border-dashed border-zinc-300 bg-zinc-50/60 px-6 py-10 text-center transition-colors hover:border-brand-400 hover:bg-brand-50/30",
          "peer-focus-visible:border-brand-500 peer-focus-visible:ring-3 peer-focus-visible:ring-brand-500/20",
          over && "border-brand-500 bg-brand-50/50",
          disabled && "pointer-events-none opacity-60",
        )}
      >
        <span className="flex size-11 items-center justify-center rounded-xl border border-zinc-200 bg-white text-zinc-500 shadow-xs">
          {over ? <FileSpreadsheet className="size-5 text-brand-600" aria-hidden /> : <UploadCloud className="size-5" aria-hidden />}
        </span>
        <span className="text-sm font-medium text-zinc-900">
          <span className="text-brand-600">{text.action}</span> or drag it here
        </span>
        <span className="text-[13px] text-zinc-500">{text.hint}</span>
      </label>
    </div>
  );
}
