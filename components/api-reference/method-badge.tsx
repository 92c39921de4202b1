import { cn } from "@/lib/client/cn";

const colors: Record<string, string> = {
  get: "bg-sky-50 text-sky-700 ring-sky-600/20",
  post: "bg-emerald-50 text-emerald-700 ring-emerald-600/20",
  put: "bg-amber-50 text-amber-800 ring-amber-600/25",
  patch: "bg-amber-50 text-amber-800 ring-amber-600/25",
  delete: "bg-red-50 text-red-700 ring-red-600/20",
};

export function MethodBadge({ method, compact = false }: { method: string; compact?: boolean }) {
  return (
    <span
      className={cn(
        "inline-flex shrink-0 items-center justify-center rounded font-mono font-semibold uppercase ring-1 ring-inset",
        compact ? "w-11 py-px text-[10px]" : "px-1.5 py-0.5 text-xs",
        colors[method] ?? "bg-zinc-100 text-zinc-700 ring-zinc-500/20",
      )}
    >
      {method === "delete" && compact ? "DEL" : method}
    </span>
  );
}
