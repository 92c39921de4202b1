import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { seedBulkBroadcast } from "@/lib/testing/bulk-broadcast";
import { countDeliveries } from "@/lib/testing/deliveries";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { startWorkerProcess, waitUntil, type WorkerProcess } from "@/lib/testing/worker-process";

const url = () => process.env.DATABASE_URL!;
const RECIPIENTS = 10_000;

describe("three workers on one database", () => {
  let sink: SmtpSink;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    sink = await startSmtpSink({ parse: false });
  });
  afterAll(async () => {
    for (const worker of workers) if (worker.child.exitCode === null) worker.child.kill("SIGKILL");
    await sink.close();
  });

  it("send one 10 000-recipient broadcast: every recipient exactly once", async () => {
    const started = Date.now();
    const { broadcastId, recipients } = await seedBulkBroadcast(db, url(), sink, { recipients: RECIPIENTS, inboxes: 3, prefix: "three" });
    workers.push(startWorkerProcess(url()), startWorkerProcess(url()), startWorkerProcess(url()));
    const done = async () => (await db.broadcast.findUniqueOrThrow({ where: { id: broadcastId } })).status === "sent";
    try {
      await waitUntil(done, 300_000, "the broadcast to be sent");
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${workers.map((w) => w.output()).join("\n---\n")}`);
    }
    const count = countDeliveries(sink.messages, recipients);
    console.log(
      `[faults] three workers: ${RECIPIENTS} recipients in ${((Date.now() - started) / 1000).toFixed(1)} s, ${count.extra} repeats, ${count.missing.length} missing`,
    );
    expect(count.missing).toEqual([]);
    expect(count.extra).toBe(0);
    expect(await db.broadcast.findUniqueOrThrow({ where: { id: broadcastId } })).toMatchObject({
      status: "sent",
      total_recipients: RECIPIENTS,
      sent_count: RECIPIENTS,
    });
    for (const worker of workers) worker.child.kill("SIGTERM");
    for (const worker of workers) expect((await worker.exited).code).toBe(0);
  });
});
