import { Check, CircleAlert, Loader2 } from "lucide-react";
import type { SaveState } from "./use-autosave";

const states: Record<SaveState, { text: string; className: string }> = {
  saved: { text: "Saved", className: "text-zinc-500" },
  saving: { text: "Saving…", className: "text-zinc-500" },
  unsaved: { text: "Unsaved changes", className: "text-amber-700" },
  error: { text: "Not saved", className: "text-red-600" },
};

/** The draft's save state beside the Save button, announced politely to screen readers. */
export function SaveStatus({ state }: { state: SaveState }) {
  const { text, className } = states[state];
  return (
    <span role="status" aria-live="polite" className={`inline-flex items-center gap-1 text-sm ${className}`}>
      {state === "saved" && <Check className="size-3.5" aria-hidden />}
      {state === "saving" && <Loader2 className="size-3.5 animate-spin" aria-hidden />}
      {state === "error" && <CircleAlert className="size-3.5" aria-hidden />}
      {text}
    </span>
  );
}
