/**
 * The A/B test's arithmetic, shared by the engine (choosing the winner) and the report (saying how
 * much the difference means). Pure: it runs in the worker and in the dashboard.
 */

export type AbMetric = "unique_opens" | "unique_clicks";

/**
 * One variant's test recipients, how many of them could show an open or a click (accepted, with
 * the pixel or a tracked link: lib/domain/report-denominators.ts), and how many a person opened or
 * clicked.
 */
export type VariantTally = {
  index: number;
  recipients: number;
  open_tracked: number;
  click_tracked: number;
  unique_opened: number;
  unique_clicked: number;
};

const successes = (tally: VariantTally, metric: AbMetric) => (metric === "unique_opens" ? tally.unique_opened : tally.unique_clicked);
/** What the metric is a rate of: the emails that could show it, as the report counts them (a refused or untracked email cannot). */
const tracked = (tally: VariantTally, metric: AbMetric) => (metric === "unique_opens" ? tally.open_tracked : tally.click_tracked);

/** a's rate against b's, compared as exact fractions (no rounding can make a tie or break one). */
function compareRates(a: VariantTally, b: VariantTally, metric: AbMetric): number {
  const left = successes(a, metric) * Math.max(tracked(b, metric), 1);
  const right = successes(b, metric) * Math.max(tracked(a, metric), 1);
  return left - right;
}

/**
 * The winner: the variant with the highest rate of the metric over its test recipients that could
 * show it (a variant whose emails were refused more often is not penalised for it). A tie goes
 * to the earliest of the tied variants, and a test with no opens (or clicks) at all to the first
 * (index 0): without evidence, the marketer's first version stands.
 */
export function pickWinner(tallies: VariantTally[], metric: AbMetric, variantCount: number): number {
  let best: VariantTally | null = null;
  for (let index = 0; index < variantCount; index++) {
    const tally = tallies.find((t) => t.index === index) ?? { index, recipients: 0, open_tracked: 0, click_tracked: 0, unique_opened: 0, unique_clicked: 0 };
    if (!best || compareRates(tally, best, metric) > 0) best = tally;
  }
  return best && successes(best, metric) > 0 ? best.index : 0;
}

/** Standard normal cumulative distribution (Abramowitz and Stegun 26.2.17, error below 7.5e-8). */
function normalCdf(z: number): number {
  const t = 1 / (1 + 0.2316419 * Math.abs(z));
  const density = Math.exp((-z * z) / 2) / Math.sqrt(2 * Math.PI);
  const tail = density * t * (0.31938153 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
  return z >= 0 ? 1 - tail : tail;
}

export type Significance = {
  /** The leading variant and the one behind it that it is compared with. */
  leader: number;
  runnerUp: number;
  /** Two-sided p-value of the two-proportion z-test; null when there is nothing to test. */
  pValue: number | null;
  significant: boolean;
  note: string;
};

const percent = (value: number) => `${(value * 100).toFixed(1)} %`;

/**
 * How much the leader's lead means: a two-proportion z-test of the leader against the runner-up,
 * at the 95 % level, worded for a marketer. Small tests are "not yet significant" far more often
 * than not: that is the honest answer, not a failure.
 */
export function significanceOf(tallies: VariantTally[], metric: AbMetric, names: (index: number) => string): Significance | null {
  if (tallies.length < 2) return null;
  const ranked = [...tallies].sort((a, b) => compareRates(b, a, metric) || a.index - b.index);
  const [leader, runnerUp] = ranked;
  const what = metric === "unique_opens" ? "open" : "click";
  const base = { leader: leader.index, runnerUp: runnerUp.index };
  const [n1, n2] = [tracked(leader, metric), tracked(runnerUp, metric)];
  if (n1 === 0 || n2 === 0) return { ...base, pValue: null, significant: false, note: `The ${what}s of a variant were not tracked: nothing to compare.` };
  if (successes(leader, metric) === 0) return { ...base, pValue: null, significant: false, note: `No ${what}s yet: nothing to compare.` };
  const p1 = successes(leader, metric) / n1;
  const p2 = successes(runnerUp, metric) / n2;
  const pooled = (successes(leader, metric) + successes(runnerUp, metric)) / (n1 + n2);
  const error = Math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2));
  const pValue = error === 0 ? 1 : 2 * (1 - normalCdf(Math.abs(p1 - p2) / error));
  const significant = pValue < 0.05;
  const lead = `${names(leader.index)}'s ${what} rate (${percent(p1)}) against ${names(runnerUp.index)}'s (${percent(p2)})`;
  const note = significant
    ? `${lead}: significant (p = ${pValue.toFixed(3)}); a difference this large is unlikely to be chance.`
    : `${lead}: not yet significant (p = ${pValue.toFixed(2)}); the difference could be chance.`;
  return { ...base, pValue, significant, note };
}
