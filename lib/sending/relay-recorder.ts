import type pg from "pg";

/** One email the relay accepted: its id, when, what the relay answered, and whether a delivery report was asked of it (SentInfo.dsn). */
type Accepted = { id: string; at: string; response: string; dsn: boolean };

/**
 * Marks emails accepted on their claims: a row of the small `email_claims` table each, no index
 * touched (a HOT update), so a write of a few is cheap; the email's full record (record-sent.ts)
 * follows from the main thread in larger batches. A claim so marked whose worker dies is recorded
 * as sent when its lease runs out, never sent again (leases.ts).
 *
 * SKIP LOCKED: a claim locked now is being deleted with its email's record by the main thread (or
 * renewed by the heartbeat for an instant), and the mark never waits for it. Waiting deadlocked with
 * the recorder, which deletes claims of the same emails in another order: each deadlock cost both a
 * second, and a failed mark counts as lost contact, after which the worker holds back its takeover
 * of dead workers' claims for a lease (leases.ts).
 */
const MARK_ACCEPTED = `
  UPDATE email_claims c SET accepted_at = v.at, accepted_response = v.response, accepted_dsn = v.dsn
  FROM unnest($1::uuid[], $2::timestamptz[], $3::text[], $4::boolean[]) AS v(id, at, response, dsn)
  WHERE c.email_id = v.id
    AND c.email_id IN (SELECT email_id FROM email_claims WHERE email_id = ANY($1::uuid[]) FOR UPDATE SKIP LOCKED)
  RETURNING c.email_id`;

/** Writes in flight at once (the thread's pool has as many connections): an accepted email waits for a free one less, and its connection for its slot less. */
export const RELAY_WRITES = 4;
const RETRY_FIRST_MS = 100;
const RETRY_MOST_MS = 1_000;

/** One accepted email's mark: `handed` once PostgreSQL has its write (or it is written), `written` once committed. */
export type Recording = { handed: Promise<void>; written: Promise<void> };

type Waiting = { row: Accepted; handed: () => void; written: () => void; failed: (error: Error) => void };

/**
 * Marks the relay's accepted emails from its own thread (relay-thread.ts), as each is accepted:
 * nothing waits for the worker's main thread, which is busy claiming and preparing batches. A write
 * takes whatever was accepted while the ones before it ran.
 *
 * `handed` resolves as soon as the statement is on its way to PostgreSQL, not when it has
 * committed: a statement the server has received runs to its end even if this process is killed
 * the next instant, so from there a crash no longer repeats the email. Waiting for the commit
 * instead held each of the relay's slots for a whole write. While writes fail (the database is
 * away) the rows are kept and written again (every 100 ms, backing off to a second), and a row that
 * came meanwhile is `handed` only once written: its connection ends no new message until then
 * (smtp-pool.ts).
 */
export class RelayRecorder {
  private waiting: Waiting[] = [];
  private flushing = 0;
  /** In a streak of failed writes: said once, retried on the timer only, and nothing is handed before it is written. */
  private failing = false;
  private retryMs = RETRY_FIRST_MS;
  private retryTimer: NodeJS.Timeout | null = null;
  private closed = false;
  private soon: NodeJS.Immediate | null = null;

  constructor(
    private readonly pool: pg.Pool,
    /** A write failed (the database is away): said once per streak of failures. */
    private readonly onFailure: (error: unknown) => void,
    /**
     * The emails whose marks a write committed: a claim it skipped (SKIP LOCKED, above) is not
     * among them. Their worker counts these as recorded for its bound on unrecorded emails
     * (recorder.ts): killed, it would not send them again (leases.ts).
     */
    private readonly onMarked: (ids: string[]) => void = () => undefined,
  ) {}

  accepted(row: Accepted): Recording {
    if (this.closed) {
      const closed = Promise.reject(new Error("The relay's recorder is closed"));
      return { handed: closed, written: closed };
    }
    const handed = Promise.withResolvers<void>();
    const written = Promise.withResolvers<void>();
    const failed = (error: Error) => {
      handed.reject(error);
      written.reject(error);
    };
    this.waiting.push({ row, handed: () => handed.resolve(), written: () => written.resolve(), failed });
    // Written at the end of this turn of the event loop, with every email accepted in it: the
    // replies of several connections are read in one turn, and one write of them all costs
    // PostgreSQL about what a write of one does. Within the turn nothing is handed, so no
    // connection ends a message meanwhile.
    this.soon ??= setImmediate(() => {
      this.soon = null;
      this.kick();
    });
    return { handed: handed.promise, written: written.promise };
  }

  /** Gives up what is not written yet (the main thread's recorder writes the full record anyway). */
  close() {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.soon) clearImmediate(this.soon);
    for (const w of this.waiting.splice(0)) w.failed(new Error("The relay's recorder is closed"));
  }

  private kick() {
    if (this.closed || this.retryTimer || this.waiting.length === 0 || this.flushing >= RELAY_WRITES) return;
    void this.flush();
  }

  private async flush() {
    const taken = this.waiting.splice(0);
    this.flushing++;
    let client: pg.PoolClient | null = null;
    try {
      client = await this.pool.connect();
      // Sent now: a client with nothing in flight writes the statement to its socket at once.
      const writing = client.query<{ email_id: string }>({
        name: "engine-mark-accepted",
        text: MARK_ACCEPTED,
        values: [taken.map((w) => w.row.id), taken.map((w) => w.row.at), taken.map((w) => w.row.response), taken.map((w) => w.row.dsn)],
      });
      if (!this.failing) for (const w of taken) w.handed();
      const { rows } = await writing;
      this.failing = false;
      this.retryMs = RETRY_FIRST_MS;
      for (const w of taken) {
        w.handed();
        w.written();
      }
      if (rows.length > 0) this.onMarked(rows.map((r) => r.email_id));
    } catch (error) {
      if (!this.failing) this.onFailure(error);
      this.failing = true;
      this.waiting.unshift(...taken);
      if (!this.retryTimer && !this.closed) {
        this.retryTimer = setTimeout(() => {
          this.retryTimer = null;
          this.kick();
        }, this.retryMs);
        this.retryMs = Math.min(RETRY_MOST_MS, this.retryMs * 2);
      }
    } finally {
      this.flushing--;
      client?.release();
    }
    this.kick();
  }
}
