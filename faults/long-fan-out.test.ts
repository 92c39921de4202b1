import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { seedBulkBroadcast } from "@/lib/testing/bulk-broadcast";
import { countDeliveries } from "@/lib/testing/deliveries";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { startWorkerProcess, waitUntil, type WorkerProcess } from "@/lib/testing/worker-process";

const url = () => process.env.DATABASE_URL!;
const RECIPIENTS = 100_000;

describe("a 100 000-recipient fan-out beside sending, no fault at all", () => {
  let sink: SmtpSink;
  let worker: WorkerProcess;
  let broadcastId: string | undefined;

  beforeAll(async () => {
    sink = await startSmtpSink({ parse: false });
  });
  afterAll(async () => {
    if (worker?.child.exitCode === null) worker.child.kill("SIGKILL");
    await sink.close();
    // The ~85 000 emails left unsent would otherwise keep the next files' workers (which serve
    // every organization) busy failing against this closed sink.
    if (broadcastId) {
      await db.broadcast.update({ where: { id: broadcastId }, data: { status: "cancelled" } });
      await db.email.updateMany({ where: { broadcast_id: broadcastId, status: { in: ["queued", "scheduled"] } }, data: { status: "cancelled" } });
    }
  });

  it("sends nothing twice while the fan-out writes its chunks and outcomes are recorded beside it", async () => {
    // Default lease (10 s): a recording held up for longer than that would let the lease run out and repeat emails.
    const seeded = await seedBulkBroadcast(db, url(), sink, { recipients: RECIPIENTS, inboxes: 2, prefix: "long" });
    const { recipients } = seeded;
    broadcastId = seeded.broadcastId;
    const started = Date.now();
    worker = startWorkerProcess(url());
    const fannedOut = async () => (await db.broadcast.findUniqueOrThrow({ where: { id: broadcastId } })).fanned_out_at !== null;
    try {
      await waitUntil(fannedOut, 300_000, "the fan-out to finish");
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${worker.output()}`);
    }
    const fanOutMs = Date.now() - started;
    const sentDuringFanOut = sink.messages.length;
    // Then a while longer in full flow, and stop: what matters is that nothing went twice meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    worker.child.kill("SIGTERM");
    expect((await worker.exited).code).toBe(0);

    const count = countDeliveries(sink.messages, recipients);
    const sent = await db.email.count({ where: { broadcast_id: broadcastId, status: "sent" } });
    console.log(
      `[faults] long fan-out: ${RECIPIENTS} email records in ${(fanOutMs / 1000).toFixed(1)} s, ${sentDuringFanOut} sent meanwhile, ` +
        `${count.reached} by the stop; ${count.extra} repeats`,
    );
    expect(sentDuringFanOut).toBeGreaterThan(0);
    expect(count.extra).toBe(0);
    // Every email the sink accepted is recorded as sent, and only those.
    expect(sent).toBe(count.reached);
    expect(await db.email.count({ where: { broadcast_id: broadcastId } })).toBe(RECIPIENTS);
  });
});
