"use client";

import { X } from "lucide-react";
import { forwardRef, useState, type KeyboardEvent } from "react";
import { cn } from "@/lib/client/cn";

type TagInputProps = {
  value: string[];
  onChange: (tags: string[]) => void;
  placeholder?: string;
  /** Most tags allowed; the input hides once reached. */
  max?: number;
  maxLength?: number;
  /** Tags are stored lowercase by the API, so they are typed lowercase too (default). */
  lowercase?: boolean;
  disabled?: boolean;
  className?: string;
  id?: string;
  onBlur?: () => void;
  "aria-describedby"?: string;
  "aria-invalid"?: boolean;
  "aria-label"?: string;
};

/** Chips typed into one box: Enter or comma adds, Backspace on an empty box removes the last. */
export const TagInput = forwardRef<HTMLInputElement, TagInputProps>(function TagInput(
  { value, onChange, placeholder = "Add a tag…", max, maxLength, lowercase = true, disabled, className, id, onBlur, ...aria },
  ref,
) {
  const [draft, setDraft] = useState("");
  const full = max !== undefined && value.length >= max;

  const add = (raw: string) => {
    const incoming = raw
      .split(/[,\n]/)
      .map((part) => (lowercase ? part.trim().toLowerCase() : part.trim()))
      .filter(Boolean);
    if (!incoming.length) return;
    const next = [...value];
    for (const tag of incoming) {
      if (!next.includes(tag) && (max === undefined || next.length < max)) next.push(tag);
    }
    if (next.length !== value.length) onChange(next);
    setDraft("");
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if ((event.key === "Enter" || event.key === ",") && draft.trim()) {
      event.preventDefault();
      add(draft);
    } else if (event.key === "Enter") {
      // An empty Enter would submit the surrounding form by surprise while typing tags.
      event.preventDefault();
    } else if (event.key === "Backspace" && !draft && value.length) {
      onChange(value.slice(0, -1));
    }
  };

  return (
    <div
      className={cn(
        "flex min-h-9 w-full flex-wrap items-center gap-1.5 rounded-md border border-zinc-300 bg-white px-2 py-1.5 shadow-xs transition-colors",
        "focus-within:border-brand-500 focus-within:ring-3 focus-within:ring-brand-500/20",
        aria["aria-invalid"] && "border-red-500 focus-within:ring-red-500/20",
        disabled && "cursor-not-allowed bg-zinc-50",
        className,
      )}
    >
      {value.map((tag) => (
        <span
          key={tag}
          className="inline-flex h-6 items-center gap-1 rounded-md bg-zinc-100 pr-1 pl-2 text-xs font-medium text-zinc-700 ring-1 ring-zinc-200 ring-inset"
        >
          {tag}
          {!disabled && (
            <button
              type="button"
              onClick={() => onChange(value.filter((t) => t !== tag))}
              className="rounded p-0.5 text-zinc-400 hover:bg-zinc-200 hover:text-zinc-700 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none"
              aria-label={`Remove ${tag}`}
            >
              <X className="size-3" aria-hidden />
            </button>
          )}
        </span>
      ))}
      {!full && (
        <input
          ref={ref}
          id={id}
          value={draft}
          disabled={disabled}
          maxLength={maxLength}
          placeholder={value.length ? "" : placeholder}
          onChange={(event) => {
            const text = event.target.value;
            if (text.includes(",")) add(text);
            else setDraft(text);
          }}
          onKeyDown={onKeyDown}
          onBlur={() => {
            if (draft.trim()) add(draft);
            onBlur?.();
          }}
          onPaste={(event) => {
            const text = event.clipboardData.getData("text");
            if (/[,\n]/.test(text)) {
              event.preventDefault();
              add(draft + text);
            }
          }}
          className="h-6 min-w-24 flex-1 bg-transparent px-1 text-sm text-zinc-900 outline-none placeholder:text-zinc-400 disabled:cursor-not-allowed"
          {...aria}
        />
      )}
    </div>
  );
});
