/**
 * The engine's sense of time: when runs are due, when a wait ends, the times a run's history
 * records. The worker uses the system clock; tests pass one they move themselves, so a one-day
 * wait is tested by moving the clock a day, not by sleeping or by rewriting rows. Facts recorded
 * by other parts (events, sends) keep the database's own time.
 */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

/**
 * A clock a test moves by hand: the real time plus what the test has added, so rows written
 * meanwhile by other parts (at the database's time) are never in its future.
 */
export function manualClock() {
  let offsetMs = 0;
  const clock: Clock & { advance: (minutes: number) => void } = Object.assign(() => new Date(Date.now() + offsetMs), {
    advance: (minutes: number) => {
      offsetMs += minutes * 60_000;
    },
  });
  return clock;
}

export const addMinutes = (at: Date, minutes: number) => new Date(at.getTime() + minutes * 60_000);
