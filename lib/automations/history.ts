import type { Prisma } from "@/lib/db";
import { recordRunMoments } from "./timeline";

export type StepRecord = { runId: string; outcome: string | null; emailId?: string | null };

/**
 * Writes that the runs reached a step — completed with its outcome, or (outcome null) still in it —
 * and answers the runs whose row is new. The (run, step) key refuses a second row: a run that had
 * already taken this step is not answered, and its caller does not do the step's work again.
 */
export async function recordStep(
  tx: Prisma.TransactionClient,
  at: { organizationId: string; automationId: string; stepId: string; stepType: string; now: Date },
  records: StepRecord[],
): Promise<Set<string>> {
  if (records.length === 0) return new Set();
  const rows = await tx.$queryRaw<{ run_id: string }[]>`
    INSERT INTO automation_run_steps (run_id, step_id, organization_id, automation_id, outcome, email_id, entered_at, completed_at)
    SELECT x.run_id, ${at.stepId}::uuid, ${at.organizationId}::uuid, ${at.automationId}::uuid, x.outcome, x.email_id,
      ${at.now}::timestamptz, CASE WHEN x.outcome IS NULL THEN NULL ELSE ${at.now}::timestamptz END
    FROM unnest(${records.map((r) => r.runId)}::uuid[], ${records.map((r) => r.outcome)}::text[], ${records.map((r) => r.emailId ?? null)}::uuid[])
      AS x(run_id, outcome, email_id)
    ON CONFLICT (run_id, step_id) DO NOTHING
    RETURNING run_id`;
  const fresh = new Set(rows.map((row) => row.run_id));
  await recordStepMoments(
    tx,
    at.stepType,
    records.filter((r) => fresh.has(r.runId) && r.outcome !== null),
  );
  return fresh;
}

/** A step a run went past, on its contact's timeline: `automation.<step type>` with how it went. */
function recordStepMoments(tx: Prisma.TransactionClient, stepType: string, records: { runId: string; outcome: string | null }[]) {
  return recordRunMoments(
    tx,
    records.map((r) => ({ runId: r.runId, name: `automation.${stepType}`, properties: { outcome: r.outcome } })),
  );
}

/** The runs leave the step they were waiting in, with how the wait ended. */
export async function completeStep(tx: Prisma.TransactionClient, step: { id: string; type: string }, records: { runId: string; outcome: string }[], now: Date) {
  if (records.length === 0) return;
  const stepId = step.id;
  await recordStepMoments(tx, step.type, records);
  await tx.$executeRaw`
    UPDATE automation_run_steps s SET outcome = x.outcome, completed_at = ${now}::timestamptz
    FROM unnest(${records.map((r) => r.runId)}::uuid[], ${records.map((r) => r.outcome)}::text[]) AS x(run_id, outcome)
    WHERE s.run_id = x.run_id AND s.step_id = ${stepId}::uuid AND s.completed_at IS NULL`;
}

/** Runs that leave early: the step they were in says so (it is not completed: they did not go past it). */
export async function markLeft(tx: Prisma.TransactionClient, runIds: string[]) {
  if (runIds.length === 0) return;
  await tx.$executeRaw`
    UPDATE automation_run_steps SET outcome = 'exited'
    WHERE run_id = ANY(${runIds}::uuid[]) AND completed_at IS NULL AND outcome IS NULL`;
}
