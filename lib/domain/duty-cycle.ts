/**
 * Background work that yields to the work people wait for: `round` runs, and when it did something
 * (answered > 0) the caller waits before the next one, so that rounds take at most `duty` of the
 * time (a round of 100 ms at a duty of 0.2 is followed by 400 ms of rest), and at least `minPauseMs`.
 * Answers what the round did: the worker's loop runs the next round at once after > 0 (worker/tasks.ts).
 */
export async function atDuty(round: () => Promise<number>, duty: number, minPauseMs = 0): Promise<number> {
  const started = performance.now();
  const did = await round();
  const took = performance.now() - started;
  if (did > 0) await new Promise((resolve) => setTimeout(resolve, Math.max(minPauseMs, (took * (1 - duty)) / duty)));
  return did;
}
