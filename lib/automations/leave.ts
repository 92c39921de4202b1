import type { Prisma } from "@/lib/db";
import { leaveRuns } from "./exits";

/**
 * A reply to an email of a sales-mode run ends the run at once (`exited`, `replied`), and its
 * follow-ups not yet taken by a sender are cancelled — as a reply ends a broadcast's sequence
 * (lib/sequences/leave-sequence.ts). Call it in the transaction that records the reply. A
 * marketing automation's run goes on: a reply there is a conversation, not an answer to a pitch.
 */
export async function endRunOnReply(client: Prisma.TransactionClient, organizationId: string, runId: string): Promise<boolean> {
  const ended = await client.$queryRaw<{ id: string }[]>`
    UPDATE automation_runs r SET status = 'exited', exit_reason = 'replied', next_run_at = NULL, wait_event = NULL, ended_at = now(), updated_at = now()
    FROM automations a
    WHERE r.id = ${runId}::uuid AND r.organization_id = ${organizationId}::uuid AND r.status IN ('active', 'waiting')
      AND a.id = r.automation_id AND a.sequence_mode = 'sales'
    RETURNING r.id`;
  await leaveRuns(
    client,
    ended.map((row) => ({ id: row.id, reason: "replied" })),
  );
  return ended.length > 0;
}
