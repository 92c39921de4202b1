import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorResponse } from "@/lib/api/errors";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { seedBulkBroadcast } from "@/lib/testing/bulk-broadcast";
import { countDeliveries } from "@/lib/testing/deliveries";
import { startOwnCluster, type OwnCluster } from "@/lib/testing/own-cluster";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { startWorkerProcess, waitUntil, type WorkerProcess } from "@/lib/testing/worker-process";

const RECIPIENTS = 6_000;
const OUTAGES_MS = [10_000, 60_000];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the database stopped and started again mid-send (a cluster of the test's own)", () => {
  let cluster: OwnCluster;
  let db: PrismaClient;
  let sink: SmtpSink;
  let worker: WorkerProcess | undefined;

  beforeAll(async () => {
    cluster = await startOwnCluster("outage");
    db = new PrismaClient({
      adapter: new PrismaPg({ connectionString: cluster.url, max: 3 }, { onPoolError: () => undefined, onConnectionError: () => undefined }),
    });
    sink = await startSmtpSink({ parse: false });
  });
  afterAll(async () => {
    if (worker && worker.child.exitCode === null) worker.child.kill("SIGKILL");
    await db.$disconnect().catch(() => undefined);
    await sink.close();
    await cluster.destroy();
  });

  it("repeats nothing, loses nothing, and the same worker carries on by itself; the API answers 503 meanwhile", async () => {
    const { broadcastId, recipients } = await seedBulkBroadcast(db, cluster.url, sink, { recipients: RECIPIENTS, inboxes: 2 });
    worker = startWorkerProcess(cluster.url);
    const pid = worker.child.pid;
    const report: string[] = [];

    // The first outage while the fan-out is still creating email records, the second in full flow.
    const startAt = [20, Math.floor(RECIPIENTS * 0.4)];
    for (const [i, outageMs] of OUTAGES_MS.entries()) {
      try {
        await waitUntil(() => sink.messages.length >= startAt[i], 240_000, `${startAt[i]} emails received`);
      } catch (error) {
        throw new Error(`${(error as Error).message}\n${worker.output()}`);
      }
      const fanningOut = (await db.broadcast.findUniqueOrThrow({ where: { id: broadcastId } })).fanned_out_at === null;
      await cluster.stop();
      const down = sink.messages.length;
      const stoppedAt = Date.now();

      if (i === 0) {
        // What a request meets while the database is away: 503 with Retry-After, never a 500.
        const prismaError = await db.broadcast.count().catch((error: unknown) => error);
        const pool = new pg.Pool({ connectionString: cluster.url, connectionTimeoutMillis: 2000 });
        const pgError = await pool.query("SELECT 1").catch((error: unknown) => error);
        await pool.end();
        for (const error of [prismaError, pgError]) {
          const response = errorResponse(error);
          expect(response.status).toBe(503);
          expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
          expect(await response.json()).toEqual({ error: expect.any(String), code: "SERVICE_UNAVAILABLE" });
        }
      }

      await sleep(outageMs);
      const duringOutage = sink.messages.length - down;
      await cluster.start();
      const upAt = Date.now();
      await waitUntil(() => sink.messages.length > down + duringOutage, 120_000, "sending to resume after the outage");
      report.push(
        `${outageMs / 1000} s outage${fanningOut ? " during the fan-out" : ""}: ${duringOutage} emails accepted while it lasted (held in memory), ` +
          `sending again ${((Date.now() - upAt) / 1000).toFixed(1)} s after the database returned (${((Date.now() - stoppedAt) / 1000).toFixed(1)} s after it stopped)`,
      );
      expect(worker.child.exitCode).toBeNull();
    }

    const sent = async () => (await db.broadcast.findUniqueOrThrow({ where: { id: broadcastId } })).status === "sent";
    try {
      await waitUntil(sent, 300_000, "the broadcast to be sent");
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${worker.output()}`);
    }
    // The very process that was running before the outages: it was never restarted.
    expect(worker.child.exitCode).toBeNull();
    expect(worker.child.pid).toBe(pid);

    const count = countDeliveries(sink.messages, recipients);
    console.log(`[faults] database outages: ${report.join("; ")}; ${count.extra} repeated emails, ${count.missing.length} missing`);
    expect(count.missing).toEqual([]);
    expect(count.extra).toBe(0);
    const broadcast = await db.broadcast.findUniqueOrThrow({ where: { id: broadcastId } });
    expect(broadcast).toMatchObject({ status: "sent", total_recipients: RECIPIENTS, sent_count: RECIPIENTS });

    worker.child.kill("SIGTERM");
    expect((await worker.exited).code).toBe(0);
  });
});
