const sorted = (values: number[]) => [...values].sort((a, b) => a - b);

function quantile(values: number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const s = sorted(values);
  const position = (s.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return s[low] + (s[high] - s[low]) * (position - low);
}

export const median = (values: number[]) => quantile(values, 0.5);
export const min = (values: number[]) => (values.length ? Math.min(...values) : Number.NaN);
export const max = (values: number[]) => (values.length ? Math.max(...values) : Number.NaN);

/** One figure of the report: `values` and `baselines` are the repeated measurements, reported by their median. */
export type Result = {
  scenario: string;
  unit: string;
  values: number[];
  baselines: number[];
  /** How the ratio is judged: "higher" (rates), "lower" (latencies), or an absolute rule. */
  target: string;
  met: boolean;
  ratio: number | null;
  value: number | null;
  baseline: number | null;
  note?: string;
};

const round = (value: number) => (Number.isFinite(value) ? Number(value.toPrecision(4)) : null);

function judged(scenario: string, unit: string, values: number[], baselines: number[]) {
  const value = median(values);
  const baseline = median(baselines);
  const ratio = value / baseline;
  return { scenario, unit, values, baselines, value: round(value), baseline: round(baseline), ratio: Number.isFinite(ratio) ? Number(ratio.toFixed(3)) : null };
}

/** A rate that must reach `minRatio` of its baseline. */
export function atLeast(scenario: string, unit: string, values: number[], baselines: number[], minRatio: number, note?: string): Result {
  const r = judged(scenario, unit, values, baselines);
  return { ...r, target: `ratio >= ${minRatio}`, met: r.ratio !== null && r.ratio >= minRatio, note };
}

/** A latency that may be at most `maxRatio` of its baseline. */
export function atMost(scenario: string, unit: string, values: number[], baselines: number[], maxRatio: number, note?: string): Result {
  const r = judged(scenario, unit, values, baselines);
  return { ...r, target: `ratio <= ${maxRatio}`, met: r.ratio !== null && r.ratio <= maxRatio, note };
}

/** Peak memory against the idle figure: at most `extraMb` more. */
export function memory(scenario: string, peaksMb: number[], idleMb: number[], extraMb: number, note?: string): Result {
  const r = judged(scenario, "MB RSS", peaksMb, idleMb);
  const met = r.value !== null && r.baseline !== null && r.value - r.baseline <= extraMb;
  return { ...r, target: `value - baseline <= ${extraMb} MB`, met, note };
}

/** A figure with an absolute limit; the baseline is shown for comparison only. */
export function below(scenario: string, unit: string, values: number[], baselines: number[], limit: number, note?: string): Result {
  const r = judged(scenario, unit, values, baselines);
  return { ...r, target: `value < ${limit} ${unit}`, met: r.value !== null && r.value < limit, note };
}

/** A rate with an absolute floor; the baseline is shown for comparison only. */
export function reaches(scenario: string, unit: string, values: number[], baselines: number[], floor: number, note?: string): Result {
  const r = judged(scenario, unit, values, baselines);
  return { ...r, target: `value >= ${floor} ${unit}`, met: r.value !== null && r.value >= floor, note };
}

/** A scenario that could not be measured: reported, never met. */
export function unavailable(scenario: string, unit: string, target: string, note: string): Result {
  return { scenario, unit, values: [], baselines: [], value: null, baseline: null, ratio: null, target, met: false, note };
}
