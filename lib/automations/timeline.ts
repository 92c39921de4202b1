import { Prisma } from "@/lib/db";
import { recordEventsCtes } from "@/lib/events/sql";

/** What the contact's timeline says about a run: it entered, took a step (how it went), completed or left. */
export type RunMoment = { runId: string; name: `automation.${string}`; properties?: Record<string, unknown> };

const COLUMNS = ["organization_id", "contact_id", "name", "properties", "source", "automation_id", "occurred_at"] as const;

/**
 * Records moments of runs as `automation.*` events of their contacts (lib/events: recorded once,
 * announced through the outbox), in the caller's transaction, so the contact page's timeline shows
 * a contact going through the automation step by step. Each carries the automation's name. One
 * statement for any number of runs.
 */
export async function recordRunMoments(tx: Prisma.TransactionClient, moments: RunMoment[]): Promise<void> {
  if (moments.length === 0) return;
  const select = `SELECT r.organization_id, r.contact_id, x.name, jsonb_build_object('automation', a.name) || x.properties, 'automation', r.automation_id, now()
    FROM moments x JOIN automation_runs r ON r.id = x.run_id JOIN automations a ON a.id = r.automation_id AND a.organization_id = r.organization_id`;
  await tx.$executeRaw`
    WITH moments AS (
      SELECT * FROM unnest(${moments.map((m) => m.runId)}::uuid[], ${moments.map((m) => m.name)}::text[],
        ${moments.map((m) => JSON.stringify(m.properties ?? {}))}::jsonb[]) AS x(run_id, name, properties)
    ),
    ${Prisma.raw(recordEventsCtes("recorded", [...COLUMNS], select))}
    SELECT count(*) FROM recorded`;
}

/**
 * The same for runs a statement of SQL text just started (`started`, with the columns of
 * automation_runs): two CTEs to join to it, recording `automation.entered` for each.
 */
export const enteredEventsCtes = (started: string) =>
  recordEventsCtes(
    "entered_events",
    [...COLUMNS],
    `SELECT s.organization_id, s.contact_id, 'automation.entered', jsonb_build_object('automation', a.name), 'automation', s.automation_id, now()
     FROM ${started} s JOIN automations a ON a.id = s.automation_id`,
  );
