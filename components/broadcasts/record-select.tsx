"use client";

import type { ControlAria } from "@/components/ui/controlled";
import { NativeSelect, type SelectOption } from "@/components/ui/select";

type RecordSelectProps<T extends { id: string }> = ControlAria & {
  /** The react-hook-form field holding the chosen record's id, "" for none. */
  field: { name: string; value: string; onBlur: () => void; onChange: (id: string) => void };
  records: T[] | undefined;
  loading: boolean;
  label: (record: T) => string;
  /** The first option, standing for no record: "No topic", "Choose a segment". */
  none: string;
};

/**
 * A select of saved records (segments, topics, inboxes, templates). The list may still be loading or
 * may no longer hold the saved id; that id stays selectable instead of silently showing another choice.
 */
export function RecordSelect<T extends { id: string }>({ field, records, loading, label, none, ...aria }: RecordSelectProps<T>) {
  const options: SelectOption[] = [{ value: "", label: none }, ...(records ?? []).map((record) => ({ value: record.id, label: label(record) }))];
  if (field.value && !options.some((option) => option.value === field.value)) {
    options.push({ value: field.value, label: loading ? "Loading…" : "Deleted or unavailable" });
  }
  return (
    <NativeSelect
      {...aria}
      name={field.name}
      value={field.value}
      onBlur={field.onBlur}
      onChange={(event) => field.onChange(event.target.value)}
      options={options}
    />
  );
}
