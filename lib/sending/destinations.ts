import type { InboxServer } from "./claim";
import type { Clock } from "@/lib/domain/clock";
import { deliver, type DeliveryResult } from "./deliver";
import type { Outgoing } from "./prepare-batch";
import { MAX_CONNECTIONS } from "./relay-options";
import type { Transports } from "./transports";
import { errorField, log } from "@/lib/log";

/** Concurrent deliveries to one SMTP server (host and port) across all the inboxes that use it. */
const SERVER_CONNECTIONS = 20;
/** Each destination's queue holds about this much of its own sending time: a slow server gets a short queue. */
const QUEUE_MS = 2_000;
/** Most emails queued for one destination (and twice that for one server across its inboxes). */
const MAX_QUEUE = 1000;
/** What a destination never seen before is assumed to deliver per second, until it has been measured. */
const FIRST_GUESS_PER_S = 25;
/** How long deliveries are counted before the destination's rate is measured again. */
const RATE_WINDOW_MS = 500;
/** A destination fed within this long still counts as at work. */
const RECENT_MS = 2_000;
/** A destination idle this long is forgotten (its pace is measured again if it comes back). */
const IDLE_MS = 60_000;
/**
 * While the destinations at work are full, a claim still looks for the others this often: the
 * interval at which an idle worker looks for new emails (worker/tasks.ts), so a first email waits
 * no longer beside a busy destination than on an idle worker.
 */
const PROBE_MS = 250;

type Job = { outgoing: Outgoing; inboxKey: string };

/** One inbox's SMTP transport, or the relay: its own connections and its own queue. */
class Destination {
  readonly waiting: Job[] = [];
  active = 0;
  reserved = 0;
  /** When emails for it last came from a claim: a destination fed recently is worth claiming for. */
  fedAt = 0;
  /** Deliveries per second while it has any in flight, a moving average over RATE_WINDOW_MS of such time. */
  perSecond = FIRST_GUESS_PER_S;
  private busySince: number | null = null;
  private busyMs = 0;
  private deliveredCount = 0;

  constructor(
    readonly key: string,
    public serverKey: string,
    /** Deliveries handed to it at once (its connections, or what the relay's thread takes). */
    readonly inFlight: number,
  ) {}

  get load() {
    return this.waiting.length + this.active + this.reserved;
  }

  /**
   * About QUEUE_MS of work at the pace this server keeps, and at least twice what it takes at once,
   * so that it is refilled (at half) while it still has a whole round in hand. The pace is measured
   * while deliveries are in flight, however few: a queue run dry measures slow, shrinks, and runs
   * dry sooner. With the relay's thread taking 50 at once against a cap of 50 (two seconds of a
   * relay 50 ms away), workers whose claims took a few hundred milliseconds on a loaded database
   * (three workers, load 20 on two cores) settled at 12-17 of their 25 emails a second, their
   * relay connections idle between claims; with twice the thread's share they kept all 50 in it.
   */
  get cap() {
    return Math.min(MAX_QUEUE, Math.max(2 * this.inFlight, Math.round((this.perSecond * QUEUE_MS) / 1000)));
  }

  started() {
    if (this.active++ === 0) this.busySince = performance.now();
  }

  /**
   * Counts a finished delivery. The pace is deliveries per second of busy time (some delivery in
   * flight): not each delivery's duration, which also holds the time the worker's event loop was
   * busy preparing the next batch and made a fast server look slow; and not per second of wall
   * time, which a queue run dry would make look slow, shrinking the queue further.
   */
  finished() {
    const now = performance.now();
    this.deliveredCount++;
    if (--this.active === 0 && this.busySince !== null) {
      this.busyMs += now - this.busySince;
      this.busySince = null;
    }
    const busy = this.busyMs + (this.busySince === null ? 0 : now - this.busySince);
    if (busy < RATE_WINDOW_MS) return;
    this.perSecond = this.perSecond * 0.5 + ((this.deliveredCount * 1000) / busy) * 0.5;
    this.deliveredCount = 0;
    this.busyMs = 0;
    if (this.busySince !== null) this.busySince = now;
  }
}

const inboxKey = (id: string) => `inbox:${id}`;
const serverKeyOf = (inbox: { smtp_host: string; smtp_port: number }) => `smtp:${inbox.smtp_host.toLowerCase()}:${inbox.smtp_port}`;
const RELAY = "relay";

export type DestinationsOptions = {
  transports: Transports;
  /** Whether another email may be handed to SMTP now (the recorder's bound on unrecorded outcomes). */
  mayHand: () => boolean;
  onResult: (result: DeliveryResult) => void;
  /** Called whenever a destination's queue has room again, or a delivery ends. */
  onRoom: () => void;
  /** Deliveries handed to the relay at once (MAX_CONNECTIONS unless set: the relay may queue more in its thread). */
  relayInFlight?: number;
  /** When a server accepted an email (`sent_at`): the system clock unless a test gives its own. */
  clock?: Clock;
};

/**
 * The SMTP side of the engine. Each inbox (and the relay) has its own queue and at most
 * MAX_CONNECTIONS deliveries at a time; each server at most SERVER_CONNECTIONS across its inboxes.
 * Emails wait here, not inside nodemailer's pool, so they can still be taken back (pause,
 * cancel, shutdown) until the moment they go to SMTP. A slow server fills only its own queue,
 * sized to its own pace, and the claims give it nothing more until that drains.
 */
export class Destinations {
  private readonly byKey = new Map<string, Destination>();
  private readonly serverActive = new Map<string, number>();
  private turn = 0;
  private prunedAt = Date.now();
  private claimedAt = 0;

  constructor(private readonly options: DestinationsOptions) {}

  /** Forgets destinations idle for a minute: the worker's bookkeeping follows the inboxes at work, not every inbox it ever served. */
  private prune(now: number) {
    if (now - this.prunedAt < 10_000) return;
    this.prunedAt = now;
    for (const [key, d] of this.byKey) if (d.load === 0 && now - d.fedAt > IDLE_MS) this.byKey.delete(key);
  }

  private destination(key: string, serverKey: string): Destination {
    let d = this.byKey.get(key);
    if (!d) {
      d = new Destination(key, serverKey, key === RELAY ? (this.options.relayInFlight ?? MAX_CONNECTIONS) : MAX_CONNECTIONS);
      this.byKey.set(key, d);
    }
    d.serverKey = serverKey;
    return d;
  }

  private serverLoad(serverKey: string) {
    let load = 0;
    for (const d of this.byKey.values()) if (d.serverKey === serverKey) load += d.load;
    return load;
  }

  private roomOf(d: Destination): number {
    // Refilled once half drained, so a claim brings a worthwhile batch rather than one email at a time.
    if (d.load > d.cap / 2) return 0;
    return Math.max(0, Math.min(d.cap - d.load, 2 * MAX_QUEUE - this.serverLoad(d.serverKey)));
  }

  /** How many more emails of this inbox the worker wants now. */
  inboxRoom(inbox: InboxServer): number {
    return this.roomOf(this.destination(inboxKey(inbox.id), serverKeyOf(inbox)));
  }

  /** Inboxes known to have no room now: a claim leaves them alone (and unlocked, for other workers). */
  fullInboxes(): string[] {
    const full: string[] = [];
    for (const d of this.byKey.values()) if (d.key.startsWith("inbox:") && this.roomOf(d) === 0) full.push(d.key.slice("inbox:".length));
    return full;
  }

  relayRoom(): number {
    return this.roomOf(this.destination(RELAY, RELAY));
  }

  /**
   * Whether a claim is worth making now: some destination at work (emails queued or in flight, or
   * fed in the last seconds) has room for more; or PROBE_MS have passed since the last claim. The
   * latter is for the destinations not at work — another tenant's inbox, the idle relay — whose
   * first email may be due while every busy one is full: a claim leaves full inboxes alone
   * (fullInboxes) and takes only what has room, so it claims for them without waiting for a slow
   * server's queue to drain (which took 5–8 s beside one answering in 500 ms). A worker with
   * nothing at work also looks once per PROBE_MS, not once per lane: its three lanes each claimed
   * every 250 ms, the most frequent statements of an idle worker, repeated by every worker added.
   */
  worthClaiming(): boolean {
    const now = Date.now();
    this.prune(now);
    if (now - this.claimedAt >= PROBE_MS) return true;
    for (const d of this.byKey.values()) {
      if (d.load === 0 && now - d.fedAt > RECENT_MS) continue;
      if (this.roomOf(d) > 0) return true;
    }
    return false;
  }

  /** A claim ran: the destinations not at work were looked at just now. */
  claimed() {
    this.claimedAt = Date.now();
  }

  /** How long until a claim is worth making for the destinations not at work (worthClaiming). */
  get msToProbe(): number {
    return Math.max(0, PROBE_MS - (Date.now() - this.claimedAt));
  }

  /** Counts claimed emails against their destination until they are queued or given back. */
  reserve(inboxId: string | null, delta: number) {
    const d = this.byKey.get(inboxId ? inboxKey(inboxId) : RELAY);
    if (!d) return;
    d.reserved = Math.max(0, d.reserved + delta);
    if (delta > 0) d.fedAt = Date.now();
  }

  enqueue(outgoing: Outgoing) {
    const key = outgoing.inbox ? inboxKey(outgoing.inbox.id) : RELAY;
    const d = this.destination(key, outgoing.inbox ? serverKeyOf(outgoing.inbox) : RELAY);
    d.waiting.push({ outgoing, inboxKey: key });
    this.pump();
  }

  /** Takes back every queued email that matches (not those already handed to SMTP). */
  withdraw(match: (outgoing: Outgoing) => boolean): Outgoing[] {
    const taken: Outgoing[] = [];
    for (const d of this.byKey.values()) {
      for (let i = d.waiting.length - 1; i >= 0; i--) {
        if (match(d.waiting[i].outgoing)) taken.push(...d.waiting.splice(i, 1).map((job) => job.outgoing));
      }
    }
    if (taken.length > 0) this.options.onRoom();
    return taken;
  }

  forEachWaiting(visit: (outgoing: Outgoing) => void) {
    for (const d of this.byKey.values()) for (const job of d.waiting) visit(job.outgoing);
  }

  get waitingCount() {
    let n = 0;
    for (const d of this.byKey.values()) n += d.waiting.length;
    return n;
  }

  get activeCount() {
    let n = 0;
    for (const d of this.byKey.values()) n += d.active;
    return n;
  }

  /** Hands queued emails to SMTP while connections and the recorder allow, one per destination in turn. */
  pump() {
    const all = [...this.byKey.values()];
    if (all.length === 0) return;
    let started = true;
    while (started && this.options.mayHand()) {
      started = false;
      for (let n = 0; n < all.length && this.options.mayHand(); n++) {
        const d = all[(this.turn + n) % all.length];
        if (d.waiting.length === 0 || d.active >= d.inFlight) continue;
        // The relay is the operator's, with its own number of connections (SMTP_RELAY_CONNECTIONS): not shared out like a tenant's server.
        if (d.key !== RELAY && (this.serverActive.get(d.serverKey) ?? 0) >= SERVER_CONNECTIONS) continue;
        this.start(d, d.waiting.shift()!);
        started = true;
      }
      this.turn = (this.turn + 1) % all.length;
    }
  }

  private start(d: Destination, job: Job) {
    d.started();
    this.serverActive.set(d.serverKey, (this.serverActive.get(d.serverKey) ?? 0) + 1);
    void deliver(job.outgoing, this.options.transports, this.options.clock)
      .then((result) => {
        this.serverActive.set(d.serverKey, (this.serverActive.get(d.serverKey) ?? 1) - 1);
        d.finished();
        this.options.onResult(result);
        this.pump();
        this.options.onRoom();
      })
      .catch((error: unknown) => log.error({ err: errorField(error) }, "sender: the work after a delivery failed"));
  }
}
