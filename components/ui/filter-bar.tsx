import { X } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "@/lib/client/cn";
import { Button } from "./button";

/** The row of filters at the top of a list card, with a Clear button while any filter is set. */
export function FilterBar({ filtered, onClear, className, children }: { filtered: boolean; onClear: () => void; className?: string; children: ReactNode }) {
  return (
    <div className={cn("flex flex-wrap gap-2 border-b border-zinc-100 p-3", className)}>
      {children}
      {filtered && (
        <Button variant="ghost" onClick={onClear}>
          <X aria-hidden />
          Clear
        </Button>
      )}
    </div>
  );
}
