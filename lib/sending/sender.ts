import { env } from "@/lib/env";
import { claimDueEmails, extendLeases, releaseExpiredLeases } from "./claim";
import { completeFinishedBroadcasts } from "./complete-broadcasts";
import { deliver } from "./deliver";
import { prepareBatch } from "./prepare-batch";
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
};

export type Sender = {
  /** Claims one batch of due emails, sends it and records the outcomes. Answers how many it claimed. */
  runOnce: () => Promise<number>;
  close: () => void;
};

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 1000);

export function createSender(options: SenderOptions = {}): Sender {
  const batchSize = options.batchSize ?? 100;
  const leaseMs = options.leaseMs ?? env.workerLeaseSeconds * 1000;
  const paceScale = options.paceScale ?? 1;
  const delays = options.retryDelaysMs ?? RETRY_DELAYS_MS;
  const organizationId = options.organizationId;
  const transports = new Transports("relayUrl" in options ? options.relayUrl : env.smtpRelayUrl);
  let lastRelease = 0;

  async function runOnce(): Promise<number> {
    if (Date.now() - lastRelease > Math.min(leaseMs, 5_000)) {
      lastRelease = Date.now();
      await releaseExpiredLeases(organizationId);
    }
    const ids = await claimDueEmails({ batchSize, leaseMs, paceScale, organizationId });
    if (ids.length === 0) return 0;
    // A slow SMTP server must not let the lease run out under a worker that is still sending.
    const heartbeat = setInterval(() => void extendLeases(ids, leaseMs).catch(() => undefined), Math.max(250, leaseMs / 3));
    try {
      const { outgoing, withdrawn, broken } = await prepareBatch(ids);
      const results = await Promise.all(outgoing.map((item) => deliver(item, transports)));
      const touched = await recordOutcomes(
        { results, withdrawn, broken: broken.map((b) => ({ email: b.email, reason: describe(b.error) })) },
        delays,
      );
      await completeFinishedBroadcasts(touched);
    } finally {
      clearInterval(heartbeat);
    }
    return ids.length;
  }

  return { runOnce, close: () => transports.close() };
}
