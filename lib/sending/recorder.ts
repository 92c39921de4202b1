import type { DeliveryResult } from "./deliver";
import type { Outgoing, Withdrawn } from "./prepare-batch";
import { recordOutcomes, RETRY_DELAYS_MS } from "./record-outcomes";
import { errorField, log } from "@/lib/log";

export type Outcome =
  | { kind: "result"; result: DeliveryResult }
  | { kind: "withdrawn"; withdrawn: Withdrawn }
  | { kind: "broken"; email: Outgoing["email"]; reason: string }
  | { kind: "returned"; id: string; inbox_id: string | null };

const idOf = (o: Outcome) =>
  o.kind === "result" ? o.result.outgoing.email.id : o.kind === "withdrawn" ? o.withdrawn.email.id : o.kind === "broken" ? o.email.id : o.id;

const isSent = (o: Outcome) => o.kind === "result" && o.result.kind === "sent";

export type RecorderOptions = {
  retryDelaysMs?: number[];
  /** Most outcomes one transaction writes. */
  maxBatch?: number;
  /** After each recorded batch: its emails, the broadcasts it touched, and the broadcasts and inboxes that had a hard bounce in it. */
  onRecorded: (ids: string[], touchedBroadcasts: string[], bounced: { broadcasts: string[]; inboxes: string[] }) => void;
  /** A write failed (the database is away): the outcomes stay here and are tried again. */
  onFailure: (error: unknown) => void;
  /** Room again under the bound of unrecorded emails. */
  onProgress: () => void;
};

/** A flush waits for this many outcomes, or until the first has waited LINGER_MS: fewer, fuller statements. */
const FULL_BATCH = 20;
/** Writes in flight at once: an outcome waits for a free one less, and the bound on unrecorded emails binds later. */
const MAX_FLUSHES = 3;
const LINGER_MS = 10;
const RETRY_FIRST_MS = 100;
const RETRY_MOST_MS = 1_000;

/**
 * Writes outcomes as they happen, a few dozen per transaction: each flush takes what arrived
 * while the previous one was being written, so the batches grow with the rate and nothing waits
 * for a whole claim to finish. When the database cannot be reached the outcomes are kept in
 * memory and written as soon as it answers again; meanwhile `unrecordedSent` climbs to the
 * sender's bound and no more emails go out, so a crash at any moment repeats at most that many.
 */
export class Recorder {
  private buffer: Outcome[] = [];
  private firstBufferedAt = 0;
  private lingerTimer: NodeJS.Timeout | null = null;
  private flushing = 0;
  private flushingSent = 0;
  private failing = false;
  private retryMs = RETRY_FIRST_MS;
  private retryTimer: NodeJS.Timeout | null = null;
  private idle: (() => void)[] = [];
  private readonly delays: number[];
  private readonly maxBatch: number;

  constructor(private readonly options: RecorderOptions) {
    this.delays = options.retryDelaysMs ?? RETRY_DELAYS_MS;
    this.maxBatch = options.maxBatch ?? 200;
  }

  /** Emails the SMTP server accepted whose outcome is not written yet. */
  get unrecordedSent(): number {
    let n = this.flushingSent;
    for (const o of this.buffer) if (isSent(o)) n++;
    return n;
  }

  get pending(): number {
    return this.buffer.length + this.flushing;
  }

  add(outcome: Outcome) {
    if (this.buffer.length === 0) this.firstBufferedAt = performance.now();
    this.buffer.push(outcome);
    this.kick();
  }

  /** Resolves once every outcome added so far is written. */
  drained(): Promise<void> {
    if (this.buffer.length === 0 && this.flushing === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  close() {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.lingerTimer) clearTimeout(this.lingerTimer);
    this.retryTimer = null;
    this.lingerTimer = null;
  }

  private kick() {
    // While failing, one attempt at a time, on the retry timer.
    if (this.failing || this.buffer.length === 0 || this.flushing >= MAX_FLUSHES || this.lingerTimer) return;
    const waited = performance.now() - this.firstBufferedAt;
    if (this.buffer.length < FULL_BATCH && waited < LINGER_MS) {
      this.lingerTimer = setTimeout(() => {
        this.lingerTimer = null;
        this.kick();
      }, LINGER_MS - waited);
      return;
    }
    void this.flush();
  }

  private async flush() {
    const taken = this.buffer.splice(0, this.maxBatch);
    this.firstBufferedAt = performance.now();
    const sent = taken.filter(isSent).length;
    this.flushing++;
    this.flushingSent += sent;
    try {
      const touched = await recordOutcomes(
        {
          results: taken.flatMap((o) => (o.kind === "result" ? [o.result] : [])),
          withdrawn: taken.flatMap((o) => (o.kind === "withdrawn" ? [o.withdrawn] : [])),
          broken: taken.flatMap((o) => (o.kind === "broken" ? [{ email: o.email, reason: o.reason }] : [])),
          returned: taken.flatMap((o) => (o.kind === "returned" ? [{ id: o.id, inbox_id: o.inbox_id }] : [])),
        },
        this.delays,
      );
      this.failing = false;
      this.retryMs = RETRY_FIRST_MS;
      this.flushing--;
      this.flushingSent -= sent;
      const bounces = taken.flatMap((o) => (o.kind === "result" && o.result.kind === "bounced" ? [o.result.outgoing] : []));
      this.options.onRecorded(taken.map(idOf), touched, {
        broadcasts: [...new Set(bounces.flatMap((b) => (b.email.broadcast_id ? [b.email.broadcast_id] : [])))],
        inboxes: [...new Set(bounces.flatMap((b) => (b.inbox ? [b.inbox.id] : [])))],
      });
    } catch (error) {
      this.buffer.unshift(...taken);
      this.flushing--;
      this.flushingSent -= sent;
      this.options.onFailure(error);
      if (!this.failing) log.error({ outcomes: taken.length, err: errorField(error) }, "sender: could not record outcomes; keeping them to retry");
      this.failing = true;
      if (!this.retryTimer) {
        this.retryTimer = setTimeout(() => {
          this.retryTimer = null;
          if (this.flushing === 0 && this.buffer.length > 0) void this.flush();
        }, this.retryMs);
        this.retryMs = Math.min(RETRY_MOST_MS, this.retryMs * 2);
      }
    }
    this.options.onProgress();
    if (this.buffer.length === 0 && this.flushing === 0) for (const resolve of this.idle.splice(0)) resolve();
    else this.kick();
  }
}
