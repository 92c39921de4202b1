import type { Clock } from "@/lib/domain/clock";

/**
 * A clock a test sets by hand. It never reads earlier than the real time, so rows other parts write
 * meanwhile at the database's own time (a reply, an event) are never in its future: a test that
 * wants "next Saturday" gets the first Saturday after today (`nextWeekday`), not a fixed date.
 */
export function manualClock(start: Date) {
  let at = start;
  const clock: Clock & { set: (next: Date) => void; advanceMinutes: (minutes: number) => void } = Object.assign(() => new Date(at), {
    set: (next: Date) => {
      if (next.getTime() < Date.now()) throw new Error(`manualClock: ${next.toISOString()} is in the past`);
      at = next;
    },
    advanceMinutes: (minutes: number) => {
      at = new Date(at.getTime() + minutes * 60_000);
    },
  });
  if (start.getTime() < Date.now()) throw new Error(`manualClock: ${start.toISOString()} is in the past`);
  return clock;
}

/** The first `weekday` (0 = Sunday … 6 = Saturday, as getUTCDay) at least two days after now, at `hourUtc`:00 UTC. */
export function nextWeekday(weekday: number, hourUtc: number): Date {
  const now = new Date();
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 2, hourUtc));
  while (day.getUTCDay() !== weekday) day.setUTCDate(day.getUTCDate() + 1);
  return day;
}
