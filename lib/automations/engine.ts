import { db, type Prisma } from "@/lib/db";
import { env } from "@/lib/env";
import { claimDueRuns } from "./claim";
import { systemClock, type Clock } from "@/lib/domain/clock";
import { cancelUnsentEmails, exitReasons } from "./exits";
import { markLeft } from "./history";
import { loadAutomations, type LoadedAutomation } from "./load";
import { end, isLive, moveTo, toState, type RunState } from "./run-state";
import { decide } from "./steps/condition";
import { changeSegment, exitHere, updateContact } from "./steps/contact-steps";
import type { StepContext, StepExecutor } from "./steps/context";
import { sendEmail } from "./steps/send-email";
import { recordRunMoments } from "./timeline";
import { enterWait, finishWait } from "./steps/wait";
import { MAX_STEPS } from "@/lib/schemas/automations";

export type EngineOptions = {
  /** Most runs one round takes (AUTOMATIONS_BATCH_SIZE, 500). */
  batchSize?: number;
  clock?: Clock;
  /** Only this organization's runs (tests share one database). */
  organizationId?: string;
};

const EXECUTORS: Record<string, StepExecutor> = {
  wait: enterWait,
  wait_for_event: enterWait,
  condition: decide,
  send_email: sendEmail,
  update_contact: updateContact,
  add_to_segment: changeSegment,
  remove_from_segment: changeSegment,
  exit: exitHere,
};

/** Writes the batch's runs back, as the steps left them, in one statement. */
async function saveRuns(tx: Prisma.TransactionClient, runs: RunState[]) {
  await tx.$executeRaw`
    UPDATE automation_runs r SET
      status = x.status::"AutomationRunStatus", current_step_id = x.current_step_id, next_run_at = x.next_run_at,
      wait_event = x.wait_event,
      -- When a wait_for_event began, by the database's clock, which also stamps the events it waits
      -- for (event-triggers.ts compares the two): a run still in the same wait keeps its time.
      wait_since = CASE WHEN x.wait_event IS NULL THEN NULL
        WHEN r.status = 'waiting' AND r.wait_event = x.wait_event AND r.current_step_id = x.current_step_id THEN r.wait_since
        ELSE now() END,
      wait_result = x.wait_result, inbox_id = x.inbox_id,
      last_email_id = x.last_email_id, exit_reason = x.exit_reason, ended_at = x.ended_at, updated_at = now()
    FROM unnest(
      ${runs.map((r) => r.id)}::uuid[], ${runs.map((r) => r.status)}::text[], ${runs.map((r) => r.current_step_id)}::uuid[],
      ${runs.map((r) => r.next_run_at)}::timestamptz[], ${runs.map((r) => r.wait_event)}::text[],
      ${runs.map((r) => r.wait_result)}::text[], ${runs.map((r) => r.inbox_id)}::uuid[], ${runs.map((r) => r.last_email_id)}::uuid[],
      ${runs.map((r) => r.exit_reason)}::text[], ${runs.map((r) => r.ended_at)}::timestamptz[]
    ) AS x(id, status, current_step_id, next_run_at, wait_event, wait_result, inbox_id, last_email_id, exit_reason, ended_at)
    WHERE r.id = x.id`;
}

/** Runs that must leave before their next step leave now (exits.ts says why). */
async function applyExits(tx: Prisma.TransactionClient, runs: RunState[], automations: Map<string, LoadedAutomation>, now: Date) {
  const reasons = await exitReasons(tx, runs, automations, now);
  const byReason = new Map<string, string[]>();
  for (const run of runs) {
    const reason = reasons.get(run.id);
    if (!reason) continue;
    end(run, "exited", reason, now);
    byReason.set(reason, [...(byReason.get(reason) ?? []), run.id]);
  }
  for (const [reason, ids] of byReason) {
    await markLeft(tx, ids);
    await cancelUnsentEmails(tx, ids, reason);
  }
}

/**
 * Moves the runs through their steps until each waits, ends, or has taken as many steps as an
 * automation can hold. Each round does one step for every run that is due, grouped by automation
 * and step, each group in a few set-based statements.
 */
async function advance(tx: Prisma.TransactionClient, runs: RunState[], automations: Map<string, LoadedAutomation>, now: Date) {
  for (let round = 0; round <= MAX_STEPS + 1; round++) {
    const moving = runs.filter((run) => isLive(run) && run.next_run_at !== null && run.next_run_at <= now);
    if (moving.length === 0) return;
    const groups = new Map<string, RunState[]>();
    for (const run of moving) {
      const key = `${run.automation_id}:${run.current_step_id}:${run.status}`;
      groups.set(key, [...(groups.get(key) ?? []), run]);
    }
    for (const group of groups.values()) {
      const [first] = group;
      const automation = automations.get(first.automation_id)!;
      if (first.current_step_id === null) {
        for (const run of group) moveTo(run, null, now);
        continue;
      }
      const place = automation.tree.steps.get(first.current_step_id);
      if (!place) {
        // The step was removed by an edit while runs were in it or due to take it.
        for (const run of group) end(run, "exited", "step_removed", now);
        await markLeft(
          tx,
          group.map((run) => run.id),
        );
        continue;
      }
      const ctx: StepContext = { tx, automation, step: place.step, next: place.next, now };
      if (first.status === "waiting") await finishWait(ctx, group);
      else await EXECUTORS[place.step.type](ctx, group);
    }
  }
}

/**
 * One round of the automation engine: claims due runs (claim.ts), lets the ones that must leave go
 * (an unsubscribed or suppressed contact, a reply in sales mode, the exit filter), moves the others
 * through their steps and writes them back — all in one transaction. A step's work and the run's
 * advance commit together, and the (run, step) key of the history refuses a step taken twice, so
 * each step runs exactly once per run across crashes and restarts. Answers how many runs it took.
 */
export async function runDueAutomations(options: EngineOptions = {}): Promise<number> {
  const clock = options.clock ?? systemClock;
  return db.$transaction(
    async (tx) => {
      const now = clock();
      const claimed = await claimDueRuns(tx, { batchSize: options.batchSize ?? env.automationsBatchSize, now, organizationId: options.organizationId });
      if (claimed.length === 0) return 0;
      const automations = await loadAutomations(tx, [...new Set(claimed.map((run) => run.automation_id))]);
      const runs = claimed.map(toState);
      await applyExits(tx, runs, automations, now);
      await advance(tx, runs, automations, now);
      await saveRuns(tx, runs);
      // Runs that ended in this round, on their contacts' timelines.
      await recordRunMoments(
        tx,
        runs
          .filter((run) => run.ended_at !== null)
          .map((run) => ({ runId: run.id, name: `automation.${run.status}`, properties: run.exit_reason ? { reason: run.exit_reason } : {} })),
      );
      return runs.length;
    },
    { timeout: 120_000, maxWait: 30_000 },
  );
}
