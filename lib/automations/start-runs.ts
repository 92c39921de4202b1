import { Prisma } from "@/lib/db";
import { enteredEventsCtes } from "./timeline";

export type Entry = { automationId: string; contactId: string; eventId?: string | null };

/**
 * Who may enter automation `a` as contact `c`: a contact of its organization, subscribed and not
 * suppressed (one who may not is already out, as a run's exit checks would say), and — with
 * `reentry: never` — never in it before. A run in progress is the live key's to refuse
 * (ON_LIVE_CONFLICT): it decides between two triggers at once, where a NOT EXISTS could not.
 */
const MAY_ENTER = `c.organization_id = a.organization_id AND a.status = 'active' AND c.subscribed
  AND NOT EXISTS (SELECT 1 FROM suppressions s WHERE s.organization_id = a.organization_id AND s.email = lower(c.email))
  AND (a.reentry = 'after_exit' OR NOT EXISTS (SELECT 1 FROM automation_runs r WHERE r.automation_id = a.id AND r.contact_id = c.id))`;

const RUN_COLUMNS = "organization_id, automation_id, contact_id, status, current_step_id, next_run_at, trigger_event_id, created_at, updated_at";

/**
 * A new run takes its automation's first step at once (the engine's next round); none: it completes
 * then. Due at the database's time: the engine claims it as soon as its clock reaches that.
 */
const NEW_RUN = "a.organization_id, a.id, c.id, 'active', (a.steps -> 0 ->> 'id')::uuid, now()";

const ON_LIVE_CONFLICT = "ON CONFLICT (automation_id, contact_id) WHERE status IN ('active', 'waiting') DO NOTHING";

const RETURNING = "RETURNING id, organization_id, automation_id, contact_id";

/**
 * Starts a run for each entry whose automation is active and whose contact may enter (MAY_ENTER),
 * and records `automation.entered` on its contact's timeline. Set-based: one statement for any
 * number of entries. Answers the ids of the runs started.
 */
export async function startRuns(tx: Prisma.TransactionClient, organizationId: string, entries: Entry[]): Promise<string[]> {
  if (entries.length === 0) return [];
  const rows = await tx.$queryRaw<{ id: string }[]>`
    WITH started AS (
      INSERT INTO automation_runs (${Prisma.raw(RUN_COLUMNS)})
      SELECT ${Prisma.raw(NEW_RUN)}, x.event_id, now(), now()
      FROM unnest(${entries.map((e) => e.automationId)}::uuid[], ${entries.map((e) => e.contactId)}::uuid[], ${entries.map((e) => e.eventId ?? null)}::uuid[])
        AS x(automation_id, contact_id, event_id)
      JOIN automations a ON a.id = x.automation_id AND a.organization_id = ${organizationId}::uuid
      JOIN contacts c ON c.id = x.contact_id
      WHERE ${Prisma.raw(MAY_ENTER)}
      ${Prisma.raw(ON_LIVE_CONFLICT)}
      ${Prisma.raw(RETURNING)}
    ),
    ${Prisma.raw(enteredEventsCtes("started"))}
    SELECT id FROM started`;
  return rows.map((row) => row.id);
}

/**
 * A statement of SQL text that starts the runs `candidates` selects (with columns `automation_id`,
 * `contact_id`, `event_id`, and the contact and automation as `c` and `a` for MAY_ENTER), records
 * their `automation.entered`, and answers `started`: for callers that build their candidates in
 * SQL (the event consumer, a dynamic segment's entries).
 */
export function startRunsSql(candidates: string): string {
  return `started AS (
      INSERT INTO automation_runs (${RUN_COLUMNS})
      SELECT ${NEW_RUN}, x.event_id, now(), now()
      FROM (${candidates}) x
      JOIN automations a ON a.id = x.automation_id
      JOIN contacts c ON c.id = x.contact_id
      WHERE ${MAY_ENTER}
      ${ON_LIVE_CONFLICT}
      ${RETURNING}
    ),
    ${enteredEventsCtes("started")}`;
}

/**
 * For a statement in SQL text that adds contacts to a static segment and answers their
 * `contact_id` (the rows an INSERT … ON CONFLICT DO NOTHING RETURNING made, so a contact already
 * in the segment does not enter again), with `$1` the organization and `$2` the segment: the same
 * statement, also starting the runs of the active automations the segment triggers, and answering
 * how many contacts it added. For a writer on a plain connection (the CSV import's COPY session).
 */
export function addingToStaticSegmentSql(addMembers: string): string {
  return `WITH added AS (${addMembers}),
    ${startRunsSql(`SELECT a.id AS automation_id, x.contact_id, NULL::uuid AS event_id FROM added x
      JOIN automations a ON a.trigger_segment_id = $2::uuid AND a.organization_id = $1::uuid AND a.status = 'active'`)}
    SELECT count(*)::int AS added FROM added`;
}
