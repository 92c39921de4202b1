import type { Prisma } from "@/lib/db";
import { contactsMatching } from "./audience";
import { markLeft } from "./history";
import { recordRunMoments } from "./timeline";
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
  now: Date,
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
    const matching = await contactsMatching(tx, automation.organization_id, automation.exit_filter!, [...new Set(group.map((r) => r.contact_id))], now);
    for (const run of group) if (matching.has(run.contact_id)) reasons.set(run.id, "exit_filter");
  }
  return reasons;
}

/**
 * What ends with runs that leave: their emails still queued and not yet claimed by a sender are
 * cancelled (one a worker holds is in its SMTP conversation, and its outcome decides), and so are
 * those held as `scheduled` for a sending window or a recipient's return, which would otherwise go
 * when released, after the run had left. The step they were in says they left.
 */
export async function cancelUnsentEmails(tx: Prisma.TransactionClient, runIds: string[], reason: string) {
  if (runIds.length === 0) return;
  await tx.$executeRaw`
    UPDATE emails SET status = 'cancelled', last_error = ${`Left the automation: ${reason}`}, next_attempt_at = NULL, updated_at = now()
    WHERE automation_run_id = ANY(${runIds}::uuid[]) AND status IN ('queued', 'scheduled')
      AND NOT EXISTS (SELECT 1 FROM email_claims claim WHERE claim.email_id = emails.id)`;
}

/** The built-in events after which a contact may no longer be written to: it unsubscribed, bounced, complained. */
const LEAVING_EVENTS = ["contact.unsubscribed", "email.bounced", "email.complained"];

/**
 * Runs whose contact just unsubscribed or was suppressed leave at once, in the dispatch of the event
 * that says so, rather than when their wait ends: their queued emails are cancelled now, and the
 * runs API and the contact's timeline say they exited. The contact's state is read again (a soft
 * bounce suppresses nobody; a contact that subscribed again since stays). Answers how many left.
 */
export async function exitOnLeavingEvents(tx: Prisma.TransactionClient, batch: { organizationIds: string[]; eventIds: string[] }): Promise<number> {
  const left = await tx.$queryRaw<{ id: string; reason: ExitReason }[]>`
    WITH gone AS (
      SELECT DISTINCT r.id, CASE WHEN NOT c.subscribed THEN 'unsubscribed' ELSE 'suppressed' END AS reason
      FROM unnest(${batch.organizationIds}::uuid[], ${batch.eventIds}::uuid[]) AS b(organization_id, event_id)
      JOIN events e ON e.organization_id = b.organization_id AND e.id = b.event_id AND e.name = ANY(${LEAVING_EVENTS}::text[])
      JOIN contacts c ON c.organization_id = e.organization_id AND c.id = e.contact_id
      JOIN automation_runs r ON r.contact_id = c.id AND r.organization_id = c.organization_id AND r.status IN ('active', 'waiting')
      WHERE NOT c.subscribed OR EXISTS (SELECT 1 FROM suppressions s WHERE s.organization_id = c.organization_id AND s.email = lower(c.email))
    )
    UPDATE automation_runs r SET status = 'exited', exit_reason = gone.reason, next_run_at = NULL, wait_event = NULL, ended_at = now(), updated_at = now()
    FROM gone WHERE r.id = gone.id AND r.status IN ('active', 'waiting')
    RETURNING r.id, gone.reason`;
  if (left.length === 0) return 0;
  await leaveRuns(tx, left);
  return left.length;
}

/** What follows runs that just left (their rows already say so): the step they were in, their queued emails, the timeline. */
export async function leaveRuns(tx: Prisma.TransactionClient, left: { id: string; reason: string }[]) {
  const ids = left.map((run) => run.id);
  await markLeft(tx, ids);
  for (const reason of new Set(left.map((run) => run.reason))) {
    await cancelUnsentEmails(
      tx,
      left.filter((run) => run.reason === reason).map((run) => run.id),
      reason,
    );
  }
  await recordRunMoments(
    tx,
    left.map((run) => ({ runId: run.id, name: "automation.exited", properties: { reason: run.reason } })),
  );
}
