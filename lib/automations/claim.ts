import { Prisma } from "@/lib/db";
import type { AutomationRun } from "@/lib/generated/prisma/client";
import { deal } from "@/lib/domain/fair-share";

/** A run as the engine takes it. */
export type ClaimedRun = Pick<
  AutomationRun,
  | "id"
  | "organization_id"
  | "automation_id"
  | "contact_id"
  | "status"
  | "current_step_id"
  | "next_run_at"
  | "wait_event"
  | "wait_since"
  | "wait_result"
  | "inbox_id"
  | "last_email_id"
>;

export type ClaimOptions = {
  /** Most runs one claim takes. */
  batchSize: number;
  now: Date;
  /** Only this organization's runs (tests share one database). */
  organizationId?: string;
};

// Where the organizations' turn starts next claim: each claim begins with the organization after
// the one that began the last, so with more organizations waiting than a batch can serve, none waits
// for long behind the others.
let turn = 0;

/**
 * Takes up to `batchSize` due runs for the caller's transaction: locked FOR UPDATE, SKIP LOCKED (a
 * run another worker holds is left to it, never waited for). The batch is dealt fairly, first
 * across the organizations with due runs, then across each one's active automations: 100 000 runs
 * of one tenant waking at 9:00 take their share of each batch, and another tenant's single run
 * still goes in the next one.
 *
 * No lease is needed, unlike emails (lib/sending/leases.ts): everything a step does is written in
 * this same transaction (an email is a row the sending engine delivers later), so a worker that
 * dies mid-batch rolls it all back, its locks go with its connection, and the runs are due again.
 */
export async function claimDueRuns(tx: Prisma.TransactionClient, { batchSize, now, organizationId }: ClaimOptions): Promise<ClaimedRun[]> {
  const scope = organizationId ? Prisma.sql`AND a.organization_id = ${organizationId}::uuid` : Prisma.empty;
  // One probe of the (automation_id, next_run_at) index per active automation: a paused
  // automation's due runs are never read, however many there are.
  const due = await tx.$queryRaw<{ id: string; organization_id: string }[]>`
    SELECT a.id, a.organization_id FROM automations a
    WHERE a.status = 'active' ${scope}
      AND EXISTS (SELECT 1 FROM automation_runs r
                  WHERE r.automation_id = a.id AND r.status IN ('active', 'waiting') AND r.next_run_at <= ${now}::timestamptz)`;
  if (due.length === 0) return [];

  const organizations = [...new Set(due.map((a) => a.organization_id))].sort();
  const start = turn++ % organizations.length;
  const order = [...organizations.slice(start), ...organizations.slice(0, start)];
  const byOrganization = new Map(order.map((org) => [org, due.filter((a) => a.organization_id === org).map((a) => a.id)]));
  const orgShares = deal(batchSize, order, () => batchSize);
  const wanted: [string, number][] = [];
  for (const [org, share] of orgShares) {
    const automations = byOrganization.get(org)!;
    for (const [automationId, n] of deal(share, automations, () => share)) if (n > 0) wanted.push([automationId, n]);
  }
  return tx.$queryRaw<ClaimedRun[]>`
    SELECT r.id, r.organization_id, r.automation_id, r.contact_id, r.status::text AS status, r.current_step_id, r.next_run_at,
      r.wait_event, r.wait_since, r.wait_result, r.inbox_id, r.last_email_id
    FROM unnest(${wanted.map(([id]) => id)}::uuid[], ${wanted.map(([, n]) => n)}::int[]) AS w(automation_id, share)
    CROSS JOIN LATERAL (
      SELECT r.* FROM automation_runs r
      WHERE r.automation_id = w.automation_id AND r.status IN ('active', 'waiting') AND r.next_run_at <= ${now}::timestamptz
      ORDER BY r.next_run_at
      LIMIT w.share
      FOR UPDATE SKIP LOCKED
    ) r`;
}
