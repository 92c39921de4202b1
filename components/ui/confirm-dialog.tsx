"use client";

import { AlertDialog } from "radix-ui";
import { useState, type ReactNode } from "react";
import { cn } from "@/lib/client/cn";
import { Button } from "./button";
import { overlayClasses, panelClasses } from "./dialog";

type ConfirmDialogProps = {
  title: ReactNode;
  description: ReactNode;
  /** The button's words, e.g. "Delete domain"; say what happens, never just "OK". */
  confirmLabel: string;
  cancelLabel?: string;
  /** Runs on confirm; the dialog stays open with a spinner until it settles, and closes on success. */
  onConfirm: () => Promise<unknown> | void;
  destructive?: boolean;
  /** The element that opens the dialog. Omit it to control the dialog with open/onOpenChange. */
  trigger?: ReactNode;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
};

/** Asks before anything destructive or hard to undo. */
export function ConfirmDialog({
  title,
  description,
  confirmLabel,
  cancelLabel = "Cancel",
  onConfirm,
  destructive = true,
  trigger,
  open,
  onOpenChange,
}: ConfirmDialogProps) {
  const [ownOpen, setOwnOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const isOpen = open ?? ownOpen;
  const setOpen = (next: boolean) => {
    if (busy) return;
    setOwnOpen(next);
    onOpenChange?.(next);
  };
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
      setBusy(false);
      setOwnOpen(false);
      onOpenChange?.(false);
    } catch {
      // The caller reports the failure (a toast); the dialog stays open so the user can retry.
      setBusy(false);
    }
  };
  return (
    <AlertDialog.Root open={isOpen} onOpenChange={setOpen}>
      {trigger && <AlertDialog.Trigger asChild>{trigger}</AlertDialog.Trigger>}
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={overlayClasses} />
        <AlertDialog.Content className={cn(panelClasses, "max-w-md")}>
          <div className="px-6 pt-5 pb-5">
            <AlertDialog.Title className="text-base font-semibold text-zinc-900">{title}</AlertDialog.Title>
            <AlertDialog.Description className="mt-2 text-sm text-zinc-600">{description}</AlertDialog.Description>
          </div>
          <div className="flex flex-wrap justify-end gap-2 rounded-b-xl border-t border-zinc-100 bg-zinc-50/60 px-6 py-3">
            <AlertDialog.Cancel asChild>
              <Button variant="secondary" disabled={busy}>
                {cancelLabel}
              </Button>
            </AlertDialog.Cancel>
            <Button
              variant={destructive ? "danger" : "primary"}
              loading={busy}
              onClick={(event) => {
                event.preventDefault();
                void confirm();
              }}
            >
              {confirmLabel}
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
