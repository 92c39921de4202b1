import type { SelectOption } from "@/components/ui/select";

/**
 * Options for a picker whose list may still be loading or may no longer hold the saved value:
 * the saved value stays selectable instead of silently showing another choice.
 */
export function pickerOptions<T extends { id: string }>(
  items: T[] | undefined,
  label: (item: T) => string,
  none: string,
  current: string,
  loading: boolean,
): SelectOption[] {
  const options: SelectOption[] = [{ value: "", label: none }, ...(items ?? []).map((item) => ({ value: item.id, label: label(item) }))];
  if (current && !options.some((option) => option.value === current)) {
    options.push({ value: current, label: loading ? "Loading…" : "Deleted or unavailable" });
  }
  return options;
}
