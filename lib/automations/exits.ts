import type { Prisma } from "@/lib/db";
import { contactsMatching } from "./audience";
import type { LoadedAutomation } from "./load";
import type { RunState } from "./run-state";

/** Why a run leaves its automation now (`exit_reason`), as the runs API shows it. */
export type ExitReason = "unsubscribed" | "suppressed" | "replied" | "exit_filter" | "exit_step" | "archived" | "step_removed";

/**
 * Why each of these runs must leave before its next step, if it must: its contact unsubscribed
 * or its address is suppressed (a bounce, a complaint, by hand), a sales run got a reply (the
 * reply hook ends it at once; this catches one recorded before the run's email was linked), or the
 * contact matches the automation's exit filter. One statement for the batch, one more per exit filter.
 */
export async function exitReasons(
  tx: Prisma.TransactionClient,
  runs: RunState[],
  automations: Map<string, LoadedAutomation>,
): Promise<Map<string, ExitReason>> {
  const reasons = new Map<string, ExitReason>();
  if (runs.length === 0) return reasons;
  const rows = await tx.$queryRaw<{ run_id: string; reason: ExitReason | null }[]>`
    SELECT x.run_id, CASE
        WHEN NOT c.subscribed THEN 'unsubscribed'
        WHEN EXISTS (SELECT 1 FROM suppressions s WHERE s.organization_id = x.organization_id AND s.email = lower(c.email)) THEN 'suppressed'
        WHEN x.sales AND EXISTS (SELECT 1 FROM emails e WHERE e.automation_run_id = x.run_id AND e.replied_at IS NOT NULL) THEN 'replied'
      END AS reason
    FROM unnest(${runs.map((r) => r.id)}::uuid[], ${runs.map((r) => r.organization_id)}::uuid[], ${runs.map((r) => r.contact_id)}::uuid[],
                ${runs.map((r) => automations.get(r.automation_id)?.sequence_mode === "sales")}::boolean[]) AS x(run_id, organization_id, contact_id, sales)
    JOIN contacts c ON c.id = x.contact_id AND c.organization_id = x.organization_id`;
  for (const row of rows) if (row.reason) reasons.set(row.run_id, row.reason);

  const byAutomation = new Map<string, RunState[]>();
  for (const run of runs) {
    if (reasons.has(run.id) || !automations.get(run.automation_id)?.exit_filter) continue;
    byAutomation.set(run.automation_id, [...(byAutomation.get(run.automation_id) ?? []), run]);
  }
  for (const [automationId, group] of byAutomation) {
    const automation = automations.get(automationId)!;
    const matching = await contactsMatching(tx, automation.organization_id, automation.exit_filter!, [...new Set(group.map((r) => r.contact_id))]);
    for (const run of group) if (matching.has(run.contact_id)) reasons.set(run.id, "exit_filter");
  }
  return reasons;
}

/**
 * What ends with runs that leave: their emails still queued and not yet claimed by a sender are
 * cancelled (one a worker holds is in its SMTP conversation, and its outcome decides), and the step
 * they were in says they left.
 */
export async function cancelQueuedEmails(tx: Prisma.TransactionClient, runIds: string[], reason: string) {
  if (runIds.length === 0) return;
  await tx.$executeRaw`
    UPDATE emails SET status = 'cancelled', last_error = ${`Left the automation: ${reason}`}, next_attempt_at = NULL, updated_at = now()
    WHERE automation_run_id = ANY(${runIds}::uuid[]) AND status = 'queued'
      AND NOT EXISTS (SELECT 1 FROM email_claims claim WHERE claim.email_id = emails.id)`;
}
