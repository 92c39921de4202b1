import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sealSecret } from "@/lib/crypto/secret-box";
import { createIsolatedDatabase, type IsolatedDatabase } from "@/lib/testing/isolated-database";
import { startWebhookReceiver } from "@/lib/testing/webhook-receiver";
import { startWorkerProcess, waitUntil, type WorkerProcess } from "@/lib/testing/worker-process";

const EVENTS = 10_000;
const KILLS = 3;

/** The database URL with a name for the worker's connections, so its locks can be told apart. */
const named = (url: string, name: string) => {
  const u = new URL(url);
  u.searchParams.set("application_name", name);
  return u.toString();
};

describe("a worker SIGKILLed in the middle of dispatching events", () => {
  let database: IsolatedDatabase;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let probe: pg.Client;
  const started: WorkerProcess[] = [];

  beforeAll(async () => {
    database = await createIsolatedDatabase("events_kill");
    receiver = await startWebhookReceiver();
    probe = new pg.Client({ connectionString: database.url });
    await probe.connect();
  });
  afterAll(async () => {
    for (const worker of started) if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill("SIGKILL");
    await probe?.end();
    await receiver?.close();
    await database?.drop();
  });

  /** Whether a connection of `name` holds announcements claimed (FOR UPDATE) in an open dispatch transaction. */
  const dispatching = async (name: string) =>
    (
      await probe.query(
        `SELECT 1 FROM pg_locks l JOIN pg_class c ON c.oid = l.relation JOIN pg_stat_activity a ON a.pid = l.pid
         WHERE c.relname = 'event_outbox' AND l.mode = 'RowShareLock' AND a.application_name = $1`,
        [name],
      )
    ).rowCount! > 0;

  /** At every committed state, each event is either still announced or has exactly one delivery. */
  async function invariant(organizationId: string) {
    const { rows } = await probe.query<{ waiting: number; delivered: number; deliveries: number }>(
      `SELECT (SELECT count(*)::int FROM event_outbox WHERE organization_id = $1) AS waiting,
              (SELECT count(DISTINCT event_id)::int FROM webhook_deliveries WHERE organization_id = $1) AS delivered,
              (SELECT count(*)::int FROM webhook_deliveries WHERE organization_id = $1) AS deliveries`,
      [organizationId],
    );
    return rows[0];
  }

  it("delivers every event to the webhook exactly once: no duplicate, none lost", { timeout: 600_000 }, async () => {
    const organizationId = (await database.db.organization.create({ data: { name: "Events kill" } })).id;
    await database.db.webhook.create({
      data: {
        organization_id: organizationId,
        url: receiver.url,
        events: ["broadcast.sent"],
        secret_encrypted: sealSecret("whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="),
      },
    });
    // Recorded and announced as recorders do (lib/events), set-based.
    await probe.query(
      `WITH recorded AS (
         INSERT INTO events (organization_id, name, source, occurred_at, payload)
         SELECT $1, 'broadcast.sent', 'broadcasts', now(), jsonb_build_object('n', n) FROM generate_series(1, $2::int) n
         RETURNING id, organization_id)
       INSERT INTO event_outbox (organization_id, event_id) SELECT organization_id, id FROM recorded`,
      [organizationId, EVENTS],
    );

    const kills: string[] = [];
    for (let i = 0; i < KILLS; i++) {
      const name = `victim-${i}`;
      const victim = startWorkerProcess(named(database.url, name));
      started.push(victim);
      // Killed once earlier rounds have committed deliveries, in the middle of a later one.
      const after = ((i + 1) * EVENTS) / (KILLS + 2);
      try {
        await waitUntil(async () => (await invariant(organizationId)).delivered >= after && (await dispatching(name)), 120_000, `${name} to be dispatching`);
      } catch (error) {
        throw new Error(`${(error as Error).message}\n${victim.output()}`);
      }
      victim.child.kill("SIGKILL");
      expect((await victim.exited).signal).toBe("SIGKILL");
      // Its transaction is rolled back with its connection: what it had claimed is announced again, whole.
      await waitUntil(async () => !(await dispatching(name)), 30_000, `${name}'s transaction to end`);
      const state = await invariant(organizationId);
      expect(state.deliveries).toBe(state.delivered);
      expect(state.waiting + state.delivered).toBe(EVENTS);
      expect(state.delivered).toBeGreaterThanOrEqual(after);
      kills.push(`${name} killed mid-dispatch with ${state.delivered} delivered, ${state.waiting} waiting`);
    }

    // A POST a kill cut short stays leased to its dead worker for deliver.ts's 300 s before it is
    // sent again. That wait is the delivery loop's (tested with it), not the outbox's: the leases
    // run out here at once, as if the clock had moved on, instead of the test sleeping through them.
    await probe.query("UPDATE webhook_deliveries SET next_attempt_at = now() WHERE organization_id = $1 AND status = 'pending' AND next_attempt_at > now()", [
      organizationId,
    ]);
    const steady = startWorkerProcess(named(database.url, "steady"));
    started.push(steady);
    const delivered = async () =>
      (await invariant(organizationId)).waiting === 0 &&
      (await database.db.webhookDelivery.count({ where: { organization_id: organizationId, status: { not: "succeeded" } } })) === 0;
    try {
      await waitUntil(delivered, 240_000, "every event to be delivered");
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${kills.join("\n")}\n${steady.output()}`);
    }
    steady.child.kill("SIGTERM");
    expect((await steady.exited).code).toBe(0);

    const state = await invariant(organizationId);
    expect(state).toEqual({ waiting: 0, delivered: EVENTS, deliveries: EVENTS });
    // Every delivery reached the receiver (a POST cut by a kill is sent again under the same webhook-id).
    const ids = new Set(receiver.received.map((r) => r.headers["webhook-id"]));
    expect(ids.size).toBe(EVENTS);
    const numbers = new Set(receiver.received.map((r) => (JSON.parse(r.body) as { data: { n: number } }).data.n));
    expect(numbers.size).toBe(EVENTS);
    console.log(`[faults] events: ${kills.join("; ")}; ${receiver.received.length} POSTs for ${EVENTS} deliveries`);
  });
});
