import { contactsMatching } from "../audience";
import { recordStep } from "../history";
import { moveTo } from "../run-state";
import { branchStart } from "../tree";
import { historyAt, type StepExecutor } from "./context";

/**
 * `condition`: yes when the contact matches the filter now (or, with `wait_result`, when the run's
 * last wait_for_event ended that way); the run goes down that branch, or past the condition when
 * the branch is empty.
 */
export const decide: StepExecutor = async (ctx, runs) => {
  const { step, automation } = ctx;
  if (step.type !== "condition") return;
  const yes = step.wait_result
    ? new Set(runs.filter((run) => run.wait_result === step.wait_result).map((run) => run.contact_id))
    : await contactsMatching(ctx.tx, automation.organization_id, step.filter!, [...new Set(runs.map((run) => run.contact_id))], ctx.now);
  const fresh = await recordStep(
    ctx.tx,
    historyAt(ctx),
    runs.map((run) => ({ runId: run.id, outcome: yes.has(run.contact_id) ? "yes" : "no" })),
  );
  for (const run of runs) {
    // A step is done once per run: one that had already taken it (an edit moved the step after
    // the run's position) goes past it.
    if (!fresh.has(run.id)) moveTo(run, ctx.next, ctx.now);
    else moveTo(run, branchStart(automation.tree, step.id, yes.has(run.contact_id) ? "yes" : "no"), ctx.now);
  }
};
