import type { AutomationRunStatus } from "@/lib/generated/prisma/enums";
import type { ClaimedRun } from "./claim";

/**
 * A claimed run as the engine moves it through its steps in memory; written back in one statement
 * at the end of the batch (saveRuns), in the transaction that did the steps' work.
 */
export type RunState = Omit<ClaimedRun, "status"> & {
  status: AutomationRunStatus;
  exit_reason: string | null;
  ended_at: Date | null;
};

export const toState = (run: ClaimedRun): RunState => ({ ...run, exit_reason: null, ended_at: null });

export const isLive = (run: RunState) => run.status === "active" || run.status === "waiting";

/** The run moves on to `stepId` now (null: past the last step, it has completed). */
export function moveTo(run: RunState, stepId: string | null, now: Date) {
  run.current_step_id = stepId;
  run.status = "active";
  run.next_run_at = now;
  run.wait_event = null;
  run.wait_since = null;
  if (stepId === null) end(run, "completed", null, now);
}

/** The run ends: completed, exited (with why), or failed (with what went wrong). */
export function end(run: RunState, status: "completed" | "exited" | "failed", reason: string | null, now: Date) {
  run.status = status;
  run.exit_reason = reason;
  run.next_run_at = null;
  run.wait_event = null;
  run.wait_since = null;
  run.ended_at = now;
}

/** The run waits in its current step until `until` (or, with `event`, until that event comes). */
export function waitUntil(run: RunState, until: Date, now: Date, event: string | null = null) {
  run.status = "waiting";
  run.next_run_at = until;
  run.wait_event = event;
  run.wait_since = event ? now : null;
}
