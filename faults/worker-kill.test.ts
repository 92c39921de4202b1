import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { supervise } from "@/scripts/supervise";
import { seedBulkBroadcast, type BulkBroadcast } from "@/lib/testing/bulk-broadcast";
import { countDeliveries } from "@/lib/testing/deliveries";
import { createIsolatedDatabase, type IsolatedDatabase } from "@/lib/testing/isolated-database";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { waitUntil } from "@/lib/testing/worker-process";

const RECIPIENTS = 20_000;
const KILLS = 5;
/** The figure: a SIGKILL repeats at most this many emails (sent through the relay, not yet recorded). */
const MOST_REPEATS_PER_KILL = 5;
const LEASE_MS = 10_000;
/** The figure: the dead worker's claims are taken over within lease + this of the kill. */
const TAKEOVER_MARGIN_MS = 2_000;
/** Emails the restarted worker sends at full speed before it is killed again. */
const SENT_BEFORE_KILL = 500;
/**
 * Recipients not yet reached when the wait for the next kill starts, at least: the 500, what a
 * second more brings at full speed and the claims of the worker then killed (~600), so it dies
 * mid-send. A restarted worker sends through the whole lease its predecessor's claims still run, at
 * up to ~1 100 emails/s on a quiet machine: a kill took ~10 000 emails, and the 20 000 ran out at the
 * third, whose wait for 500 more then never ended (the broadcast was sent). On a loaded machine the
 * first broadcast is enough.
 */
const LEFT_BEFORE_WAIT = 3_000;
/** Another tenant's broadcast, started when fewer than LEFT_BEFORE_WAIT are left. */
const TOP_UP = 10_000;

describe("the worker SIGKILLed at random points of a broadcast through the relay, restarted by its supervisor", () => {
  let database: IsolatedDatabase;
  let sink: SmtpSink;
  let supervisor: ReturnType<typeof supervise> | undefined;

  beforeAll(async () => {
    database = await createIsolatedDatabase("kill");
    sink = await startSmtpSink({ parse: false });
  });
  afterAll(async () => {
    await supervisor?.stop("SIGKILL");
    await sink.close();
    await database.drop();
  });

  /** Emails claimed right now, with their lease: what the worker holds. */
  const claims = async () =>
    new Map((await database.db.emailClaim.findMany({ select: { email_id: true, locked_until: true } })).map((c) => [c.email_id, c.locked_until.getTime()]));

  /** Until none of the claims the dead worker held is still its own: each released, or claimed anew (a new lease). */
  async function takeover(held: Map<string, number>, since: number): Promise<number> {
    for (;;) {
      const now = await claims();
      if ([...held].every(([id, lease]) => now.get(id) !== lease)) return Date.now() - since;
      if (Date.now() - since > 120_000) throw new Error("no takeover within 120 s");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it("loses nothing, repeats at most 5 emails per kill, and the restarted worker takes over within the lease", { timeout: 600_000 }, async () => {
    const broadcasts: BulkBroadcast[] = [await seedBulkBroadcast(database.db, database.url, sink, { recipients: RECIPIENTS, inboxes: 0 })];
    const recipients = () => broadcasts.flatMap((b) => b.recipients);
    const lines: string[] = [];
    supervisor = supervise(
      [
        {
          name: "worker",
          args: ["--import", "tsx", "worker/index.ts"],
          env: {
            ...process.env,
            DATABASE_URL: database.url,
            NODE_ENV: "test",
            SMTP_RELAY_URL: `smtp://${sink.host}:${sink.port}`,
            WORKER_LEASE_SECONDS: String(LEASE_MS / 1000),
            LOG_LEVEL: "error",
          },
        },
      ],
      { log: (line) => lines.push(line) },
    );
    const takeovers: number[] = [];
    const log: string[] = [];
    /** The error with the supervisor's and the test's log, and where the emails are: a wait that times out says whether anything was left to send. */
    const fail = async (error: unknown) => {
      const state = await database.db.$queryRaw<{ status: string; emails: number; claimed: number }[]>`
        SELECT e.status::text AS status, count(*)::int AS emails, count(c.email_id)::int AS claimed
        FROM emails e LEFT JOIN email_claims c ON c.email_id = e.id GROUP BY e.status`;
      const sending = await database.db.broadcast.findMany({ select: { status: true, fanned_out_at: true } });
      return new Error(
        `${(error as Error).message}\n${lines.join("\n")}\n${log.join("\n")}\n` +
          `${sink.messages.length} messages received; emails ${JSON.stringify(state)}; broadcasts ${JSON.stringify(sending)}`,
      );
    };
    /** Before a wait for SENT_BEFORE_KILL more emails: enough left to send that they come, and at full speed (LEFT_BEFORE_WAIT). */
    const topUp = async (kill: number) => {
      if (recipients().length - countDeliveries(sink.messages, recipients()).reached >= LEFT_BEFORE_WAIT) return;
      broadcasts.push(await seedBulkBroadcast(database.db, database.url, sink, { recipients: TOP_UP, inboxes: 0, prefix: `more${kill}-` }));
      log.push(`another tenant's broadcast of ${TOP_UP} before kill ${kill}`);
    };

    for (let kill = 0; kill < KILLS; kill++) {
      // The worker running now (the first, or the one its supervisor started after the last kill),
      // once it has sent a few hundred emails at full speed, at a random moment.
      await topUp(kill + 1);
      const from = sink.messages.length;
      try {
        await waitUntil(() => sink.messages.length >= from + SENT_BEFORE_KILL, 240_000, `${SENT_BEFORE_KILL} more emails`);
      } catch (error) {
        throw await fail(error);
      }
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 900));
      const pid = supervisor.pids().worker;
      expect(pid).toBeGreaterThan(0);
      process.kill(pid!, "SIGKILL");
      const killedAt = Date.now();
      const held = await claims();
      log.push(`kill ${kill + 1} at ${sink.messages.length} received, ${held.size} emails claimed`);
      takeovers.push(await takeover(held, killedAt).catch(async (error: unknown) => Promise.reject(await fail(error))));
    }

    const ids = broadcasts.map((b) => b.broadcastId);
    const sent = async () => (await database.db.broadcast.count({ where: { id: { in: ids }, status: "sent" } })) === ids.length;
    await waitUntil(sent, 300_000, "the broadcasts to be sent").catch(async (error: unknown) => Promise.reject(await fail(error)));
    await supervisor.stop("SIGTERM");

    const count = countDeliveries(sink.messages, recipients());
    console.log(
      `[faults] worker SIGKILL through the relay, restarted by its supervisor: ${KILLS} kills (${log.join("; ")}); ` +
        `${count.repeated} recipients got a repeat (${count.extra} extra messages, ${(count.extra / KILLS).toFixed(1)} per kill); ` +
        `the dead worker's emails taken over ${takeovers.map((ms) => (ms / 1000).toFixed(1)).join(", ")} s after each kill (lease ${LEASE_MS / 1000} s)`,
    );
    expect(count.missing).toEqual([]);
    expect(count.reached).toBe(recipients().length);
    expect(count.mixedMessageIds).toEqual([]);
    expect(count.extra).toBeLessThanOrEqual(KILLS * MOST_REPEATS_PER_KILL);
    // The acceptance figure: the restarted worker does not first wait a lease of its own contact.
    expect(Math.max(...takeovers)).toBeLessThanOrEqual(LEASE_MS + TAKEOVER_MARGIN_MS);

    for (const b of broadcasts) {
      const rows = await database.db.email.groupBy({ by: ["status"], where: { broadcast_id: b.broadcastId }, _count: { _all: true } });
      expect(rows).toEqual([{ status: "sent", _count: { _all: b.recipients.length } }]);
      const broadcast = await database.db.broadcast.findUniqueOrThrow({ where: { id: b.broadcastId } });
      expect(broadcast).toMatchObject({ status: "sent", total_recipients: b.recipients.length, sent_count: b.recipients.length });
    }
  });
});
