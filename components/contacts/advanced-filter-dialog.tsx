"use client";

import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { FilterBuilder } from "@/components/segments/filter-builder";
import { useFilterDraft } from "@/components/segments/use-builder-options";
import type { Filter } from "@/lib/schemas/filter-language";

type Props = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The filter the list applies now, if any. */
  value: Filter | null;
  onApply: (filter: Filter | null) => void;
};

/** The contacts list's advanced filter: the segments' builder, applied to the list as `?filter=`. */
export function AdvancedFilterDialog({ open, onOpenChange, value, onApply }: Props) {
  // Mounted when opened (contacts-list.tsx): it starts from the list's filter, or one empty condition.
  const { options, root, setRoot, tried, setTried, translation } = useFilterDraft(value);

  const apply = () => {
    setTried(true);
    if (!translation.filter) return;
    onApply(translation.conditions === 0 ? null : translation.filter);
    onOpenChange(false);
  };

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      size="xl"
      title="Advanced filter"
      description="Conditions on any field, typed property, tag, segment or event. The list shows the contacts matching them, with its other filters."
      footer={
        <>
          {value && (
            <Button
              variant="ghost"
              className="mr-auto"
              onClick={() => {
                onApply(null);
                onOpenChange(false);
              }}
            >
              Remove filter
            </Button>
          )}
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button onClick={apply}>Apply filter</Button>
        </>
      }
    >
      {tried && !translation.filter && (
        <p className="mb-3 rounded-md bg-amber-50 px-3 py-2 text-[13px] text-amber-900">Give every condition a value, or remove it.</p>
      )}
      <FilterBuilder value={root} onChange={setRoot} options={{ ...options, incomplete: tried ? translation.incomplete : [] }} />
    </Dialog>
  );
}
