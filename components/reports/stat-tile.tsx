import { ArrowDownRight, ArrowUpRight } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "@/lib/client/cn";
import { formatPoints, formatRate } from "./format";

/**
 * One figure of a report: its rate, the count behind it, and how it compares with the
 * organization's average. `higherIsBetter` colors the comparison (bounces: lower is better).
 */
export function StatTile({
  label,
  value,
  detail,
  rate,
  average,
  higherIsBetter = true,
}: {
  label: string;
  value: ReactNode;
  detail?: ReactNode;
  rate?: number;
  average?: number;
  higherIsBetter?: boolean;
}) {
  const compared = rate !== undefined && average !== undefined;
  const better = compared && (higherIsBetter ? rate > average : rate < average);
  const worse = compared && (higherIsBetter ? rate < average : rate > average);
  const Arrow = compared && rate > average ? ArrowUpRight : ArrowDownRight;
  return (
    <div role="group" aria-label={label} className="rounded-xl border border-zinc-200 bg-white px-4 py-3.5 shadow-xs">
      <p className="text-xs font-medium text-zinc-500">{label}</p>
      <p className="mt-1 text-2xl font-semibold tracking-tight text-zinc-900 tabular-nums">{value}</p>
      {detail && <p className="mt-0.5 text-xs text-zinc-500 tabular-nums">{detail}</p>}
      {compared && (
        <p className={cn("mt-1.5 inline-flex items-center gap-1 text-xs tabular-nums", better ? "text-emerald-700" : worse ? "text-red-700" : "text-zinc-500")}>
          {rate !== average && <Arrow className="size-3.5" aria-hidden />}
          {formatRate(rate) === formatRate(average)
            ? `Same as your ${formatRate(average)} average`
            : `${formatPoints(rate, average)} vs ${formatRate(average)} average`}
        </p>
      )}
    </div>
  );
}
