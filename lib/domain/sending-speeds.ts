import type { SendingSpeed } from "@/lib/generated/prisma/enums";

/** A speed once `auto` has been resolved for an inbox. */
export type PacedSpeed = Exclude<SendingSpeed, "auto">;

const SECOND = 1000;
const DAY = 24 * 60 * 60 * SECOND;

/** Gap between two emails of one inbox, drawn uniformly from [min, max]; instant has none. */
export const PACING_GAPS: Record<PacedSpeed, { minMs: number; maxMs: number }> = {
  instant: { minMs: 0, maxMs: 0 },
  normal: { minMs: 20 * SECOND, maxMs: 40 * SECOND },
  slow: { minMs: 60 * SECOND, maxMs: 120 * SECOND },
  very_slow: { minMs: 180 * SECOND, maxMs: 360 * SECOND },
  warmup: { minMs: 60 * SECOND, maxMs: 120 * SECOND },
};

/** Warm-up: day 1 allows WARMUP_FIRST_DAY emails per inbox, each later day WARMUP_DAILY_STEP more, up to the daily limit. */
export const WARMUP_FIRST_DAY = 10;
export const WARMUP_DAILY_STEP = 5;

/** Auto: an inbox younger than this warms up; one with an SMTP failure in the last window goes slow. */
const AUTO_YOUNG_INBOX_DAYS = 14;
const AUTO_FAILURE_WINDOW_HOURS = 24;

export type InboxPacing = { created_at: Date; warmup_started_at: Date | null; last_error_at: Date | null; daily_limit: number };

const warmupStart = (inbox: InboxPacing) => inbox.warmup_started_at ?? inbox.created_at;

/**
 * Whether a broadcast's emails through an inbox go at the inbox's pace (one per pacing gap): at
 * every speed but `instant`, `auto` (no speed chosen) included. Written on each email (`paced`).
 */
export const pacedAt = (speed: SendingSpeed | null): boolean => speed !== "instant";

/** The speed an inbox sends a broadcast at; no speed chosen means `auto`. */
export function resolveSpeed(speed: SendingSpeed | null, inbox: InboxPacing, now = new Date()): PacedSpeed {
  if (speed && speed !== "auto") return speed;
  if (now.getTime() - warmupStart(inbox).getTime() < AUTO_YOUNG_INBOX_DAYS * DAY) return "warmup";
  if (inbox.last_error_at && now.getTime() - inbox.last_error_at.getTime() < AUTO_FAILURE_WINDOW_HOURS * 60 * 60 * SECOND) return "slow";
  return "normal";
}

/** How many emails the inbox may send today at this speed: the daily limit, ramped during warm-up. */
export function dailyCap(speed: PacedSpeed, inbox: InboxPacing, now = new Date()): number {
  if (speed !== "warmup") return inbox.daily_limit;
  const day = Math.max(0, Math.floor((now.getTime() - warmupStart(inbox).getTime()) / DAY));
  return Math.min(inbox.daily_limit, WARMUP_FIRST_DAY + WARMUP_DAILY_STEP * day);
}

/** A jittered gap before the inbox's next paced email; `scale` shrinks the clock (tests only). */
export function pacingGapMs(speed: PacedSpeed, scale = 1, random = Math.random): number {
  const { minMs, maxMs } = PACING_GAPS[speed];
  return Math.round((minMs + (maxMs - minMs) * random()) * scale);
}

const seconds = (ms: number) => (ms % 60_000 === 0 ? `${ms / 60_000} min` : `${ms / 1000} s`);
const gap = (speed: PacedSpeed) => `1 email every ${seconds(PACING_GAPS[speed].minMs)}–${seconds(PACING_GAPS[speed].maxMs)}`;

/** The numbers above in words, for the API reference (the SendingSpeed schema). */
export const sendingSpeedReference =
  "Per inbox; every inbox also stops at its `daily_limit` (a UTC day). `instant`: as fast as the server accepts. " +
  `\`normal\`: ${gap("normal")} (random gap). \`slow\`: ${gap("slow")}. \`very_slow\`: ${gap("very_slow")}. ` +
  `\`warmup\`: ${gap("warmup")}, the daily volume ramping from ${WARMUP_FIRST_DAY} on the inbox's first day at \`warmup\` by ${WARMUP_DAILY_STEP} a day up to its daily limit. ` +
  `\`auto\` (or none): \`warmup\` for ${AUTO_YOUNG_INBOX_DAYS} days after the inbox was created or began warming up, \`slow\` after an SMTP failure ` +
  `in the last ${AUTO_FAILURE_WINDOW_HOURS} hours, else \`normal\`. Without inboxes the relay sends as fast as it accepts, with no daily limit.`;
