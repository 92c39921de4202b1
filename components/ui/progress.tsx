import { cn } from "@/lib/client/cn";

/**
 * A progress bar. Without `value` it is indeterminate (work under way, amount unknown), e.g. while
 * the server processes an upload.
 */
export function Progress({
  value,
  label,
  className,
  tone = "brand",
}: {
  value?: number;
  label: string;
  className?: string;
  tone?: "brand" | "success" | "danger";
}) {
  const clamped = value === undefined ? undefined : Math.max(0, Math.min(100, value));
  const color = { brand: "bg-brand-600", success: "bg-emerald-500", danger: "bg-red-500" }[tone];
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={clamped === undefined ? undefined : Math.round(clamped)}
      className={cn("relative h-2 w-full overflow-hidden rounded-full bg-zinc-100", className)}
    >
      {clamped === undefined ? (
        <div className={cn("h-full w-full animate-pulse rounded-full opacity-70", color)} />
      ) : (
        <div className={cn("h-full rounded-full transition-[width] duration-300 ease-out", color)} style={{ width: `${clamped}%` }} />
      )}
    </div>
  );
}
