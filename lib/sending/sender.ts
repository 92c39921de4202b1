import { env } from "@/lib/env";
import type { OutboundPolicy } from "@/lib/net/outbound-policy";
import { claimDueEmails, extendLeases, releaseExpiredLeases } from "./claim";
import { completeFinishedBroadcasts } from "./complete-broadcasts";
import { deliver, type DeliveryResult } from "./deliver";
import { prepareBatch, type Outgoing, type Withdrawn } from "./prepare-batch";
import { recordOutcomes, RETRY_DELAYS_MS } from "./record-outcomes";
import { Transports } from "./transports";

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
  /** dispatchOnce claims more only while fewer emails than this wait for their SMTP connection. */
  maxQueued?: number;
  /** Where inboxes' SMTP servers may be; the operator's policy (ALLOWED_PRIVATE_HOSTS) when not given. */
  policy?: OutboundPolicy;
  /** Connection and greeting timeouts of inboxes' SMTP servers (30 s). */
  smtpConnectTimeoutMs?: number;
};

export type Sender = {
  /** Claims one batch of due emails, sends it and records the outcomes. Answers how many it claimed. */
  runOnce: () => Promise<number>;
  /**
   * Claims and prepares one batch and hands it to the SMTP connections; its delivery and
   * recording go on in the background. Waits first while enough emails are already queued for
   * the connections. Answers how many it claimed.
   */
  dispatchOnce: () => Promise<number>;
  /** Resolves once every dispatched batch is delivered and recorded. */
  drain: () => Promise<void>;
  close: () => void;
};

type Batch = {
  ids: string[];
  outgoing: Outgoing[];
  withdrawn: Withdrawn[];
  broken: { email: Outgoing["email"]; reason: string }[];
  heartbeat: NodeJS.Timeout;
};

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 1000);

export function createSender(options: SenderOptions = {}): Sender {
  const batchSize = options.batchSize ?? 100;
  const leaseMs = options.leaseMs ?? env.workerLeaseSeconds * 1000;
  const paceScale = options.paceScale ?? 1;
  const delays = options.retryDelaysMs ?? RETRY_DELAYS_MS;
  const organizationId = options.organizationId;
  const maxQueued = options.maxQueued ?? batchSize * 2;
  const transports = new Transports("relayUrl" in options ? options.relayUrl : env.smtpRelayUrl, {
    policy: options.policy,
    connectTimeoutMs: options.smtpConnectTimeoutMs,
  });
  let lastRelease = 0;
  let queued = 0;
  const delivered = new Set<() => void>();
  const inFlight = new Set<Promise<void>>();

  async function claimBatch(): Promise<Batch | null> {
    if (Date.now() - lastRelease > Math.min(leaseMs, 5_000)) {
      lastRelease = Date.now();
      await releaseExpiredLeases(organizationId);
    }
    const ids = await claimDueEmails({ batchSize, leaseMs, paceScale, organizationId });
    if (ids.length === 0) return null;
    // A slow SMTP server must not let the lease run out under a worker that is still sending.
    const heartbeat = setInterval(() => void extendLeases(ids, leaseMs).catch(() => undefined), Math.max(250, leaseMs / 3));
    try {
      const { outgoing, withdrawn, broken } = await prepareBatch(ids);
      return { ids, outgoing, withdrawn, broken: broken.map((b) => ({ email: b.email, reason: describe(b.error) })), heartbeat };
    } catch (error) {
      clearInterval(heartbeat);
      throw error;
    }
  }

  function send(batch: Batch): Promise<DeliveryResult>[] {
    queued += batch.outgoing.length;
    return batch.outgoing.map((item) =>
      deliver(item, transports).finally(() => {
        queued--;
        for (const wake of delivered) wake();
      }),
    );
  }

  async function finish(batch: Batch, deliveries: Promise<DeliveryResult>[]): Promise<void> {
    try {
      const results = await Promise.all(deliveries);
      const touched = await recordOutcomes({ results, withdrawn: batch.withdrawn, broken: batch.broken }, delays);
      await completeFinishedBroadcasts(touched);
    } finally {
      clearInterval(batch.heartbeat);
    }
  }

  async function runOnce(): Promise<number> {
    const batch = await claimBatch();
    if (!batch) return 0;
    await finish(batch, send(batch));
    return batch.ids.length;
  }

  async function dispatchOnce(): Promise<number> {
    while (queued >= maxQueued) {
      await new Promise<void>((resolve) => {
        const wake = () => {
          delivered.delete(wake);
          resolve();
        };
        delivered.add(wake);
      });
    }
    const batch = await claimBatch();
    if (!batch) return 0;
    // Unrecorded outcomes are safe: the emails stay `sending` under their lease, and a lease that
    // runs out makes them due again, as after a crash.
    const finishing = finish(batch, send(batch)).catch((error: unknown) => console.error("[sender] recording a batch failed:", error));
    inFlight.add(finishing);
    void finishing.then(() => inFlight.delete(finishing));
    return batch.ids.length;
  }

  async function drain(): Promise<void> {
    while (inFlight.size > 0) await Promise.all(inFlight);
  }

  return { runOnce, dispatchOnce, drain, close: () => transports.close() };
}
