import { RETURNED_STATUS } from "./claim-sql";
import { leasePool } from "./engine-db";
import { recordSentSql } from "./record-sent";

/** $1: how long the database must have been up (see releaseExpiredLeases). */
const DATABASE_UP = "pg_postmaster_start_time() <= now() - $1::float8 * interval '1 millisecond'";

/**
 * Crash recovery: claims whose worker's lease ran out (it died mid-send) end, and their emails are
 * due again (or held, or cancelled, as their broadcast now says). Their Message-ID is the row's, so
 * a resend of one that did go out carries the same one.
 *
 * Expiry is judged on the database's clock, and only once the database has been up for
 * `databaseUpForMs` (the lease): while it was down nobody could renew anything, so every claim may
 * have run out during the outage, its worker alive and holding sent emails it has not yet written;
 * after the restart that worker has a whole lease to write and renew them before anyone may take
 * them over, whoever asks — a worker that lived through the outage or one started after it.
 *
 * A claim the relay's thread marked accepted (relay-recorder.ts) is not released but recorded: the
 * email went out, and only its worker's full record was missing. Its content stays as the email row
 * has it (a broadcast's rendered content came with that record), so whether it carried tracking is
 * not known (null: reports count it as tracked); whether a delivery report was asked is on the claim.
 *
 * It never waits for a lock: a claim or an email locked now is being recorded (the recorder locks
 * the email, then deletes its claim), and it is left to that; waiting for it while holding the
 * claim deadlocked with the recorder and stalled this worker's own heartbeat for the detection's
 * second. A claim whose email is gone simply ends.
 */
export async function releaseExpiredLeases(organizationId?: string, { databaseUpForMs = 0 }: { databaseUpForMs?: number } = {}): Promise<number> {
  const scope = (param: number) =>
    organizationId ? `AND EXISTS (SELECT 1 FROM emails e WHERE e.id = c.email_id AND e.organization_id = $${param}::uuid)` : "";
  const org = organizationId ? [organizationId] : [];
  // The relay had accepted these (relay-recorder.ts): recorded as sent, never sent again.
  const recovered = await leasePool().query<{ n: number }>(
    recordSentSql(
      `SELECT c.email_id AS id, c.accepted_at AS sent_at, c.accepted_response AS provider_message_id, e.subject, e.html_content, e.text_content, e.headers,
              c.accepted_dsn AS dsn_requested, NULL::boolean AS opens_tracked, NULL::boolean AS clicks_tracked
       FROM email_claims c JOIN emails e ON e.id = c.email_id
       WHERE c.accepted_at IS NOT NULL AND c.locked_until < now() AND ${DATABASE_UP} ${scope(2)}
       LIMIT 5000 FOR UPDATE OF c, e SKIP LOCKED`,
      "SELECT count(*)::int AS n FROM updated",
    ),
    [databaseUpForMs, ...org],
  );
  const { rows } = await leasePool().query<{ n: number }>(
    `WITH expired AS MATERIALIZED (
       SELECT c.email_id FROM email_claims c
       WHERE c.locked_until < now() AND ${DATABASE_UP} ${scope(2)}
         AND (c.accepted_at IS NULL OR NOT EXISTS (SELECT 1 FROM emails e WHERE e.id = c.email_id))
       LIMIT 5000 FOR UPDATE OF c SKIP LOCKED
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
    [databaseUpForMs, ...org],
  );
  return (recovered.rows[0]?.n ?? 0) + (rows[0]?.n ?? 0);
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

/** How often a worker looks for expired claims to take over: a dead worker's emails are due again within this of their expiry. */
const RELEASE_EVERY_MS = 500;

/**
 * The heartbeat of a worker: every quarter lease it renews the leases of every email it holds,
 * on a connection of its own; every RELEASE_EVERY_MS it releases other workers' expired leases.
 *
 * When may a worker take over another's claims? Their expiry is the database's clock against a
 * lease the holder renews every quarter of it: a claim that ran out was not renewed for a whole
 * lease, so its holder is dead or cut off — unless nobody could reach the database meanwhile.
 * Two outages make a live holder look dead:
 * - the database itself was down (stopped, crashed, restarted): it says so, by its start time,
 *   and no claim is released until it has been up for a lease (releaseExpiredLeases), which gives
 *   every holder that lease to write what it sent meanwhile and renew the rest;
 * - the network, for every worker alike, with the database up: a worker that lost contact itself
 *   (any failed statement of the engine, noteFailure) releases nothing until it has had a whole
 *   lease of unbroken contact again, for its peers most likely lost it too.
 * A worker that has seen no failure — one just started, say by a supervisor after a crash — has no
 * outage of its own to wait out: it takes over what ran out at once, rather than after a lease of
 * its own contact (which put the takeover 12–25 s after a kill, with a 10 s lease). What it cannot
 * know is a network outage that ended just before it started and that its peers have not yet
 * recovered from (the first of their heartbeats comes within a quarter lease): the rare overlap of
 * an outage of the network alone with a worker's start, which repeats at most the emails their
 * holder had sent and not yet written.
 */
export function startLeaseKeeper({ leaseMs, held, organizationId, maxHoldMs = 5 * 60_000 }: LeaseKeeperOptions) {
  /** Since when the contact with the database has been unbroken (null: none now). */
  let contactSince: number | null = null;
  /** Whether this worker has lost contact since it started: from then on it waits a lease of contact before releasing. */
  let lostContact = false;
  let stopped = false;
  let lastRelease = 0;

  const noteFailure = () => {
    contactSince = null;
    lostContact = true;
  };

  async function beat() {
    const now = Date.now();
    const ids = [...held()].filter(([, claimedAt]) => now - claimedAt < maxHoldMs).map(([id]) => id);
    try {
      await extendLeases(ids, leaseMs);
      contactSince ??= Date.now();
    } catch {
      noteFailure();
    }
  }

  async function release() {
    if (contactSince === null || Date.now() - lastRelease < RELEASE_EVERY_MS) return;
    if (lostContact && Date.now() - contactSince < leaseMs) return;
    lastRelease = Date.now();
    try {
      await releaseExpiredLeases(organizationId, { databaseUpForMs: leaseMs });
    } catch {
      noteFailure();
    }
  }

  let running: Promise<void> = Promise.resolve();
  let lastBeat = 0;
  const tick = () => {
    if (stopped) return;
    running = (async () => {
      // A beat that failed is tried again at the next tick, not a quarter lease later: after an
      // outage the holder renews within moments of the database's return.
      if (Date.now() - lastBeat >= leaseMs / 4 || contactSince === null) {
        lastBeat = Date.now();
        await beat();
      }
      await release();
    })();
    void running.finally(() => {
      if (!stopped) {
        timer = setTimeout(tick, Math.min(RELEASE_EVERY_MS, leaseMs / 4));
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
