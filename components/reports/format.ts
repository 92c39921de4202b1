/** A fraction as a percentage a marketer reads at a glance: "42.5%", "0.25%" for small ones, "0%". */
export function formatRate(fraction: number): string {
  const percent = fraction * 100;
  if (percent === 0) return "0%";
  if (percent < 1) return `${percent.toFixed(2)}%`;
  return `${percent.toFixed(1)}%`;
}

export const formatCount = (value: number) => value.toLocaleString("en");

/** What a rate reads when nothing could measure it (the API's null): never 0 %. */
export const NOT_REPORTED = "Not reported";
export const NOT_TRACKED = "Not tracked";

/** The difference between two rates in percentage points, signed: "+3.1 pts". */
export function formatPoints(rate: number, average: number): string {
  const points = (rate - average) * 100;
  const digits = Math.abs(points) < 1 ? 2 : 1;
  return `${points > 0 ? "+" : points < 0 ? "−" : "±"}${Math.abs(points).toFixed(digits)} pts`;
}

/** A bucket's start as the chart's axis shows it: the hour in the first three days, then the day. */
export function formatBucket(at: string, hourly: boolean): string {
  const date = new Date(at);
  return hourly
    ? date.toLocaleString("en", { month: "short", day: "numeric", hour: "numeric" })
    : date.toLocaleDateString("en", { month: "short", day: "numeric" });
}
