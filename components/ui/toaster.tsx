"use client";

import { Toaster as Sonner } from "sonner";

export function Toaster() {
  return (
    <Sonner
      position="bottom-right"
      closeButton
      toastOptions={{
        classNames: {
          toast: "!rounded-lg !border !border-zinc-200 !bg-white !text-zinc-900 !shadow-lg !font-sans",
          description: "!text-zinc-500",
          success: "[&_[data-icon]]:!text-emerald-600",
          error: "[&_[data-icon]]:!text-red-600",
        },
      }}
    />
  );
}
