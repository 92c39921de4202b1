import { Search, type LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "@/lib/client/cn";
import { Button } from "./button";

/** What an empty list looks like: what belongs here and what to do next. */
export function EmptyState({
  icon: Icon,
  title,
  children,
  action,
  className,
}: {
  icon?: LucideIcon;
  title: ReactNode;
  children?: ReactNode;
  action?: ReactNode;
  className?: string;
}) {
  return (
    <div className={cn("flex flex-col items-center justify-center px-6 py-12 text-center", className)}>
      {Icon && (
        <div className="mb-4 flex size-11 items-center justify-center rounded-xl border border-zinc-200 bg-white text-zinc-500 shadow-xs">
          <Icon className="size-5" aria-hidden />
        </div>
      )}
      <h3 className="text-[15px] font-semibold text-zinc-900">{title}</h3>
      {children && <div className="mt-1 max-w-sm text-sm text-zinc-500">{children}</div>}
      {action && <div className="mt-5 flex flex-wrap justify-center gap-2">{action}</div>}
    </div>
  );
}

/** A filtered list with no rows: what to try instead, and a way to drop every filter. */
export function NoMatchState({ title, onClear, children }: { title: ReactNode; onClear: () => void; children: ReactNode }) {
  return (
    <EmptyState
      icon={Search}
      title={title}
      action={
        <Button variant="secondary" onClick={onClear}>
          Clear filters
        </Button>
      }
    >
      {children}
    </EmptyState>
  );
}
