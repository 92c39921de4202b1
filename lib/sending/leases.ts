import { leasePool } from "./engine-db";

/**
 * A worker's claim on an email is a row of `email_claims` (schema.prisma, model EmailClaim): the
 * email itself stays `queued`. Its outcome is written only while the claim exists, and the
 * statement that writes it deletes the claim, so a late duplicate never counts twice.
 */
export const stillClaimed = (alias: string) => `EXISTS (SELECT 1 FROM email_claims claim WHERE claim.email_id = ${alias}.id)`;

/** The claims of the emails a statement's CTE `updated` wrote (its rows' `id`), ended with them. */
export const RELEASE_UPDATED = `DELETE FROM email_claims claim USING updated WHERE claim.email_id = updated.id`;

/**
 * What happens to an email taken back from a worker (its lease ran out, or the worker returns it
 * unsent): a cancelled broadcast's is cancelled, a paused one's waits as `scheduled` until the
 * broadcast resumes, any other is queued again.
 */
export const RETURNED_STATUS = `CASE (SELECT b.status FROM broadcasts b WHERE b.id = emails.broadcast_id)
    WHEN 'cancelled' THEN 'cancelled'::"EmailStatus" WHEN 'paused' THEN 'scheduled'::"EmailStatus" ELSE 'queued'::"EmailStatus" END`;

/**
 * Crash recovery: claims whose worker's lease ran out (it died mid-send) end, and their emails are
 * due again (or held, or cancelled, as their broadcast now says). Their Message-ID is the row's, so
 * a resend of one that did go out carries the same one.
 *
 * It never waits for a lock: a claim or an email locked now is being recorded (the recorder locks
 * the email, then deletes its claim), and it is left to that; waiting for it while holding the
 * claim deadlocked with the recorder and stalled this worker's own heartbeat for the detection's
 * second. A claim whose email is gone simply ends.
 */
export async function releaseExpiredLeases(organizationId?: string): Promise<number> {
  const scope = organizationId ? "AND EXISTS (SELECT 1 FROM emails e WHERE e.id = c.email_id AND e.organization_id = $1::uuid)" : "";
  const { rows } = await leasePool().query<{ n: number }>(
    `WITH expired AS MATERIALIZED (
       SELECT c.email_id FROM email_claims c WHERE c.locked_until < now() ${scope} LIMIT 5000 FOR UPDATE OF c SKIP LOCKED
     ),
     free AS MATERIALIZED (
       SELECT e.id FROM emails e WHERE e.id IN (SELECT email_id FROM expired) FOR NO KEY UPDATE OF e SKIP LOCKED
     ),
     ended AS (
       DELETE FROM email_claims c USING expired x
       WHERE c.email_id = x.email_id
         AND (x.email_id IN (SELECT id FROM free) OR NOT EXISTS (SELECT 1 FROM emails e WHERE e.id = x.email_id))
       RETURNING c.email_id
     ),
     returned AS (
       UPDATE emails SET status = ${RETURNED_STATUS}, updated_at = now()
       FROM ended WHERE emails.id = ended.email_id AND emails.status IN ('queued', 'scheduled') AND emails.status <> ${RETURNED_STATUS}
     )
     SELECT count(*)::int AS n FROM ended`,
    organizationId ? [organizationId] : [],
  );
  return rows[0]?.n ?? 0;
}

/** Keeps this worker's claim on emails it still holds. */
async function extendLeases(ids: string[], leaseMs: number): Promise<void> {
  if (ids.length === 0) {
    await leasePool().query("SELECT 1");
    return;
  }
  // SKIP LOCKED: a claim locked now is being recorded (and deleted with it); the renewal never
  // waits for it, so it cannot deadlock with the recorder's batch locking the same rows in another
  // order (seen under load), and the next heartbeat renews whatever is still held.
  await leasePool().query(
    `UPDATE email_claims SET locked_until = now() + $2::int * interval '1 millisecond'
     WHERE email_id IN (SELECT email_id FROM email_claims WHERE email_id = ANY($1::uuid[]) FOR UPDATE SKIP LOCKED)`,
    [ids, leaseMs],
  );
}

export type LeaseKeeperOptions = {
  leaseMs: number;
  /** The ids this worker holds now (claimed, not yet recorded), with when each was claimed. */
  held: () => Map<string, number>;
  /** Only this organization's expired leases (tests share one database). */
  organizationId?: string;
  /** A held email is renewed at most this long after its claim: a worker stuck on it lets it go. */
  maxHoldMs?: number;
};

/**
 * The heartbeat of a worker: every quarter lease it renews the leases of every email it holds,
 * on a connection of its own; every second it releases other workers' expired leases.
 *
 * A worker releases others' leases only after a whole lease of unbroken contact with the
 * database. When the database was away, every worker lost contact alike: the one holding sent
 * but unrecorded emails gets that lease to write them (and renew the rest) before anybody else
 * may take them over — so an outage repeats nothing, however long it was.
 */
export function startLeaseKeeper({ leaseMs, held, organizationId, maxHoldMs = 5 * 60_000 }: LeaseKeeperOptions) {
  let healthySince: number | null = null;
  let stopped = false;
  let lastRelease = 0;

  const noteFailure = () => {
    healthySince = null;
  };

  async function beat() {
    const now = Date.now();
    const ids = [...held()].filter(([, claimedAt]) => now - claimedAt < maxHoldMs).map(([id]) => id);
    try {
      await extendLeases(ids, leaseMs);
      healthySince ??= Date.now();
    } catch {
      noteFailure();
    }
  }

  async function release() {
    if (healthySince === null || Date.now() - healthySince < leaseMs || Date.now() - lastRelease < 1000) return;
    lastRelease = Date.now();
    try {
      await releaseExpiredLeases(organizationId);
    } catch {
      noteFailure();
    }
  }

  let running: Promise<void> = Promise.resolve();
  let lastBeat = 0;
  const tick = () => {
    if (stopped) return;
    running = (async () => {
      if (Date.now() - lastBeat >= leaseMs / 4) {
        lastBeat = Date.now();
        await beat();
      }
      await release();
    })();
    void running.finally(() => {
      if (!stopped) {
        timer = setTimeout(tick, Math.min(1000, leaseMs / 4));
        timer.unref();
      }
    });
  };
  let timer = setTimeout(tick, 0);
  timer.unref();

  return {
    /** Another part of the engine saw the database fail: no releasing until contact is unbroken again. */
    noteFailure,
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
