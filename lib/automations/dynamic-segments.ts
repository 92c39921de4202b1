import { db, Prisma } from "@/lib/db";
import { segmentCondition } from "@/lib/audience/membership";
import { startRunsSql } from "./start-runs";

/**
 * `segment_entered` on a dynamic segment. Its members are whoever matches its filter now, so an
 * entry is a change of the contact seen from outside: automation_segment_members holds the members
 * each automation last saw. A contact that matches and is not there has entered (a row, and a run
 * if the reentry rule admits one); one there that no longer matches has left (its row goes, so a
 * later match is an entry again). The row's key makes an entry happen once, whichever of the event
 * consumer and the sweep sees it first.
 */

export type Watcher = { id: string; organization_id: string; segment_id: string };

/** Active automations triggered by a dynamic segment: of these organizations, or of all. */
export async function watchers(client: Prisma.TransactionClient | typeof db, organizationIds?: string[]): Promise<Watcher[]> {
  const scope = organizationIds ? Prisma.sql`AND a.organization_id = ANY(${organizationIds}::uuid[])` : Prisma.empty;
  return client.$queryRaw<Watcher[]>`
    SELECT a.id, a.organization_id, a.trigger_segment_id AS segment_id FROM automations a
    JOIN segments s ON s.id = a.trigger_segment_id AND s.organization_id = a.organization_id AND s.filter IS NOT NULL
    WHERE a.status = 'active' AND a.trigger_segment_id IS NOT NULL ${scope}`;
}

/** Runs for the contacts that `joined` (a CTE answering automation_id, contact_id) just recorded as members. */
const startJoined = Prisma.raw(startRunsSql("SELECT j.automation_id, j.contact_id, NULL::uuid AS event_id FROM joined j"));

/**
 * At activation: the segment's members of the moment are recorded as seen, so only contacts that
 * enter from now on start runs (an automation on "opened in 30 days" does not write to everyone who
 * already had). A static segment's entries are its additions (segment-entry.ts): nothing to do.
 */
export async function snapshotMembers(tx: Prisma.TransactionClient, organizationId: string, automationId: string) {
  const [watcher] = (await watchers(tx, [organizationId])).filter((w) => w.id === automationId);
  await tx.$executeRaw`DELETE FROM automation_segment_members WHERE automation_id = ${automationId}::uuid AND organization_id = ${organizationId}::uuid`;
  if (!watcher) return;
  const members = await segmentCondition(tx, organizationId, watcher.segment_id);
  await tx.$executeRaw`
    INSERT INTO automation_segment_members (automation_id, contact_id, organization_id)
    SELECT ${automationId}::uuid, c.id, ${organizationId}::uuid FROM contacts c WHERE c.organization_id = ${organizationId}::uuid AND ${members}`;
}

/**
 * Contacts whose data or events just changed (the event consumer's batch): for each automation of
 * their organization on a dynamic segment, those now matching and not yet seen enter, those seen
 * and no longer matching leave. One statement per automation, over these contacts alone (the
 * filter's event conditions probe their events by index). Answers how many runs started.
 */
export async function reevaluateContacts(
  tx: Prisma.TransactionClient,
  organizationId: string,
  contactIds: string[],
  now: Date,
  ofOrganization?: Watcher[],
): Promise<number> {
  let started = 0;
  for (const watcher of ofOrganization ?? (await watchers(tx, [organizationId]))) {
    const members = await segmentCondition(tx, organizationId, watcher.segment_id, { now });
    const [row] = await tx.$queryRaw<{ started: number }[]>`
      WITH matching AS (
        SELECT c.id FROM contacts c WHERE c.organization_id = ${organizationId}::uuid AND c.id = ANY(${contactIds}::uuid[]) AND ${members}
      ),
      gone AS (
        DELETE FROM automation_segment_members m
        WHERE m.automation_id = ${watcher.id}::uuid AND m.contact_id = ANY(${contactIds}::uuid[]) AND m.contact_id NOT IN (SELECT id FROM matching)
      ),
      joined AS (
        INSERT INTO automation_segment_members (automation_id, contact_id, organization_id)
        SELECT ${watcher.id}::uuid, id, ${organizationId}::uuid FROM matching
        ON CONFLICT DO NOTHING
        RETURNING automation_id, contact_id
      ),
      ${startJoined}
      SELECT count(*)::int AS started FROM started`;
    started += row.started;
  }
  return started;
}

/** Most entries one automation takes per sweep: a filter that suddenly matches a million contacts enters them over several sweeps. */
const SWEEP_ENTRIES = 10_000;

/**
 * The periodic sweep (the worker's `automations:segments` loop): what no event announces — time
 * passing under a time-based condition ("opened in the last 30 days", "signed up more than 7 days
 * ago"), a static segment named by `in_segment` changing — is found by comparing each automation's
 * seen members with the segment's members now. Each automation in a transaction of its own.
 * Answers how many runs started.
 */
export async function sweepDynamicSegments(options: { now?: Date; organizationId?: string } = {}): Promise<number> {
  const now = options.now ?? new Date();
  let started = 0;
  for (const watcher of await watchers(db, options.organizationId ? [options.organizationId] : undefined)) {
    started += await db.$transaction(
      async (tx) => {
        const members = await segmentCondition(tx, watcher.organization_id, watcher.segment_id, { now });
        const [row] = await tx.$queryRaw<{ started: number }[]>`
          WITH gone AS (
            DELETE FROM automation_segment_members m
            WHERE m.automation_id = ${watcher.id}::uuid
              AND NOT EXISTS (SELECT 1 FROM contacts c WHERE c.id = m.contact_id AND c.organization_id = ${watcher.organization_id}::uuid AND ${members})
          ),
          joined AS (
            INSERT INTO automation_segment_members (automation_id, contact_id, organization_id)
            SELECT ${watcher.id}::uuid, c.id, ${watcher.organization_id}::uuid FROM contacts c
            WHERE c.organization_id = ${watcher.organization_id}::uuid AND ${members}
              AND NOT EXISTS (SELECT 1 FROM automation_segment_members m WHERE m.automation_id = ${watcher.id}::uuid AND m.contact_id = c.id)
            LIMIT ${SWEEP_ENTRIES}
            ON CONFLICT DO NOTHING
            RETURNING automation_id, contact_id
          ),
          ${startJoined}
          SELECT count(*)::int AS started FROM started`;
        return row.started;
      },
      { timeout: 120_000, maxWait: 30_000 },
    );
  }
  return started;
}
