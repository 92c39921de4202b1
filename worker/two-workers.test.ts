import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedBulkBroadcast } from "@/lib/testing/bulk-broadcast";
import { createIsolatedDatabase, type IsolatedDatabase } from "@/lib/testing/isolated-database";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { startWorkerProcess, waitUntil, type WorkerProcess } from "@/lib/testing/worker-process";

describe("two workers on one database", () => {
  let database: IsolatedDatabase;
  let sink: SmtpSink;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    database = await createIsolatedDatabase("two_workers");
    sink = await startSmtpSink();
  });
  afterAll(async () => {
    for (const worker of workers) if (worker.child.exitCode === null) worker.child.kill("SIGKILL");
    await sink.close();
    await database.drop();
  });

  it("never send the same email twice", { timeout: 120_000 }, async () => {
    const { broadcastId, recipients } = await seedBulkBroadcast(database.db, database.url, sink, { recipients: 1500, inboxes: 3 });
    workers.push(startWorkerProcess(database.url), startWorkerProcess(database.url));
    const done = async () => (await database.db.broadcast.findUniqueOrThrow({ where: { id: broadcastId } })).status === "sent";
    try {
      await waitUntil(done, 90_000, "the broadcast to be sent");
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${workers.map((w) => w.output()).join("\n---\n")}`);
    }

    const perRecipient = new Map<string, number>();
    for (const mail of sink.messages) perRecipient.set(mail.envelopeTo[0], (perRecipient.get(mail.envelopeTo[0]) ?? 0) + 1);
    expect(sink.messages).toHaveLength(recipients.length);
    expect([...perRecipient.keys()].sort()).toEqual([...recipients].sort());
    expect([...perRecipient.values()].every((n) => n === 1)).toBe(true);
    const broadcast = await database.db.broadcast.findUniqueOrThrow({ where: { id: broadcastId } });
    expect(broadcast).toMatchObject({ status: "sent", total_recipients: 1500, sent_count: 1500 });

    // A graceful stop: both finish what they hold and exit cleanly.
    for (const worker of workers) worker.child.kill("SIGTERM");
    for (const worker of workers) expect((await worker.exited).code).toBe(0);
  });
});
