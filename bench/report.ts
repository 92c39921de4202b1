import { max, median, min, type Result } from "./stats";

export type RunInfo = { date: string; mode: "quick" | "full"; cores: number; cpu: string; node: string; postgres: string; database: string };

const figure = (value: number) => {
  if (!Number.isFinite(value)) return "–";
  if (Math.abs(value) >= 100) return Math.round(value).toLocaleString("en-US");
  return value.toPrecision(3);
};

const spread = (values: number[]) =>
  values.length === 0 ? "–" : values.length === 1 ? figure(values[0]) : `${figure(median(values))} (${figure(min(values))}–${figure(max(values))})`;

function pad(rows: string[][]): string {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column]))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

/** The table for people: median (min–max) of the repeated runs, the ratio of the medians, and whether the target is met. */
export function table(results: Result[], info: RunInfo): string {
  const header = ["scenario", "unit", "value: median (min–max)", "baseline: median (min–max)", "ratio", "target", "met"];
  const rows = results.map((r) => [
    r.scenario,
    r.unit,
    spread(r.values),
    spread(r.baselines),
    r.ratio === null ? "–" : r.ratio.toFixed(2),
    r.target,
    r.met ? "yes" : "NO",
  ]);
  const notes = results.filter((r) => r.note).map((r) => `  ${r.scenario}: ${r.note}`);
  return [
    `mailplatform bench — ${info.date} — ${info.mode} run — ${info.cores} cores (${info.cpu}) — Node ${info.node} — ${info.postgres} (${info.database})`,
    "",
    pad([header, ...rows]),
    ...(notes.length ? ["", "notes:", ...notes] : []),
    "",
  ].join("\n");
}

/** The machine-readable answer: one object per figure. */
export function json(results: Result[]): string {
  return JSON.stringify(
    results.map(({ scenario, unit, value, baseline, ratio, target, met, note }) => ({
      scenario,
      unit,
      value,
      baseline,
      ratio,
      target,
      met,
      ...(note ? { note } : {}),
    })),
  );
}
