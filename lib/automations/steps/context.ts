import type { Prisma } from "@/lib/db";
import type { LoadedAutomation } from "../load";
import type { RunState } from "../run-state";
import type { Step } from "../tree";

/** One step of one automation, done for a group of runs that reached it, at `now`. */
export type StepContext = {
  tx: Prisma.TransactionClient;
  automation: LoadedAutomation;
  step: Step;
  /** The step that follows (null: the end of the automation). */
  next: string | null;
  now: Date;
};

/** Does the step for runs that just reached it: records their history, does its work, moves them on. */
export type StepExecutor = (ctx: StepContext, runs: RunState[]) => Promise<void>;

export const historyAt = (ctx: StepContext) => ({
  organizationId: ctx.automation.organization_id,
  automationId: ctx.automation.id,
  stepId: ctx.step.id,
  stepType: ctx.step.type,
  now: ctx.now,
});
