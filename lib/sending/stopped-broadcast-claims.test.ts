import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, Prisma } from "@/lib/db";
import { createTestOrg, type TestOrg } from "@/lib/testing/api";
import { createIsolatedDatabase, type IsolatedDatabase } from "@/lib/testing/isolated-database";
import { engineRowsRead } from "@/lib/testing/rows-read";
import { sinkInbox } from "@/lib/testing/sending-fixtures";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { claimDueEmails, dueWorkSql, relayClaimSql } from "./claim";
import { hasDueSql, instantEmailsSql, nextPacedEmailSql } from "./inbox-queue";
import { pauseBroadcastIn } from "./pause-broadcast";
import { releaseWaitingSql } from "./windows";

// A cancel commits the broadcast's status at once and leaves its queued emails to the sweep of
// cancel-emails.ts, a batch at a time: until it reaches them they are still queued, in the queue
// indexes the claim reads every round for every organization. A pause leaves them queued too, as
// long as it lasts.

const BACKLOG = 3_000;
const LEASE = { leaseMs: 60_000 };

describe("the claim's queries beside cancelled broadcasts' queued emails", () => {
  let database: IsolatedDatabase;
  // `busy`: cancelled broadcasts through its inboxes and the relay, beside work still to send;
  // `idle`: nothing but a cancelled broadcast's relay emails; `neighbour`: its own work.
  let idle: string;
  let busy: string;
  let neighbour: string;
  let sales: string;
  let drained: string;
  let transactional: string;
  let paced: string;
  let relayed: string[];

  // A database of its own that autovacuum leaves alone (as inbox-queue.test.ts): first statistics
  // from before the backlogs were written, then statistics that have seen them.
  beforeAll(async () => {
    database = await createIsolatedDatabase("cancelled_backlog");
    const client = database.db;
    await client.$executeRawUnsafe("ALTER TABLE emails SET (autovacuum_enabled = off)");
    [idle, busy, neighbour] = [randomUUID(), randomUUID(), randomUUID()].sort();
    await client.$executeRaw`INSERT INTO organizations (id, name) VALUES (${idle}::uuid, 'Idle'), (${busy}::uuid, 'Busy'), (${neighbour}::uuid, 'Neighbour')`;
    for (const org of [idle, busy, neighbour]) {
      await client.$executeRaw`INSERT INTO domains (organization_id, name, status, verification_token, verified_at)
        VALUES (${org}::uuid, 'backlog.test', 'verified', ${randomUUID()}, now())`;
    }
    const newInbox = async (organization: string, name: string) => {
      const [{ id }] = await client.$queryRaw<{ id: string }[]>`
        INSERT INTO inboxes (organization_id, name, from_email, smtp_host, smtp_port, sender_confirmed_at)
        VALUES (${organization}::uuid, ${name}, ${`${name}@backlog.test`}, '127.0.0.1', 2525, now()) RETURNING id`;
      return id;
    };
    sales = await newInbox(busy, "sales");
    drained = await newInbox(busy, "drained");
    const support = await newInbox(neighbour, "support");
    const broadcast = async (organization: string, status: string, inbox: string | null, speed: string) => {
      const [{ id }] = await client.$queryRaw<{ id: string }[]>`
        INSERT INTO broadcasts (organization_id, name, subject, from_email, inbox_id, sending_speed, status)
        VALUES (${organization}::uuid, 'News', 'News', 'news@backlog.test', ${inbox}::uuid, ${speed}::"SendingSpeed", ${status}::"BroadcastStatus")
        RETURNING id`;
      return id;
    };
    type Row = { organization: string; inbox: string | null; broadcast?: string; paced?: boolean; nextAttempt?: string };
    const emails = async (count: number, row: Row) =>
      (
        await client.$queryRaw<{ id: string }[]>`
          INSERT INTO emails (organization_id, message_id, from_email, to_email, subject, inbox_id, broadcast_id, paced, created_at, next_attempt_at)
          SELECT ${row.organization}::uuid, '<' || gen_random_uuid() || '@backlog.test>', 'news@backlog.test', 'r' || n || '@example.test', 'Hi',
            ${row.inbox}::uuid, ${row.broadcast ?? null}::uuid, ${row.paced ?? false}::boolean, now() - interval '1 day' + n * interval '1 second',
            now() + ${row.nextAttempt ?? null}::interval
          FROM generate_series(1, ${count}::int) n
          RETURNING id`
      ).map((r) => r.id);

    // Work to send, seen by the statistics.
    await emails(3, { organization: neighbour, inbox: support });
    await emails(3, { organization: neighbour, inbox: null });
    [transactional] = await emails(1, { organization: busy, inbox: sales });
    relayed = await emails(2, { organization: busy, inbox: null, broadcast: await broadcast(busy, "sending", null, "instant") });
    await client.$executeRawUnsafe("ANALYZE emails");
    // Then the cancelled broadcasts' emails, queued still: paced and instant through an inbox (fresh,
    // and some with a retry come), instant through the relay, for two organizations.
    const cancelledPaced = await broadcast(busy, "cancelled", sales, "slow");
    await emails(BACKLOG, { organization: busy, inbox: sales, broadcast: cancelledPaced, paced: true });
    await emails(BACKLOG / 10, { organization: busy, inbox: sales, broadcast: cancelledPaced, paced: true, nextAttempt: "-1 hour" });
    const cancelledInstant = await broadcast(busy, "cancelled", drained, "instant");
    await emails(BACKLOG, { organization: busy, inbox: drained, broadcast: cancelledInstant });
    await emails(BACKLOG / 10, { organization: busy, inbox: drained, broadcast: cancelledInstant, nextAttempt: "-1 hour" });
    await emails(BACKLOG, { organization: busy, inbox: null, broadcast: await broadcast(busy, "cancelled", null, "instant") });
    await emails(BACKLOG, { organization: idle, inbox: null, broadcast: await broadcast(idle, "cancelled", null, "instant") });
    // And a sending paced broadcast's one email, created after the cancelled backlog.
    [paced] = await emails(1, { organization: busy, inbox: sales, broadcast: await broadcast(busy, "sending", sales, "slow"), paced: true });
    await client.$executeRaw`UPDATE emails SET created_at = now() WHERE id = ${paced}::uuid`;
  }, 180_000);
  afterAll(() => database?.drop());

  const now = Prisma.sql`now()`;
  const few = 20;
  const query = <T>(statement: Prisma.Sql) => database.db.$queryRaw<T[]>(statement);
  const rowsRead = (statement: Prisma.Sql) => engineRowsRead(database.db, statement);

  async function expectEachReadsFew() {
    // An inbox's instant emails: the transactional one; none of the cancelled broadcasts'.
    expect((await query<{ id: string }>(instantEmailsSql(sales, now, 10))).map((r) => r.id)).toEqual([transactional]);
    expect(await rowsRead(instantEmailsSql(sales, now, 10))).toBeLessThan(few);
    expect(await query(instantEmailsSql(drained, now, 10))).toEqual([]);
    expect(await rowsRead(instantEmailsSql(drained, now, 10))).toBeLessThan(few);

    // An inbox's next paced email: the sending broadcast's, not the cancelled one's older ones.
    expect((await query<{ id: string }>(nextPacedEmailSql(sales, now))).map((r) => r.id)).toEqual([paced]);
    expect(await rowsRead(nextPacedEmailSql(sales, now))).toBeLessThan(few);

    // Which inboxes have something due: `drained` nothing, whatever its cancelled broadcast left queued.
    for (const [inbox, pace, due] of [
      [sales, "instant", true],
      [sales, "paced", true],
      [drained, "instant", false],
      [drained, "paced", false],
    ] as const) {
      const has = Prisma.sql`SELECT ${hasDueSql(Prisma.sql`${inbox}::uuid`, pace, now)} AS due`;
      expect(await query(has)).toEqual([{ due }]);
      expect(await rowsRead(has)).toBeLessThan(few);
    }

    // The relay's claim: the sending broadcast's two emails for `busy`, nothing for `idle`.
    expect(await rowsRead(relayClaimSql(LEASE, new Map([[busy, 10]])))).toBeLessThan(few);
    expect(await rowsRead(relayClaimSql(LEASE, new Map([[idle, 10]])))).toBeLessThan(few);

    // What a claim asks first: `idle` is not among the relay's organizations dealt a share.
    for (const [organizationIds, relayOrgs, inboxDue] of [
      [undefined, [busy, neighbour], true],
      [[idle], [], false],
    ] as const) {
      const due = dueWorkSql({ batchSize: 20, leaseMs: 60_000, paceScale: 1, organizationIds: organizationIds && [...organizationIds] });
      const [answer] = await query<{ relay_orgs: string[]; inbox_due: boolean }>(due);
      expect({ relay_orgs: answer.relay_orgs, inbox_due: answer.inbox_due }).toEqual({ relay_orgs: relayOrgs, inbox_due: inboxDue });
      expect(await rowsRead(due)).toBeLessThan(few);
    }
  }

  it("read only what they find, with statistics from before the backlogs", async () => {
    await expectEachReadsFew();
  });

  it("read only what they find, with statistics that have seen the backlogs", async () => {
    await database.db.$executeRawUnsafe("ANALYZE emails");
    await expectEachReadsFew();
    const claimed = await query<{ id: string }>(relayClaimSql(LEASE, new Map([[busy, 10]])));
    expect(claimed.map((r) => r.id).sort()).toEqual([...relayed].sort());
  });
});

describe("a claim round beside another organization's cancelled broadcasts", () => {
  let sink: SmtpSink;
  let cancelling: TestOrg;
  let neighbour: TestOrg;
  beforeAll(async () => {
    sink = await startSmtpSink({ parse: false });
    cancelling = await createTestOrg();
    neighbour = await createTestOrg();
  });
  afterAll(async () => {
    for (const org of [cancelling, neighbour]) {
      await db.$executeRaw`DELETE FROM email_claims WHERE email_id IN (SELECT id FROM emails WHERE organization_id = ${org.organizationId}::uuid)`;
      await db.$executeRaw`UPDATE emails SET status = 'cancelled' WHERE organization_id = ${org.organizationId}::uuid AND status = 'queued'`;
    }
    await sink.close();
  });

  const queue = (org: string, count: number, inbox: string | null, broadcast: string | null) => db.$executeRaw`
    INSERT INTO emails (organization_id, message_id, from_email, to_email, subject, inbox_id, broadcast_id, paced)
    SELECT ${org}::uuid, '<' || gen_random_uuid() || '@example.test>', 'sender@acme.test', 'r' || n || '@example.test', 'Hi', ${inbox}::uuid,
      ${broadcast}::uuid, ${broadcast !== null}
    FROM generate_series(1, ${count}::int) n`;

  it("deals the whole batch to the neighbour's transactional and relay emails, none to the cancelled ones", async () => {
    const cancelledInbox = await sinkInbox(cancelling.organizationId, sink);
    const neighbourInbox = await sinkInbox(neighbour.organizationId, sink);
    const cancelled = (inbox: string | null) =>
      db.broadcast.create({
        data: {
          organization_id: cancelling.organizationId,
          name: "Cancelled",
          subject: "Hi",
          from_email: "news@acme.test",
          inbox_id: inbox,
          status: "cancelled",
        },
      });
    await queue(cancelling.organizationId, 2_000, cancelledInbox.id, (await cancelled(cancelledInbox.id)).id);
    await queue(cancelling.organizationId, 2_000, null, (await cancelled(null)).id);
    await queue(neighbour.organizationId, 3, neighbourInbox.id, null);
    await queue(neighbour.organizationId, 3, null, null);

    // Before, the cancelling organization was dealt half the batch for its relay emails, and its claim found none.
    const claimed = await claimDueEmails({
      batchSize: 6,
      leaseMs: 60_000,
      paceScale: 1,
      organizationIds: [cancelling.organizationId, neighbour.organizationId],
    });
    expect(claimed.filter((c) => c.inbox_id === neighbourInbox.id)).toHaveLength(3);
    expect(claimed.filter((c) => c.inbox_id === null && c.organization_id === neighbour.organizationId)).toHaveLength(3);
    expect(claimed).toHaveLength(6);
  });
});

describe("a paused broadcast's queued emails, and queued emails another transaction holds", () => {
  let database: IsolatedDatabase;
  let org: string;
  let broadcast: string;
  let transactional: string[];

  beforeAll(async () => {
    database = await createIsolatedDatabase("pausing_broadcast");
    const client = database.db;
    await client.$executeRawUnsafe("ALTER TABLE emails SET (autovacuum_enabled = off)");
    org = randomUUID();
    await client.$executeRaw`INSERT INTO organizations (id, name) VALUES (${org}::uuid, 'Pausing')`;
    await client.$executeRaw`INSERT INTO domains (organization_id, name, status, verification_token, verified_at)
      VALUES (${org}::uuid, 'pausing.test', 'verified', ${randomUUID()}, now())`;
    [{ id: broadcast }] = await client.$queryRaw<{ id: string }[]>`
      INSERT INTO broadcasts (organization_id, name, subject, from_email, sending_speed, status)
      VALUES (${org}::uuid, 'News', 'News', 'news@pausing.test', 'instant', 'sending') RETURNING id`;
    const emails = async (count: number, broadcastId: string | null) =>
      (
        await client.$queryRaw<{ id: string }[]>`
          INSERT INTO emails (organization_id, message_id, from_email, to_email, subject, broadcast_id)
          SELECT ${org}::uuid, '<' || gen_random_uuid() || '@pausing.test>', 'news@pausing.test', 'r' || n || '@example.test', 'Hi', ${broadcastId}::uuid
          FROM generate_series(1, ${count}::int) n
          RETURNING id`
      ).map((r) => r.id);
    await emails(BACKLOG, broadcast);
    transactional = await emails(3, null);
    await client.$executeRawUnsafe("ANALYZE emails");
  }, 180_000);
  afterAll(() => database?.drop());

  const claim = () => relayClaimSql(LEASE, new Map([[org, 10]]));

  it("takes the organization's other emails beside ones another transaction holds, reading a few times its share", async () => {
    // Another transaction (a cancel's batch, an erasure) holding every queued email of the
    // sending broadcast, held open after its UPDATE.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const locking = new Promise<void>((resolve) => (locked = resolve));
    const holder = database.db.$transaction(
      async (tx) => {
        expect(await tx.$executeRaw`UPDATE emails SET updated_at = now() WHERE broadcast_id = ${broadcast}::uuid AND status = 'queued'`).toBe(BACKLOG);
        locked();
        await held;
      },
      { timeout: 60_000 },
    );
    await locking;
    try {
      expect(await engineRowsRead(database.db, claim())).toBeLessThan(100);
      const claimed = await database.db.$queryRaw<{ id: string }[]>(claim());
      expect(claimed.map((r) => r.id).sort()).toEqual([...transactional].sort());
    } finally {
      release();
      await holder;
    }
  });

  it("pausing changes the broadcast's row only: its emails stay queued, stepped over until it sends again", async () => {
    await database.db.$transaction((tx) => pauseBroadcastIn(tx, org, broadcast, "manual"));
    expect(await database.db.email.count({ where: { broadcast_id: broadcast, status: "queued" } })).toBe(BACKLOG);
    expect(await engineRowsRead(database.db, claim())).toBeLessThan(12);
    expect(await database.db.$queryRaw(claim())).toEqual([]);
    // Resumed (the service's last step; lib/services/broadcast-sending.ts), its emails are claimed again.
    await database.db.$executeRaw`UPDATE broadcasts SET status = 'sending' WHERE id = ${broadcast}::uuid`;
    const claimed = await database.db.$queryRaw<{ id: string }[]>(claim());
    expect(claimed).toHaveLength(10);
  });

  it("releases a sending broadcast's emails whose time came, stepping over a paused one's in one read", async () => {
    // The paused broadcast's emails, placed by windows.ts for an opening that has come meanwhile.
    await database.db.$executeRaw`UPDATE broadcasts SET status = 'paused' WHERE id = ${broadcast}::uuid`;
    const past = new Date(Date.now() - 60_000);
    await database.db.$executeRaw`UPDATE emails e SET status = 'scheduled', scheduled_at = ${past}, next_attempt_at = ${past}
      WHERE broadcast_id = ${broadcast}::uuid AND NOT EXISTS (SELECT 1 FROM email_claims c WHERE c.email_id = e.id)`;
    const [{ id: sending }] = await database.db.$queryRaw<{ id: string }[]>`
      INSERT INTO broadcasts (organization_id, name, subject, from_email, sending_speed, status)
      VALUES (${org}::uuid, 'Sequence', 'Hi', 'news@pausing.test', 'instant', 'sending') RETURNING id`;
    await database.db.$executeRaw`
      INSERT INTO emails (organization_id, message_id, from_email, to_email, subject, broadcast_id, status, scheduled_at, next_attempt_at)
      SELECT ${org}::uuid, '<' || gen_random_uuid() || '@pausing.test>', 'news@pausing.test', 's' || n || '@example.test', 'Hi', ${sending}::uuid,
        'scheduled', ${past}, ${past}
      FROM generate_series(1, 3) n`;
    await database.db.$executeRawUnsafe("ANALYZE emails");
    const release = releaseWaitingSql({ now: new Date() });
    expect(await engineRowsRead(database.db, release)).toBeLessThan(20);
    expect(await database.db.$executeRaw(release)).toBe(3);
    expect(await database.db.email.count({ where: { broadcast_id: sending, status: "queued" } })).toBe(3);
    expect(await database.db.email.count({ where: { broadcast_id: broadcast, status: "scheduled" } })).toBeGreaterThan(BACKLOG - 20);
  });
});
