import { completeStep, recordStep } from "../history";
import { moveTo, waitUntil, type RunState } from "../run-state";
import { historyAt, type StepContext, type StepExecutor } from "./context";

/**
 * `wait` and `wait_for_event`: a run that reaches one enters it (its history says so, outcome
 * pending) and sleeps until the wait's end; a `wait_for_event` is also woken by its event
 * (lib/automations/triggers.ts sets `wait_result` to `event` and makes the run due at once).
 */
export const enterWait: StepExecutor = async (ctx, runs) => {
  const { step, now } = ctx;
  const minutes = step.type === "wait" ? step.minutes : step.type === "wait_for_event" ? step.timeout_minutes : 0;
  const event = step.type === "wait_for_event" ? step.event : null;
  await recordStep(
    ctx.tx,
    historyAt(ctx),
    runs.map((run) => ({ runId: run.id, outcome: null })),
  );
  for (const run of runs) {
    // A run already in this wait (its row existed) is put back to sleep until the same end.
    waitUntil(run, new Date(now.getTime() + minutes * 60_000), now, event);
    if (event) run.wait_result = null;
  }
};

/** Runs whose wait is over (its time came, or its event): the step completes and they go on. */
export async function finishWait(ctx: StepContext, runs: RunState[]) {
  const outcomes = runs.map((run) => {
    if (ctx.step.type !== "wait_for_event") return { runId: run.id, outcome: "waited" };
    run.wait_result = run.wait_result === "event" ? "event" : "timeout";
    return { runId: run.id, outcome: run.wait_result };
  });
  await completeStep(ctx.tx, ctx.step, outcomes, ctx.now);
  for (const run of runs) moveTo(run, ctx.next, ctx.now);
}
