import type { Prisma } from "@/lib/db";
import { snapshotMembers } from "./dynamic-segments";
import { leaveRuns } from "./exits";

/**
 * An automation just became active (or active again after a pause). A `segment_entered` trigger on
 * a dynamic segment starts from the members of the moment (dynamic-segments.ts): only contacts who
 * enter from now on start runs.
 */
export async function activateTrigger(tx: Prisma.TransactionClient, organizationId: string, automationId: string): Promise<void> {
  await snapshotMembers(tx, organizationId, automationId);
}

/** An archived automation's runs in progress end (`exited`, `archived`), with their unsent emails. */
export async function archiveRuns(tx: Prisma.TransactionClient, organizationId: string, automationId: string) {
  const ended = await tx.$queryRaw<{ id: string }[]>`
    UPDATE automation_runs SET status = 'exited', exit_reason = 'archived', next_run_at = NULL, wait_event = NULL, ended_at = now(), updated_at = now()
    WHERE automation_id = ${automationId}::uuid AND organization_id = ${organizationId}::uuid AND status IN ('active', 'waiting')
    RETURNING id`;
  await leaveRuns(
    tx,
    ended.map((row) => ({ id: row.id, reason: "archived" })),
  );
}
