"use client";

import { Check, ChevronDown } from "lucide-react";
import { Select as SelectPrimitive } from "radix-ui";
import { forwardRef, type SelectHTMLAttributes } from "react";
import { cn } from "@/lib/client/cn";
import { controlClasses } from "./input";

export type SelectOption = { value: string; label: string; description?: string; disabled?: boolean };

/** A styled native select: works with react-hook-form's `register` and every keyboard. */
export const NativeSelect = forwardRef<HTMLSelectElement, SelectHTMLAttributes<HTMLSelectElement> & { options: SelectOption[] }>(function NativeSelect(
  { className, options, ...props },
  ref,
) {
  return (
    <div className="relative">
      <select ref={ref} className={cn(controlClasses, "h-9 appearance-none pr-9 pl-3", className)} {...props}>
        {options.map((option) => (
          <option key={option.value} value={option.value} disabled={option.disabled}>
            {option.label}
          </option>
        ))}
      </select>
      <ChevronDown className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-zinc-400" aria-hidden />
    </div>
  );
});

type SelectProps = {
  value: string | undefined;
  onValueChange: (value: string) => void;
  options: SelectOption[];
  placeholder?: string;
  disabled?: boolean;
  className?: string;
  id?: string;
  name?: string;
  "aria-label"?: string;
  "aria-describedby"?: string;
  "aria-invalid"?: boolean;
};

/** A controlled listbox (radix), for choices that need descriptions or a custom look. */
export function Select({ value, onValueChange, options, placeholder = "Select…", disabled, className, ...aria }: SelectProps) {
  return (
    <SelectPrimitive.Root value={value} onValueChange={onValueChange} disabled={disabled} name={aria.name}>
      <SelectPrimitive.Trigger
        id={aria.id}
        aria-label={aria["aria-label"]}
        aria-describedby={aria["aria-describedby"]}
        aria-invalid={aria["aria-invalid"]}
        className={cn(controlClasses, "flex h-9 items-center justify-between gap-2 px-3 text-left data-placeholder:text-zinc-400", className)}
      >
        <SelectPrimitive.Value placeholder={placeholder} />
        <SelectPrimitive.Icon>
          <ChevronDown className="size-4 text-zinc-400" aria-hidden />
        </SelectPrimitive.Icon>
      </SelectPrimitive.Trigger>
      <SelectPrimitive.Portal>
        <SelectPrimitive.Content
          position="popper"
          sideOffset={4}
          className="z-50 max-h-72 min-w-(--radix-select-trigger-width) overflow-hidden rounded-lg border border-zinc-200 bg-white p-1 shadow-lg animate-fade-in"
        >
          <SelectPrimitive.Viewport>
            {options.map((option) => (
              <SelectPrimitive.Item
                key={option.value}
                value={option.value}
                disabled={option.disabled}
                className="relative flex cursor-default flex-col rounded-md py-1.5 pr-8 pl-2.5 text-sm text-zinc-800 outline-none select-none data-disabled:opacity-50 data-highlighted:bg-zinc-100"
              >
                <SelectPrimitive.ItemText>{option.label}</SelectPrimitive.ItemText>
                {option.description && <span className="text-xs text-zinc-500">{option.description}</span>}
                <SelectPrimitive.ItemIndicator className="absolute top-2 right-2">
                  <Check className="size-4 text-brand-600" aria-hidden />
                </SelectPrimitive.ItemIndicator>
              </SelectPrimitive.Item>
            ))}
          </SelectPrimitive.Viewport>
        </SelectPrimitive.Content>
      </SelectPrimitive.Portal>
    </SelectPrimitive.Root>
  );
}
