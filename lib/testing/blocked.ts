import { setTimeout as sleep } from "node:timers/promises";
import { db } from "@/lib/db";

/**
 * Which comes first: `work` settles, or some statement waits for a lock that the backend `holder`
 * (another connection's pg_backend_pid()) holds. For tests that prove a statement skips what
 * another transaction holds instead of waiting for it: judged on states, not on time.
 */
export async function settledOrBlocked<T>(work: Promise<T>, holder: number): Promise<{ settled: T } | "blocked"> {
  let outcome: { settled: T } | null = null;
  const done = work.then((value) => (outcome = { settled: value }));
  for (;;) {
    if (outcome) return outcome;
    const [{ waiting }] = await db.$queryRaw<{ waiting: number }[]>`
      SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE ${holder}::int = ANY(pg_blocking_pids(pid))`;
    if (waiting > 0) return outcome ?? "blocked";
    await Promise.race([done, sleep(10)]);
  }
}
