import type pg from "pg";
import { writeSent, type SentRow } from "./record-sent";

/**
 * Writes in flight at once (the thread's pool has as many connections): an accepted email waits for
 * a free one less, and its connection for its slot less. Against a relay answering in 50 ms with 20
 * connections on a loaded machine, each write took 16–20 ms and nearly every message waited for a
 * slot: 4 rather than 2 cut that wait by a fifth.
 */
const MAX_FLUSHES = 4;
const RETRY_FIRST_MS = 100;
const RETRY_MOST_MS = 1_000;

type Waiting = { row: SentRow; resolve: () => void; reject: (error: Error) => void };

/**
 * Records the relay's accepted emails from its own thread (relay-thread.ts), as each is accepted:
 * nothing waits for the worker's main thread, which is busy claiming and preparing batches. A write
 * takes whatever was accepted while the one before it ran; while the database is away the rows are
 * kept and written again (every 100 ms, backing off to a second), and `record` resolves only once
 * they are written — so their connections end no new message meanwhile (smtp-pool.ts).
 */
export class RelayRecorder {
  private waiting: Waiting[] = [];
  private flushing = 0;
  /** In a streak of failed writes: said once, and retried on the timer only. */
  private failing = false;
  private retryMs = RETRY_FIRST_MS;
  private retryTimer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly pool: pg.Pool,
    /** A write failed (the database is away): said once per streak of failures. */
    private readonly onFailure: (error: unknown) => void,
  ) {}

  record(row: SentRow): Promise<void> {
    if (this.closed) return Promise.reject(new Error("The relay's recorder is closed"));
    return new Promise((resolve, reject) => {
      this.waiting.push({ row, resolve, reject });
      this.kick();
    });
  }

  /** Gives up what is not written yet: the main thread's recorder writes it instead. */
  close() {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    for (const w of this.waiting.splice(0)) w.reject(new Error("The relay's recorder is closed"));
  }

  private kick() {
    if (this.closed || this.retryTimer || this.waiting.length === 0 || this.flushing >= MAX_FLUSHES) return;
    void this.flush();
  }

  private async flush() {
    const taken = this.waiting.splice(0);
    this.flushing++;
    try {
      await writeSent(
        this.pool,
        taken.map((w) => w.row),
      );
      this.failing = false;
      this.retryMs = RETRY_FIRST_MS;
      for (const w of taken) w.resolve();
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
    }
    this.kick();
  }
}
