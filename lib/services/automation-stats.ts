import type { Step } from "@/lib/automations/tree";
import { db } from "@/lib/db";
import type { OrgContext } from "@/lib/domain/context";
import type { AutomationRecord } from "@/lib/schemas/automations";

type Stats = AutomationRecord["stats"];

/** Each automation's runs, counted by where they are: started, in progress, completed, exited. */
export async function automationStats(ctx: OrgContext, ids: string[]): Promise<Map<string, Stats>> {
  const rows = await db.$queryRaw<(Stats & { automation_id: string })[]>`
    SELECT automation_id, count(*)::int AS entered,
      count(*) FILTER (WHERE status IN ('active', 'waiting'))::int AS active,
      count(*) FILTER (WHERE status = 'completed')::int AS completed,
      count(*) FILTER (WHERE status = 'exited')::int AS exited
    FROM automation_runs
    WHERE organization_id = ${ctx.organizationId}::uuid AND automation_id = ANY(${ids}::uuid[])
    GROUP BY automation_id`;
  const stats = new Map(ids.map((id) => [id, { entered: 0, active: 0, completed: 0, exited: 0 }]));
  for (const { automation_id, ...row } of rows) stats.set(automation_id, row);
  return stats;
}

type StepCounts = { step_id: string; entered: number; completed: number; sent: number; opened: number; clicked: number };

/**
 * The tree with each step's counts: runs that reached it and went past it (the history), runs in it
 * now, and for a send step its emails sent, opened and clicked (read through the history's email).
 */
export async function withStepStats(ctx: OrgContext, automationId: string, steps: Step[]): Promise<Step[]> {
  const [history, current] = await Promise.all([
    db.$queryRaw<StepCounts[]>`
      SELECT s.step_id, count(*)::int AS entered, count(s.completed_at)::int AS completed,
        count(e.sent_at)::int AS sent, count(e.opened_at)::int AS opened, count(e.clicked_at)::int AS clicked
      FROM automation_run_steps s LEFT JOIN emails e ON e.id = s.email_id AND e.organization_id = ${ctx.organizationId}::uuid
      WHERE s.automation_id = ${automationId}::uuid AND s.organization_id = ${ctx.organizationId}::uuid
      GROUP BY s.step_id`,
    db.$queryRaw<{ step_id: string; n: number }[]>`
      SELECT current_step_id AS step_id, count(*)::int AS n FROM automation_runs
      WHERE automation_id = ${automationId}::uuid AND organization_id = ${ctx.organizationId}::uuid
        AND status IN ('active', 'waiting') AND current_step_id IS NOT NULL
      GROUP BY current_step_id`,
  ]);
  const counts = new Map(history.map((row) => [row.step_id, row]));
  const now = new Map(current.map((row) => [row.step_id, row.n]));
  const annotate = (list: Step[]): Step[] =>
    list.map((step) => {
      const c = counts.get(step.id);
      const stats = {
        entered: c?.entered ?? 0,
        completed: c?.completed ?? 0,
        current: now.get(step.id) ?? 0,
        ...(step.type === "send_email" ? { sent: c?.sent ?? 0, opened: c?.opened ?? 0, clicked: c?.clicked ?? 0 } : {}),
      };
      if (step.type !== "condition") return { ...step, stats };
      return { ...step, stats, yes: annotate(step.yes), no: annotate(step.no) };
    });
  return annotate(steps);
}
