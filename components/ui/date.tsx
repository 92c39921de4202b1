"use client";

import { useNow } from "./use-now";

const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
const absolute = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short" });

function relativeTime(date: Date, reference: number): string {
  let value = Math.round((date.getTime() - reference) / 1000);
  if (Math.abs(value) < 45) return "just now";
  const steps: [number, Intl.RelativeTimeFormatUnit][] = [
    [60, "second"],
    [60, "minute"],
    [24, "hour"],
    [30, "day"],
    [12, "month"],
  ];
  for (const [size, unit] of steps) {
    if (Math.abs(value) < size) return relative.format(Math.round(value), unit);
    value /= size;
  }
  return relative.format(Math.round(value), "year");
}

/**
 * A timestamp shown as "3 hours ago" with the exact time on hover. The server renders the
 * absolute date, so the relative text never causes a hydration mismatch.
 */
export function RelativeTime({ value, fallback = "—" }: { value: string | null | undefined; fallback?: string }) {
  const reference = useNow();
  if (!value) return <span className="text-zinc-400">{fallback}</span>;
  const date = new Date(value);
  const exact = absolute.format(date);
  return (
    <time dateTime={value} title={reference ? exact : undefined} className="whitespace-nowrap" suppressHydrationWarning>
      {reference ? relativeTime(date, reference) : exact}
    </time>
  );
}

/** A date as "Nov 22, 2026, 10:00 AM". */
export function formatDateTime(value: string | null | undefined): string {
  return value ? absolute.format(new Date(value)) : "—";
}
