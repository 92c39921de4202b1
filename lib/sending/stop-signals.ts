import type pg from "pg";
import type { Prisma } from "@/lib/db";
import { createListenClient } from "@/lib/db/connections";

const CHANNEL = "mailplatform_broadcast_stopped";

/** Tells every worker, when the transaction commits, that a broadcast stopped sending (paused or cancelled). */
export async function notifyBroadcastStopped(tx: Prisma.TransactionClient, broadcastId: string): Promise<void> {
  await tx.$queryRaw`SELECT pg_notify(${CHANNEL}, ${broadcastId})::text`;
}

/**
 * Hears those notifications on a connection of its own, so a worker gives back the emails it
 * holds for a paused or cancelled broadcast at once rather than at its next check. Reconnects
 * after the database went away; the periodic check covers whatever was said meanwhile.
 */
export function listenForStops(onStop: (broadcastId: string) => void): { close: () => Promise<void> } {
  let client: pg.Client | null = null;
  let closed = false;
  let retryMs = 500;
  let timer: NodeJS.Timeout | null = null;

  const connect = async () => {
    timer = null;
    if (closed) return;
    const next = createListenClient();
    next.on("notification", (message) => {
      if (message.channel === CHANNEL && message.payload) onStop(message.payload);
    });
    next.on("error", () => reconnect(next));
    next.on("end", () => reconnect(next));
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANNEL}`);
      client = next;
      retryMs = 500;
    } catch {
      reconnect(next);
    }
  };
  const reconnect = (failed: pg.Client) => {
    if (client === failed) client = null;
    void failed.end().catch(() => undefined);
    if (closed || timer) return;
    timer = setTimeout(() => void connect(), retryMs);
    timer.unref();
    retryMs = Math.min(10_000, retryMs * 2);
  };
  void connect();
  return {
    close: async () => {
      closed = true;
      if (timer) clearTimeout(timer);
      await client?.end().catch(() => undefined);
    },
  };
}
