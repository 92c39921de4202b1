import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedBulkBroadcast } from "@/lib/testing/bulk-broadcast";
import { createIsolatedDatabase, type IsolatedDatabase } from "@/lib/testing/isolated-database";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { startWorkerProcess, waitUntil, type WorkerProcess } from "@/lib/testing/worker-process";

const RECIPIENTS = 5000;
// Emails one worker holds at most: 4 concurrent rounds of up to 100 (worker/tasks.ts, sender batch size).
const MOST_IN_FLIGHT = 4 * 100;
// Short leases, so a restarted worker takes over a killed one's emails within seconds.
const workerEnv = { WORKER_LEASE_SECONDS: "2" };

describe("crash safety", () => {
  let database: IsolatedDatabase;
  let sink: SmtpSink;
  const started: WorkerProcess[] = [];

  beforeAll(async () => {
    database = await createIsolatedDatabase("crash");
    sink = await startSmtpSink();
  });
  afterAll(async () => {
    for (const worker of started) if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill("SIGKILL");
    await sink.close();
    await database.drop();
  });

  it("a worker SIGKILLed again and again still delivers every email exactly once, repeats keeping their Message-ID", { timeout: 300_000 }, async () => {
    const { broadcastId, recipients } = await seedBulkBroadcast(database.db, database.url, sink, { recipients: RECIPIENTS, inboxes: 2 });
    const kills = 3 + Math.floor(Math.random() * 3);
    // Random points of the run, as counts of emails received, at least a few hundred apart.
    const points = Array.from({ length: kills }, (_, i) => Math.floor(((i + 0.2 + Math.random() * 0.6) * (RECIPIENTS * 0.9)) / kills));
    const log: string[] = [];

    for (const point of points) {
      const worker = startWorkerProcess(database.url, workerEnv);
      started.push(worker);
      try {
        await waitUntil(() => sink.messages.length >= point, 120_000, `${point} emails received`);
      } catch (error) {
        throw new Error(`${(error as Error).message}\n${worker.output()}`);
      }
      worker.child.kill("SIGKILL");
      const exit = await worker.exited;
      expect(exit.signal).toBe("SIGKILL");
      log.push(`killed at ${sink.messages.length} received (point ${point})`);
    }

    const last = startWorkerProcess(database.url, workerEnv);
    started.push(last);
    const sent = async () => (await database.db.broadcast.findUniqueOrThrow({ where: { id: broadcastId } })).status === "sent";
    try {
      await waitUntil(sent, 150_000, "the broadcast to be sent");
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${log.join("\n")}\n${last.output()}`);
    }
    last.child.kill("SIGTERM");
    expect((await last.exited).code).toBe(0);

    // Every recipient got the email; the only repeats are of emails in flight at a kill, with the same Message-ID.
    const byRecipient = new Map<string, string[]>();
    for (const mail of sink.messages) {
      expect(mail.envelopeTo).toHaveLength(1);
      byRecipient.set(mail.envelopeTo[0], [...(byRecipient.get(mail.envelopeTo[0]) ?? []), mail.messageId ?? "missing"]);
    }
    expect(byRecipient.size).toBe(RECIPIENTS);
    expect([...byRecipient.keys()].sort()).toEqual([...recipients].sort());
    const repeated = [...byRecipient.values()].filter((ids) => ids.length > 1);
    for (const ids of repeated) expect(new Set(ids).size).toBe(1);
    const extra = sink.messages.length - RECIPIENTS;
    expect(extra).toBeLessThanOrEqual(kills * MOST_IN_FLIGHT);

    const rows = await database.db.email.findMany({ where: { broadcast_id: broadcastId }, select: { to_email: true, message_id: true, status: true } });
    expect(rows).toHaveLength(RECIPIENTS);
    expect(rows.every((row) => row.status === "sent")).toBe(true);
    for (const row of rows) expect(byRecipient.get(row.to_email)?.[0]).toBe(row.message_id);
    const broadcast = await database.db.broadcast.findUniqueOrThrow({ where: { id: broadcastId } });
    expect(broadcast).toMatchObject({ status: "sent", total_recipients: RECIPIENTS, sent_count: RECIPIENTS });
    console.log(`crash test: ${kills} kills (${log.join("; ")}), ${repeated.length} recipients got a repeat, ${extra} extra messages`);
  });
});
