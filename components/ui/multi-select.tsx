"use client";

import { Check, ChevronDown, Search } from "lucide-react";
import { Popover } from "radix-ui";
import { useId, useState, type ReactNode } from "react";
import { cn } from "@/lib/client/cn";
import { controlClasses } from "./input";
import type { SelectOption } from "./select";

type MultiSelectProps = {
  value: string[];
  onChange: (value: string[]) => void;
  options: SelectOption[];
  placeholder?: string;
  /** Shown in the list when there is nothing to choose, e.g. a hint to create the first one. */
  emptyText?: ReactNode;
  disabled?: boolean;
  className?: string;
  id?: string;
  "aria-describedby"?: string;
  "aria-invalid"?: boolean;
  "aria-label"?: string;
};

/** Choose any number of options from a list; the trigger shows what is chosen. */
export function MultiSelect({
  value,
  onChange,
  options,
  placeholder = "Select…",
  emptyText = "Nothing to choose from yet.",
  disabled,
  className,
  id,
  ...aria
}: MultiSelectProps) {
  const [open, setOpen] = useState(false);
  const [filter, setFilter] = useState("");
  const listId = useId();
  const chosen = options.filter((option) => value.includes(option.value));
  const visible = filter ? options.filter((option) => option.label.toLowerCase().includes(filter.toLowerCase())) : options;
  const toggle = (optionValue: string) => onChange(value.includes(optionValue) ? value.filter((v) => v !== optionValue) : [...value, optionValue]);

  return (
    <Popover.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setFilter("");
      }}
    >
      <Popover.Trigger
        id={id}
        disabled={disabled}
        aria-haspopup="listbox"
        aria-controls={open ? listId : undefined}
        className={cn(controlClasses, "flex min-h-9 items-center justify-between gap-2 px-3 py-1.5 text-left", className)}
        {...aria}
      >
        <span className="flex min-w-0 flex-1 flex-wrap gap-1">
          {chosen.length === 0 && <span className="text-zinc-400">{placeholder}</span>}
          {chosen.slice(0, 3).map((option) => (
            <span
              key={option.value}
              className="max-w-40 truncate rounded bg-zinc-100 px-1.5 py-0.5 text-xs font-medium text-zinc-700 ring-1 ring-zinc-200 ring-inset"
            >
              {option.label}
            </span>
          ))}
          {chosen.length > 3 && <span className="px-1 py-0.5 text-xs text-zinc-500">+{chosen.length - 3} more</span>}
        </span>
        <ChevronDown className="size-4 shrink-0 text-zinc-400" aria-hidden />
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="start"
          sideOffset={4}
          className="z-50 w-(--radix-popover-trigger-width) min-w-56 overflow-hidden rounded-lg border border-zinc-200 bg-white shadow-lg animate-fade-in"
        >
          {options.length > 7 && (
            <div className="flex items-center gap-2 border-b border-zinc-100 px-3">
              <Search className="size-4 text-zinc-400" aria-hidden />
              <input
                value={filter}
                onChange={(event) => setFilter(event.target.value)}
                placeholder="Filter…"
                aria-label="Filter options"
                className="h-9 flex-1 bg-transparent text-sm outline-none placeholder:text-zinc-400"
              />
            </div>
          )}
          <div id={listId} role="listbox" aria-multiselectable="true" className="max-h-64 overflow-y-auto p-1">
            {options.length === 0 && <p className="px-2.5 py-2 text-sm text-zinc-500">{emptyText}</p>}
            {options.length > 0 && visible.length === 0 && <p className="px-2.5 py-2 text-sm text-zinc-500">No match.</p>}
            {visible.map((option) => {
              const selected = value.includes(option.value);
              return (
                <button
                  key={option.value}
                  type="button"
                  role="option"
                  aria-selected={selected}
                  disabled={option.disabled}
                  onClick={() => toggle(option.value)}
                  className="flex w-full items-start gap-2.5 rounded-md px-2.5 py-1.5 text-left text-sm text-zinc-800 outline-none hover:bg-zinc-100 focus-visible:bg-zinc-100 disabled:opacity-50"
                >
                  <span
                    className={cn(
                      "mt-0.5 flex size-4 shrink-0 items-center justify-center rounded border",
                      selected ? "border-brand-600 bg-brand-600 text-white" : "border-zinc-300 bg-white",
                    )}
                    aria-hidden
                  >
                    {selected && <Check className="size-3" strokeWidth={3} />}
                  </span>
                  <span className="min-w-0">
                    <span className="block truncate">{option.label}</span>
                    {option.description && <span className="block text-xs text-zinc-500">{option.description}</span>}
                  </span>
                </button>
              );
            })}
          </div>
          {value.length > 0 && (
            <div className="flex justify-between border-t border-zinc-100 px-3 py-1.5 text-xs text-zinc-500">
              <span>{value.length} selected</span>
              <button type="button" className="font-medium text-zinc-700 hover:text-zinc-900" onClick={() => onChange([])}>
                Clear
              </button>
            </div>
          )}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
