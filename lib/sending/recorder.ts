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
  /** Whether the relay's thread marks the relay's accepted emails on their claims (relay-recorder.ts): their outcomes may wait for larger batches. */
  relayMarks?: boolean;
  /** Room again under the bound of unrecorded emails. */
  onProgress: () => void;
};

/** A flush waits for this many outcomes, or until the first has waited this long: fewer, fuller statements. */
const PROMPT = { full: 20, lingerMs: 10 };
/**
 * The same when every outcome waiting is of an email the relay accepted, which the relay's thread
 * marks on its claim (relay-recorder.ts): once marked, a crash would not send it again and it is
 * outside the bound on unrecorded emails, so nothing waits for its record, and the recorder waits
 * for batches five times as large, each costing the database about what a batch of 20 did.
 */
const RELAXED = { full: 100, lingerMs: 50 };
/** Writes in flight at once: an outcome waits for a free one less, and the bound on unrecorded emails binds later. */
const MAX_FLUSHES = 3;
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
  private lingering = PROMPT;
  private flushing = 0;
  /** Emails the server accepted, waiting here or being written, that no mark of the relay's thread covers. */
  private unmarked = new Set<string>();
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

  /**
   * Emails the SMTP server accepted whose outcome is not written yet, nor their acceptance marked
   * on their claim by the relay's thread: the ones a crash now would send again.
   */
  get unrecordedSent(): number {
    return this.unmarked.size;
  }

  /** The relay's thread marked these emails accepted on their claims (relay-recorder.ts). */
  marked(ids: string[]) {
    let freed = false;
    for (const id of ids) if (this.unmarked.delete(id)) freed = true;
    if (freed) this.options.onProgress();
  }

  /** An outcome that may wait for a larger batch: an email the relay accepted, marked by the relay's thread. */
  private mayLinger(o: Outcome): boolean {
    return this.options.relayMarks === true && o.kind === "result" && o.result.kind === "sent" && o.result.outgoing.inbox === null;
  }

  get pending(): number {
    return this.buffer.length + this.flushing;
  }

  add(outcome: Outcome) {
    if (this.buffer.length === 0) this.firstBufferedAt = performance.now();
    this.buffer.push(outcome);
    if (isSent(outcome)) this.unmarked.add(idOf(outcome));
    // A lingering batch goes once full, or sooner when an outcome that may not wait so long joins it.
    if (this.lingerTimer && (this.buffer.length >= this.lingering.full || (this.lingering === RELAXED && !this.mayLinger(outcome)))) {
      clearTimeout(this.lingerTimer);
      this.lingerTimer = null;
    }
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
    this.lingering = this.buffer.every((o) => this.mayLinger(o)) ? RELAXED : PROMPT;
    if (this.buffer.length < this.lingering.full && waited < this.lingering.lingerMs) {
      this.lingerTimer = setTimeout(() => {
        this.lingerTimer = null;
        this.kick();
      }, this.lingering.lingerMs - waited);
      return;
    }
    void this.flush();
  }

  private async flush() {
    const taken = this.buffer.splice(0, this.maxBatch);
    this.firstBufferedAt = performance.now();
    this.flushing++;
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
      for (const o of taken) this.unmarked.delete(idOf(o));
      const bounces = taken.flatMap((o) => (o.kind === "result" && o.result.kind === "bounced" ? [o.result.outgoing] : []));
      this.options.onRecorded(taken.map(idOf), touched, {
        broadcasts: [...new Set(bounces.flatMap((b) => (b.email.broadcast_id ? [b.email.broadcast_id] : [])))],
        inboxes: [...new Set(bounces.flatMap((b) => (b.inbox ? [b.inbox.id] : [])))],
      });
    } catch (error) {
      this.buffer.unshift(...taken);
      this.flushing--;
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
