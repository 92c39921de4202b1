import { leasePool } from "./engine-db";

/**
 * "Still a claim": the email is `sending`, tested so that no index can serve the test. The
 * statements that use it name their emails by id; the planner, which saw almost no `sending` rows
 * when it last sampled the table, otherwise read every claimed email through the sending-queue
 * index and hash-joined them to the batch (8 ms per recorded batch with a thousand held, most of
 * what recording cost), instead of looking up the batch's rows by primary key.
 */
export const stillSending = (alias: string) => `${alias}.status::text = 'sending'`;

/**
 * What happens to an email taken back from a worker (its lease ran out, or the worker returns it
 * unsent): a cancelled broadcast's is cancelled, a paused one's waits as `scheduled` until the
 * broadcast resumes, any other is queued again.
 */
export const RETURNED_STATUS = `CASE (SELECT b.status FROM broadcasts b WHERE b.id = emails.broadcast_id)
    WHEN 'cancelled' THEN 'cancelled'::"EmailStatus" WHEN 'paused' THEN 'scheduled'::"EmailStatus" ELSE 'queued'::"EmailStatus" END`;

/**
 * Crash recovery: emails whose worker's lease ran out (it died mid-send) are due again. Their
 * Message-ID is the row's, so a resend of one that did go out carries the same one.
 */
export async function releaseExpiredLeases(organizationId?: string): Promise<number> {
  const scope = organizationId ? "AND e.organization_id = $1::uuid" : "";
  const { rowCount } = await leasePool().query(
    `UPDATE emails SET locked_until = NULL, updated_at = now(), status = ${RETURNED_STATUS}
     WHERE id IN (
       SELECT e.id FROM emails e
       WHERE e.status = 'sending' AND e.locked_until < now() ${scope}
       LIMIT 5000
       FOR UPDATE SKIP LOCKED)`,
    organizationId ? [organizationId] : [],
  );
  return rowCount ?? 0;
}

/** Keeps this worker's claim on emails it still holds. */
async function extendLeases(ids: string[], leaseMs: number): Promise<void> {
  if (ids.length === 0) {
    await leasePool().query("SELECT 1");
    return;
  }
  // SKIP LOCKED: a row locked now is being recorded (its status is leaving `sending`) or paused; the
  // renewal never waits for it, so it cannot deadlock with the recorder's batch locking the same
  // rows in another order (seen under load), and the next heartbeat renews whatever is still held.
  await leasePool().query(
    `UPDATE emails SET locked_until = now() + $2::int * interval '1 millisecond'
     WHERE id IN (SELECT e.id FROM emails e WHERE e.id = ANY($1::uuid[]) AND ${stillSending("e")} FOR UPDATE SKIP LOCKED)`,
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
