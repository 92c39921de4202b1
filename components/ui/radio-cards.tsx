"use client";

import { RadioGroup } from "radix-ui";
import type { ReactNode } from "react";
import { cn } from "@/lib/client/cn";
import { focusRing } from "./focus-ring";

export type RadioCardOption = { value: string; label: ReactNode; description?: ReactNode; disabled?: boolean };

type RadioCardsProps = {
  value: string;
  onValueChange: (value: string) => void;
  options: RadioCardOption[];
  disabled?: boolean;
  className?: string;
  /** Grid columns from small screens up (stacked below). */
  columns?: 1 | 2 | 3;
  id?: string;
  "aria-label"?: string;
  "aria-labelledby"?: string;
  "aria-describedby"?: string;
  "aria-invalid"?: boolean;
};

/** One choice out of a few, each with a line saying what it means. Arrow keys move between them. */
export function RadioCards({ value, onValueChange, options, disabled, className, columns = 2, ...aria }: RadioCardsProps) {
  return (
    <RadioGroup.Root
      value={value}
      onValueChange={onValueChange}
      disabled={disabled}
      className={cn("grid gap-2", columns === 2 && "sm:grid-cols-2", columns === 3 && "sm:grid-cols-3", className)}
      {...aria}
    >
      {options.map((option) => (
        <RadioGroup.Item
          key={option.value}
          value={option.value}
          disabled={option.disabled}
          className={cn(
            "group flex items-start gap-3 rounded-lg border border-zinc-200 bg-white p-3 text-left transition-colors hover:border-zinc-300",
            "data-[state=checked]:border-brand-500 data-[state=checked]:bg-brand-50/40 data-[state=checked]:ring-1 data-[state=checked]:ring-brand-500",
            "disabled:cursor-not-allowed disabled:opacity-60 disabled:hover:border-zinc-200",
            focusRing,
          )}
        >
          <span className="mt-0.5 flex size-4 shrink-0 items-center justify-center rounded-full border border-zinc-300 bg-white group-data-[state=checked]:border-brand-600">
            <RadioGroup.Indicator className="size-2 rounded-full bg-brand-600" />
          </span>
          <span className="min-w-0">
            <span className="block text-sm font-medium text-zinc-900">{option.label}</span>
            {option.description && <span className="mt-0.5 block text-[13px] leading-snug text-zinc-500">{option.description}</span>}
          </span>
        </RadioGroup.Item>
      ))}
    </RadioGroup.Root>
  );
}
