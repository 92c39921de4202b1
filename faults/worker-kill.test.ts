import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedBulkBroadcast } from "@/lib/testing/bulk-broadcast";
import { countDeliveries } from "@/lib/testing/deliveries";
import { createIsolatedDatabase, type IsolatedDatabase } from "@/lib/testing/isolated-database";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { startWorkerProcess, waitUntil, type WorkerProcess } from "@/lib/testing/worker-process";

const RECIPIENTS = 5000;
const KILLS = 5;
// The target: a SIGKILL repeats at most this many emails (sent, not yet recorded).
const MOST_REPEATS_PER_KILL = 50;

describe("a worker SIGKILLed at random points, beside another that keeps running", () => {
  let database: IsolatedDatabase;
  let sink: SmtpSink;
  const started: WorkerProcess[] = [];

  beforeAll(async () => {
    database = await createIsolatedDatabase("kill");
    sink = await startSmtpSink({ parse: false });
  });
  afterAll(async () => {
    for (const worker of started) if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill("SIGKILL");
    await sink.close();
    await database.drop();
  });

  /** Emails claimed right now, with their lease: what a killed worker may have held. */
  const inFlight = async () =>
    new Map((await database.db.emailClaim.findMany({ select: { email_id: true, locked_until: true } })).map((c) => [c.email_id, c.locked_until.getTime()]));

  /** Until every email that was in flight at the kill has moved on (recorded, or taken over by another worker). */
  async function takeover(snapshot: Map<string, number | undefined>, since: number): Promise<number> {
    for (;;) {
      const now = await inFlight();
      if ([...snapshot].every(([id, lease]) => now.get(id) !== lease)) return Date.now() - since;
      if (Date.now() - since > 120_000) throw new Error("no takeover within 120 s");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it("repeats at most 50 emails per kill, loses none, and the other worker takes over within a lease", { timeout: 600_000 }, async () => {
    const { broadcastId, recipients } = await seedBulkBroadcast(database.db, database.url, sink, { recipients: RECIPIENTS, inboxes: 2 });
    const steady = startWorkerProcess(database.url);
    started.push(steady);
    const points = Array.from({ length: KILLS }, (_, i) => Math.floor(((i + 0.2 + Math.random() * 0.6) * (RECIPIENTS * 0.7)) / KILLS));
    const takeovers: Promise<number>[] = [];
    const log: string[] = [];

    for (const point of points) {
      const victim = startWorkerProcess(database.url);
      started.push(victim);
      try {
        // Killed once it has been sending for a moment (it has emails in flight).
        await waitUntil(() => sink.messages.length >= point && victim.output().includes("running"), 240_000, `${point} emails received`);
        await new Promise((resolve) => setTimeout(resolve, 300 + Math.random() * 700));
      } catch (error) {
        throw new Error(`${(error as Error).message}\n${victim.output()}\n---\n${steady.output()}`);
      }
      victim.child.kill("SIGKILL");
      const killedAt = Date.now();
      expect((await victim.exited).signal).toBe("SIGKILL");
      takeovers.push(inFlight().then((snapshot) => takeover(snapshot, killedAt)));
      log.push(`killed at ${sink.messages.length} received`);
    }

    const sent = async () => (await database.db.broadcast.findUniqueOrThrow({ where: { id: broadcastId } })).status === "sent";
    try {
      await waitUntil(sent, 300_000, "the broadcast to be sent");
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${log.join("\n")}\n${steady.output()}`);
    }
    const takeoverMs = await Promise.all(takeovers);
    steady.child.kill("SIGTERM");
    expect((await steady.exited).code).toBe(0);

    const count = countDeliveries(sink.messages, recipients);
    console.log(
      `[faults] worker SIGKILL: ${KILLS} kills (${log.join("; ")}); ${count.repeated} recipients got a repeat (${count.extra} extra messages, ` +
        `${(count.extra / KILLS).toFixed(1)} per kill); in-flight emails taken over ${takeoverMs.map((ms) => (ms / 1000).toFixed(1)).join(", ")} s after each kill`,
    );
    expect(count.missing).toEqual([]);
    expect(count.reached).toBe(RECIPIENTS);
    expect(count.mixedMessageIds).toEqual([]);
    expect(count.extra).toBeLessThanOrEqual(KILLS * MOST_REPEATS_PER_KILL);
    // Takeover waits for the lease (10 s by default) plus a release round: generous, as the machine may be loaded.
    expect(Math.max(...takeoverMs)).toBeLessThan(60_000);

    const rows = await database.db.email.groupBy({ by: ["status"], where: { broadcast_id: broadcastId }, _count: { _all: true } });
    expect(rows).toEqual([{ status: "sent", _count: { _all: RECIPIENTS } }]);
    const broadcast = await database.db.broadcast.findUniqueOrThrow({ where: { id: broadcastId } });
    expect(broadcast).toMatchObject({ status: "sent", total_recipients: RECIPIENTS, sent_count: RECIPIENTS });
  });
});
