"use client";

import { useEffect, useRef, useState } from "react";
import type { FieldValues, UseFormReturn } from "react-hook-form";

export type SaveState = "saved" | "unsaved" | "saving" | "error";

const DELAY_MS = 1500;

/**
 * Saves a draft on its own a moment after the last change, while the values are valid (`valid`
 * checks them without marking fields, so half-typed input is not flagged). `save` persists and
 * resets the form; a change made while it runs is saved by the next round.
 */
export function useAutosave<T extends FieldValues>(
  form: UseFormReturn<T>,
  { enabled, valid, save }: { enabled: boolean; valid: (values: T) => boolean; save: () => Promise<boolean> },
) {
  const [state, setState] = useState<SaveState>("saved");
  const saving = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const saveRef = useRef(save);
  const validRef = useRef(valid);
  useEffect(() => {
    saveRef.current = save;
    validRef.current = valid;
  });

  useEffect(() => {
    if (!enabled) return;
    const schedule = () => {
      clearTimeout(timer.current);
      timer.current = setTimeout(async () => {
        if (saving.current) return schedule();
        if (!form.formState.isDirty) return setState("saved");
        if (!validRef.current(form.getValues())) return setState("unsaved");
        saving.current = true;
        setState("saving");
        const sent = JSON.stringify(form.getValues());
        let ok = false;
        try {
          ok = await saveRef.current();
          setState(ok ? (form.formState.isDirty ? "unsaved" : "saved") : "error");
        } finally {
          saving.current = false;
        }
        // Edits made while it saved go in the next round.
        if (ok && form.formState.isDirty && JSON.stringify(form.getValues()) !== sent) schedule();
      }, DELAY_MS);
    };
    const subscription = form.watch((_values, { type }) => {
      // Resets after a save are not edits.
      if (type !== "change" && !form.formState.isDirty) return;
      setState("unsaved");
      schedule();
    });
    return () => {
      subscription.unsubscribe();
      clearTimeout(timer.current);
    };
  }, [enabled, form]);

  return state;
}
