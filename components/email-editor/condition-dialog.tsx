"use client";

import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { FilterBuilder } from "@/components/segments/filter-builder";
import { useFilterDraft } from "@/components/segments/use-builder-options";
import type { Filter } from "@/lib/schemas/filter-language";

/**
 * Who sees the selected blocks: the segments' filter builder, whose filter the block keeps. The
 * sender evaluates it for each recipient; the preview as a contact shows the difference.
 */
export function ConditionDialog({
  value,
  onApply,
  onRemove,
  onClose,
}: {
  value: Filter | null;
  onApply: (filter: Filter) => void;
  onRemove: () => void;
  onClose: () => void;
}) {
  const { options, root, setRoot, tried, setTried, translation } = useFilterDraft(value);
  const apply = () => {
    setTried(true);
    if (!translation.filter || translation.conditions === 0) return;
    onApply(translation.filter);
    onClose();
  };
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      size="xl"
      title="Show only to some contacts"
      description="The selected blocks go only to the contacts matching these conditions; everyone else gets the email without them."
      footer={
        <>
          {value && (
            <Button
              variant="ghost"
              className="mr-auto"
              onClick={() => {
                onRemove();
                onClose();
              }}
            >
              Show to everyone
            </Button>
          )}
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={apply}>Apply condition</Button>
        </>
      }
    >
      {tried && (!translation.filter || translation.conditions === 0) && (
        <p className="mb-3 rounded-md bg-amber-50 px-3 py-2 text-[13px] text-amber-900">Give every condition a value, and keep at least one.</p>
      )}
      <FilterBuilder value={root} onChange={setRoot} options={{ ...options, incomplete: tried ? translation.incomplete : [] }} />
    </Dialog>
  );
}
