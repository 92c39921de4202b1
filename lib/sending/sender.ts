import { env } from "@/lib/env";
import type { OutboundPolicy } from "@/lib/net/outbound-policy";
import { tripBreakers } from "./breakers";
import { foldBroadcastCounters } from "./broadcast-counters";
import { claimDueEmails, type Claimed } from "./claim";
import { completeTouchedBroadcasts } from "./complete-broadcasts";
import { Destinations } from "./destinations";
import { engineDb } from "./engine-db";
import { startLeaseKeeper } from "./leases";
import { prepareBatch, type Outgoing } from "./prepare-batch";
import { Recorder } from "./recorder";
import { RelayInThread } from "./relay-in-thread";
import { listenForStops } from "./stop-signals";
import { Transports } from "./transports";
import { errorField, log } from "@/lib/log";
import type { Clock } from "@/lib/domain/clock";

export type SenderOptions = {
  /** The organizations' default relay; env SMTP_RELAY_URL (or SMTP_URL) when not given. */
  relayUrl?: string;
  batchSize?: number;
  leaseMs?: number;
  /** Multiplies the pacing gaps (tests shrink the clock; production leaves it at 1). */
  paceScale?: number;
  retryDelaysMs?: number[];
  /** Only this organization's emails (tests share one database). */
  organizationId?: string;
  /**
   * Most emails accepted by SMTP servers and not yet recorded; no email is handed to SMTP while
   * that many wait. A worker killed at any moment repeats at most about this many (and the few
   * the relay accepted whose marks were not yet on their way: smtp-pool.ts). One whose acceptance
   * the relay's thread has marked on its claim no longer counts: a kill would not send it again
   * (leases.ts records it as sent). Counted, they held a broadcast through the relay to the rate at
   * which the main thread recorded batches of 20.
   */
  maxUnrecorded?: number;
  /** Most emails one worker holds (claimed, not yet recorded) across all destinations. */
  maxHeld?: number;
  /** Where inboxes' SMTP servers may be; the operator's policy (ALLOWED_PRIVATE_HOSTS) when not given. */
  policy?: OutboundPolicy;
  /** Connection and greeting timeouts of inboxes' SMTP servers (30 s). */
  smtpConnectTimeoutMs?: number;
  /** Whether the relay's SMTP conversations run in a thread of their own (relay-in-thread.ts); true unless set. */
  relayInThread?: boolean;
  /** Tests only: when emails are due (sending windows, retries) and when they count as sent. */
  clock?: Clock;
};

export type Sender = {
  /** Claims one batch of due emails, sends it and records the outcomes. Answers how many it claimed. */
  runOnce: () => Promise<number>;
  /**
   * Claims and prepares one batch and queues it for its SMTP destinations; delivery and recording
   * go on in the background. Waits first while every destination seen so far has enough queued.
   * Answers how many it claimed.
   */
  dispatchOnce: () => Promise<number>;
  /** Readies what the first claims need ahead of them (the relay's thread), as a worker starts. */
  start: () => void;
  /** Resolves once every claimed email is delivered and recorded (or given back). */
  drain: () => Promise<void>;
  /** Claims nothing more, gives back the emails not yet handed to SMTP, and drains. */
  stop: () => Promise<void>;
  close: () => Promise<void>;
  /** Counters for tests and logs. */
  stats: () => { held: number; waiting: number; active: number; unrecordedSent: number };
};

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 1000);

/** How often the broadcasts of queued emails are checked for a pause or a cancel. */
const STOP_CHECK_MS = 1000;
/** How long an announced pause or cancel keeps a broadcast's newly prepared emails out of the queues (a resume may follow). */
const STOP_MEMORY_MS = 3000;
/** How soon after a write the touched broadcasts' counters are folded and their completion checked. */
const COMPLETION_DELAY_MS = 200;
/** A finished broadcast whose row was held is checked again this soon, this many times; then the housekeeping's round has it. */
const COMPLETION_RETRY_MS = 1000;
const COMPLETION_RETRIES = 10;
const NO_ROOM = Symbol("no room");
/**
 * Emails handed to the relay's thread at once: enough to keep its connections busy while this
 * thread spends a few tens of milliseconds preparing or recording a batch (four per connection: one
 * in its conversation, one waiting for its slot, two to follow); few enough that a pause or a cancel
 * takes back all but these.
 */
const RELAY_IN_FLIGHT = Math.max(50, 4 * env.smtpRelayConnections);

export function createSender(options: SenderOptions = {}): Sender {
  const batchSize = options.batchSize ?? 100;
  const leaseMs = options.leaseMs ?? env.workerLeaseSeconds * 1000;
  const paceScale = options.paceScale ?? 1;
  const organizationId = options.organizationId;
  const maxUnrecorded = options.maxUnrecorded ?? 40;
  const maxHeld = options.maxHeld ?? 2000;
  const relayInThread = options.relayInThread ?? true;
  const transports = new Transports("relayUrl" in options ? options.relayUrl : env.smtpRelayUrl, {
    policy: options.policy,
    connectTimeoutMs: options.smtpConnectTimeoutMs,
    // The thread marks what the relay accepts on its claim (relay-thread.ts): a failed write there means the database is away.
    relay: relayInThread
      ? (url) => new RelayInThread(url, { databaseUrl: env.databaseUrl, onWriteFailed: () => leases?.noteFailure(), onMarked: (ids) => recorder.marked(ids) })
      : undefined,
  });

  /** Every email this worker holds (claimed, not yet recorded), with when it was claimed. */
  const held = new Map<string, number>();
  /** Waiters on a recorded id (runOnce). */
  const waiters = new Map<string, () => void>();
  const lastServed = new Map<string, number>();
  let stopping = false;
  let claiming: Promise<unknown> = Promise.resolve();
  let roomWaiters: (() => void)[] = [];
  const wakeRoomWaiters = () => {
    for (const wake of roomWaiters.splice(0)) wake();
  };

  let leases: ReturnType<typeof startLeaseKeeper> | null = null;
  let stopSignals: ReturnType<typeof listenForStops> | null = null;
  /** Broadcasts a pause or cancel was just announced for: their emails are given back, not queued. */
  const stoppedRecently = new Map<string, number>();
  const recentlyStopped = (broadcastId: string | null) => {
    const at = broadcastId ? stoppedRecently.get(broadcastId) : undefined;
    return at !== undefined && Date.now() - at < STOP_MEMORY_MS;
  };
  const startLeases = () => (leases ??= startLeaseKeeper({ leaseMs, held: () => held, organizationId }));
  // Only for the worker's pipeline (dispatchOnce): runOnce sends its whole batch before it answers.
  const listen = () =>
    (stopSignals ??= listenForStops((broadcastId) => {
      for (const [id, at] of stoppedRecently) if (Date.now() - at >= STOP_MEMORY_MS) stoppedRecently.delete(id);
      stoppedRecently.set(broadcastId, Date.now());
      giveBack(destinations.withdraw((o) => o.email.broadcast_id === broadcastId));
    }));

  const touched = new Set<string>();
  let breaking: Promise<void> = Promise.resolve();
  let completionTimer: NodeJS.Timeout | null = null;
  let completing: Promise<void> = Promise.resolve();
  const completionRetries = new Map<string, number>();
  const comeBackFor = (locked: string[]) => {
    for (const id of locked) {
      const tries = (completionRetries.get(id) ?? 0) + 1;
      if (tries > COMPLETION_RETRIES) {
        completionRetries.delete(id);
        continue;
      }
      completionRetries.set(id, tries);
      touched.add(id);
    }
    if (touched.size > 0 && !completionTimer && !stopping) completionTimer = setTimeout(completeTouched, COMPLETION_RETRY_MS);
  };
  const completeTouched = () => {
    completionTimer = null;
    const ids = [...touched];
    touched.clear();
    if (ids.length === 0) return completing;
    completing = completing
      .then(() => foldBroadcastCounters(ids))
      .then(() => completeTouchedBroadcasts(ids))
      .then((locked) => {
        for (const id of ids) if (!locked.includes(id)) completionRetries.delete(id);
        comeBackFor(locked);
      })
      .catch((error: unknown) =>
        log.error({ err: errorField(error), detail: describe(error) }, "sender: folding counters or completing broadcasts failed (the housekeeping retries)"),
      );
    return completing;
  };

  const recorder = new Recorder({
    retryDelaysMs: options.retryDelaysMs,
    relayMarks: relayInThread,
    onRecorded: (ids, broadcasts, bounced) => {
      for (const id of ids) {
        held.delete(id);
        const wake = waiters.get(id);
        if (wake) {
          waiters.delete(id);
          wake();
        }
      }
      for (const id of broadcasts) touched.add(id);
      // Bounces are judged at once, not after the counters' fold: a breaker must trip within a
      // few batches of crossing its threshold (breakers.ts).
      if (bounced.broadcasts.length > 0 || bounced.inboxes.length > 0) breaking = breaking.then(() => tripBreakers(bounced.broadcasts, bounced.inboxes));
      if (broadcasts.length > 0 && !completionTimer) completionTimer = setTimeout(completeTouched, COMPLETION_DELAY_MS);
    },
    onFailure: () => leases?.noteFailure(),
    onProgress: () => {
      destinations.pump();
      wakeRoomWaiters();
    },
  });

  const destinations = new Destinations({
    transports,
    relayInFlight: relayInThread ? RELAY_IN_FLIGHT : undefined,
    clock: options.clock,
    mayHand: () => recorder.unrecordedSent < maxUnrecorded,
    onResult: (result) => recorder.add({ kind: "result", result }),
    onRoom: wakeRoomWaiters,
  });

  const room = {
    inbox: (inbox: Parameters<Destinations["inboxRoom"]>[0]) => Math.min(destinations.inboxRoom(inbox), maxHeld - held.size),
    relay: () => Math.min(destinations.relayRoom(), maxHeld - held.size),
    order: (ids: string[]) => [...ids].sort((a, b) => (lastServed.get(a) ?? 0) - (lastServed.get(b) ?? 0)),
    full: () => destinations.fullInboxes(),
  };

  /** Gives back, unsent, the queued emails whose broadcast stopped sending or whose inbox was paused. */
  let stopCheck: NodeJS.Timeout | null = null;
  async function checkStops() {
    stopCheck = null;
    const broadcastIds = new Set<string>();
    const inboxIds = new Set<string>();
    destinations.forEachWaiting((o) => {
      if (o.email.broadcast_id) broadcastIds.add(o.email.broadcast_id);
      if (o.inbox) inboxIds.add(o.inbox.id);
    });
    if (broadcastIds.size > 0 || inboxIds.size > 0) {
      try {
        const [stopped, paused] = await Promise.all([
          engineDb().$queryRaw<{ id: string }[]>`SELECT id FROM broadcasts WHERE id = ANY(${[...broadcastIds]}::uuid[]) AND status <> 'sending'`,
          engineDb().$queryRaw<{ id: string }[]>`SELECT id FROM inboxes WHERE id = ANY(${[...inboxIds]}::uuid[]) AND paused`,
        ]);
        const stoppedIds = new Set(stopped.map((r) => r.id));
        const pausedIds = new Set(paused.map((r) => r.id));
        if (stoppedIds.size > 0 || pausedIds.size > 0) {
          giveBack(
            destinations.withdraw(
              (o) => (o.email.broadcast_id !== null && stoppedIds.has(o.email.broadcast_id)) || (o.inbox !== null && pausedIds.has(o.inbox.id)),
            ),
          );
        }
      } catch {
        // The database is away: the emails stay queued, and the recorder holds back new sends anyway.
      }
    }
    scheduleStopCheck();
  }
  function scheduleStopCheck() {
    if (stopCheck || stopping) return;
    stopCheck = setTimeout(() => void checkStops(), STOP_CHECK_MS);
    stopCheck.unref();
  }

  function giveBack(outgoing: Outgoing[]) {
    for (const o of outgoing) recorder.add({ kind: "returned", id: o.email.id, inbox_id: o.inbox?.id ?? null });
  }

  /**
   * Claims and prepares one batch and queues it; answers the ids claimed, or NO_ROOM when
   * `onlyWithRoom` and the claims before this one (lanes run side by side) left no destination room.
   */
  async function claimAndQueue(onlyWithRoom = false): Promise<string[] | typeof NO_ROOM> {
    startLeases();
    // One claim at a time per worker, so each sees the room the previous one left.
    let claimed: Claimed[] = [];
    let noRoom = false;
    const claim = claiming.then(async () => {
      if (stopping) return;
      if (onlyWithRoom && !destinations.worthClaiming()) {
        noRoom = true;
        return;
      }
      destinations.claimed();
      claimed = await claimDueEmails({
        batchSize,
        leaseMs,
        paceScale,
        organizationIds: organizationId ? [organizationId] : undefined,
        room,
        now: options.clock?.(),
      });
      const now = Date.now();
      for (const c of claimed) {
        held.set(c.id, now);
        lastServed.set(c.organization_id, now);
        destinations.reserve(c.inbox_id, 1);
      }
    });
    claiming = claim.catch(() => undefined);
    try {
      await claim;
    } catch (error) {
      leases?.noteFailure();
      throw error;
    }
    if (noRoom) return NO_ROOM;
    if (claimed.length === 0) return [];
    const ids = claimed.map((c) => c.id);
    try {
      const { outgoing, withdrawn, broken, stopped } = await prepareBatch(ids);
      const prepared = new Set([...outgoing, ...broken, ...withdrawn].map((o) => o.email.id).concat(stopped.map((e) => e.id)));
      for (const c of claimed) destinations.reserve(c.inbox_id, -1);
      for (const w of withdrawn) recorder.add({ kind: "withdrawn", withdrawn: w });
      for (const b of broken) recorder.add({ kind: "broken", email: b.email, reason: describe(b.error) });
      for (const e of stopped) recorder.add({ kind: "returned", id: e.id, inbox_id: e.inbox_id });
      // Claimed but gone when read back (deleted meanwhile): nothing to do here; its claim runs out.
      for (const id of ids) if (!prepared.has(id)) held.delete(id);
      if (stopping) giveBack(outgoing);
      else {
        giveBack(outgoing.filter((o) => recentlyStopped(o.email.broadcast_id)));
        for (const o of outgoing) if (!recentlyStopped(o.email.broadcast_id)) destinations.enqueue(o);
      }
      scheduleStopCheck();
    } catch (error) {
      for (const c of claimed) {
        destinations.reserve(c.inbox_id, -1);
        recorder.add({ kind: "returned", id: c.id, inbox_id: c.inbox_id });
      }
      throw error;
    }
    return ids;
  }

  function recorded(ids: string[]): Promise<void> {
    return Promise.all(ids.filter((id) => held.has(id)).map((id) => new Promise<void>((resolve) => waiters.set(id, resolve)))).then(() => undefined);
  }

  async function runOnce(): Promise<number> {
    const ids = await claimAndQueue();
    if (ids === NO_ROOM || ids.length === 0) return 0;
    await recorded(ids);
    if (completionTimer) clearTimeout(completionTimer);
    await completeTouched();
    return ids.length;
  }

  /** Until some destination has room (or none is known yet, or the others are due a look), at most a short while. */
  function roomToClaim(): Promise<void> {
    if (destinations.worthClaiming() && held.size < maxHeld) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, Math.max(10, Math.min(250, destinations.msToProbe)));
      function done() {
        clearTimeout(timer);
        roomWaiters = roomWaiters.filter((w) => w !== done);
        resolve();
      }
      roomWaiters.push(done);
    });
  }

  async function dispatchOnce(): Promise<number> {
    listen();
    // A lane whose turn to claim came after the others had taken the room waits for room again:
    // answering 0 would put it to sleep for the loop's idle interval while the queues drain.
    while (!stopping) {
      await roomToClaim();
      if (stopping) break;
      const ids = await claimAndQueue(true);
      if (ids !== NO_ROOM) return ids.length;
    }
    return 0;
  }

  async function drain(): Promise<void> {
    while (held.size > 0 || recorder.pending > 0) {
      await recorder.drained();
      if (held.size > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    if (completionTimer) clearTimeout(completionTimer);
    await completeTouched();
  }

  async function stop(): Promise<void> {
    stopping = true;
    await claiming;
    giveBack(destinations.withdraw(() => true));
    await drain();
  }

  async function close(): Promise<void> {
    stopping = true;
    if (stopCheck) clearTimeout(stopCheck);
    if (completionTimer) clearTimeout(completionTimer);
    recorder.close();
    await Promise.all([leases?.stop(), stopSignals?.close()]);
    transports.close();
  }

  return {
    runOnce,
    dispatchOnce,
    start: () => transports.startRelay(),
    drain,
    stop,
    close,
    stats: () => ({ held: held.size, waiting: destinations.waitingCount, active: destinations.activeCount, unrecordedSent: recorder.unrecordedSent }),
  };
}
