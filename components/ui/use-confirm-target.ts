"use client";

import { useState } from "react";

/**
 * The record a ConfirmDialog asks about. `ask(record)` opens the dialog for it; spread `dialog` into
 * the ConfirmDialog, which runs `confirm(record)` and closes once that succeeds.
 */
export function useConfirmTarget<T>(confirm: (target: T) => Promise<unknown> | void) {
  const [target, setTarget] = useState<T | null>(null);
  return {
    target,
    ask: (next: T) => setTarget(next),
    dialog: {
      open: target !== null,
      onOpenChange: (open: boolean) => {
        if (!open) setTarget(null);
      },
      onConfirm: () => (target !== null ? confirm(target) : undefined),
    },
  };
}
