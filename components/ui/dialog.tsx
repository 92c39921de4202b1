"use client";

import { X } from "lucide-react";
import { Dialog as DialogPrimitive } from "radix-ui";
import type { ReactNode } from "react";
import { cn } from "@/lib/client/cn";
import { focusRing } from "./focus-ring";

export const overlayClasses = "fixed inset-0 z-50 bg-zinc-950/40 backdrop-blur-[1px] animate-fade-in";
export const panelClasses =
  "fixed top-1/2 left-1/2 z-50 flex max-h-[calc(100vh-2rem)] w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 flex-col rounded-xl border border-zinc-200 bg-white shadow-xl animate-scale-in focus:outline-none";

const widths = { sm: "max-w-md", md: "max-w-lg", lg: "max-w-2xl", xl: "max-w-4xl" } as const;

type DialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  /** Buttons, right-aligned under the body. */
  footer?: ReactNode;
  size?: keyof typeof widths;
  /** Element rendered as the dialog's trigger (optional; the dialog is controlled). */
  trigger?: ReactNode;
  /** Keeps the dialog open on outside clicks, e.g. while showing a secret that must be copied. */
  preventOutsideClose?: boolean;
};

export function Dialog({ open, onOpenChange, title, description, children, footer, size = "md", trigger, preventOutsideClose }: DialogProps) {
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      {trigger && <DialogPrimitive.Trigger asChild>{trigger}</DialogPrimitive.Trigger>}
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className={overlayClasses} />
        <DialogPrimitive.Content
          className={cn(panelClasses, widths[size])}
          onInteractOutside={preventOutsideClose ? (event) => event.preventDefault() : undefined}
          {...(description ? {} : { "aria-describedby": undefined })}
        >
          <div className="flex items-start justify-between gap-4 px-6 pt-5">
            <div className="min-w-0">
              <DialogPrimitive.Title className="text-base font-semibold text-zinc-900">{title}</DialogPrimitive.Title>
              {description && <DialogPrimitive.Description className="mt-1 text-sm text-zinc-500">{description}</DialogPrimitive.Description>}
            </div>
            <DialogPrimitive.Close
              className={cn("-mt-1 -mr-2 rounded-md p-1.5 text-zinc-400 hover:bg-zinc-100 hover:text-zinc-700", focusRing)}
              aria-label="Close"
            >
              <X className="size-4" aria-hidden />
            </DialogPrimitive.Close>
          </div>
          {children && <div className="overflow-y-auto px-6 pt-4 pb-5">{children}</div>}
          {footer && <div className="flex flex-wrap justify-end gap-2 rounded-b-xl border-t border-zinc-100 bg-zinc-50/60 px-6 py-3">{footer}</div>}
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
