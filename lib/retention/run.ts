import { systemClock, type Clock } from "@/lib/domain/clock";
import { atDuty } from "@/lib/domain/duty-cycle";
import { env } from "@/lib/env";
import { clearEmailBodies } from "./email-bodies";
import { deleteOldEvents } from "./events";
import type { SweepBatch, SweepOptions } from "./sweep";
import { rollUpTrackingHits } from "./tracking-hits";

/** Days each kind of row is kept; 0 keeps it for ever (the sweep does not run). */
export type RetentionDays = { emailBodies: number; events: number; trackingHits: number };

const configuredRetention = (): RetentionDays => ({
  emailBodies: env.emailBodyRetentionDays,
  events: env.eventRetentionDays,
  trackingHits: env.trackingRetentionDays,
});

const SWEEPS: [keyof RetentionDays, (options: SweepOptions) => Promise<SweepBatch>][] = [
  ["emailBodies", clearEmailBodies],
  ["trackingHits", rollUpTrackingHits],
  ["events", deleteOldEvents],
];

export type RoundOptions = { clock?: Clock; days?: RetentionDays; organizationId?: string; batchSize?: number };

/** One batch of each sweep a setting turns on. Answers the rows read (0: every sweep has caught up) and the rows cleared or deleted. */
export async function retentionRound(options: RoundOptions = {}): Promise<SweepBatch> {
  const days = options.days ?? configuredRetention();
  const now = (options.clock ?? systemClock)();
  const total = { scanned: 0, changed: 0 };
  for (const [key, sweep] of SWEEPS) {
    if (days[key] <= 0) continue;
    const batch = await sweep({ now, days: days[key], organizationId: options.organizationId, batchSize: options.batchSize });
    total.scanned += batch.scanned;
    total.changed += batch.changed;
  }
  return total;
}

/** Until every sweep has caught up (tests; the worker paces its rounds instead). Answers the rows cleared or deleted. */
export async function retentionUntilCaughtUp(options: RoundOptions = {}): Promise<number> {
  let changed = 0;
  for (;;) {
    const round = await retentionRound(options);
    changed += round.changed;
    if (round.scanned === 0) return changed;
  }
}

/** The shortest pause between two rounds while the sweeps have work. */
const MIN_PAUSE_MS = 200;
/**
 * Rounds take at most this share of the time. Half slowed a broadcast beside it to 0.84 of its
 * rate on the loaded 2-core machine (bench retention-beside-send, quick); a fifth still clears
 * about 20 000 old emails and their events a minute there, more than a million sent a day leave.
 */
const DUTY = 0.2;

/**
 * The worker's round: one batch of each sweep, then a pause of four times what the round took (at
 * least MIN_PAUSE_MS), so retention holds one connection a fifth of the time and never a long
 * transaction beside the sender. Answers the rows read: 0 once caught up, and the loop then waits its interval.
 */
export const pacedRetentionRound = (): Promise<number> => atDuty(async () => (await retentionRound()).scanned, DUTY, MIN_PAUSE_MS);
