import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, Prisma } from "@/lib/db";
import { createTestOrg, type TestOrg } from "@/lib/testing/api";
import { dispatchSequenceSteps } from "@/lib/sequences/dispatch";
import { activeAutomation, announceEvent, engineClock, settle } from "@/lib/testing/automation-fixtures";
import { createIsolatedDatabase, type IsolatedDatabase } from "@/lib/testing/isolated-database";
import { engineRowsRead } from "@/lib/testing/rows-read";
import { seedSegment, sinkInbox } from "@/lib/testing/sending-fixtures";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { organizationsAfterSql, organizationTurn } from "@/lib/db/organizations-in-turn";
import { claimDueEmails, dueWorkSql, RELAY_QUEUE } from "./claim";
import { startBroadcast } from "./fan-out";
import { hasDueSql, instantEmailsSql, nextPacedEmailSql } from "./inbox-queue";

const BACKLOG = 3_000;
const WAITING = 1_000;

describe("an inbox's queue read by the claim, beside a backlog of paced emails", () => {
  let database: IsolatedDatabase;
  let inbox: string;
  let other: string;
  let neighbour: string;
  let backlogOrg: string;

  // A database of its own that autovacuum leaves alone, so that what the planner knows is what the
  // test says: first statistics from before the backlog was written (as right after an automation's
  // runs woke), then statistics that have seen it (as once the writers or autovacuum have analyzed).
  beforeAll(async () => {
    database = await createIsolatedDatabase("inbox_queue");
    const client = database.db;
    await client.$executeRawUnsafe("ALTER TABLE emails SET (autovacuum_enabled = off)");
    // The backlog's organization after its neighbour in id order: the relay's turn skips through them in that order.
    const [first, second] = [randomUUID(), randomUUID()].sort();
    neighbour = first;
    const org = second;
    backlogOrg = org;
    await client.$executeRaw`INSERT INTO organizations (id, name) VALUES (${neighbour}::uuid, 'Neighbour'), (${org}::uuid, 'Backlog')`;
    const newInbox = async (organization: string, name: string) => {
      const [{ id }] = await client.$queryRaw<{ id: string }[]>`
        INSERT INTO inboxes (organization_id, name, from_email, smtp_host, smtp_port, sender_confirmed_at)
        VALUES (${organization}::uuid, ${name}, ${`${name}@backlog.test`}, '127.0.0.1', 2525, now()) RETURNING id`;
      return id;
    };
    inbox = await newInbox(org, "sales");
    other = await newInbox(neighbour, "support");
    const [{ id: broadcast }] = await client.$queryRaw<{ id: string }[]>`
      INSERT INTO broadcasts (organization_id, name, subject, from_email, inbox_id, sending_speed, status)
      VALUES (${org}::uuid, 'Slow', 'Slow', 'sales@backlog.test', ${inbox}::uuid, 'slow', 'sending') RETURNING id`;
    type Row = { organization?: string; inbox: string | null; automation?: boolean; broadcast?: string; nextAttempt?: string; paced: boolean };
    const emails = (count: number, row: Row) => client.$executeRaw`
      INSERT INTO emails (organization_id, message_id, from_email, to_email, subject, inbox_id, created_at,
        automation_id, broadcast_id, next_attempt_at, paced)
      SELECT ${row.organization ?? org}::uuid, '<' || gen_random_uuid() || '@backlog.test>', 'sales@backlog.test', 'r' || n || '@example.test', 'Hi',
        ${row.inbox}::uuid, now() - interval '1 day' + n * interval '1 second',
        CASE WHEN ${row.automation ?? false}::boolean THEN gen_random_uuid() END, ${row.broadcast ?? null}::uuid,
        now() + ${row.nextAttempt ?? null}::interval, ${row.paced}::boolean
      FROM generate_series(1, ${count}::int) n`;
    // The neighbour's work, through its inbox and the relay, seen by the statistics.
    await emails(50, { organization: neighbour, inbox: other, paced: false });
    await emails(50, { organization: neighbour, inbox: null, paced: false });
    await client.$executeRawUnsafe("ANALYZE emails");
    // An automation's runs woken at once: every one's email due now, through the inbox, paced.
    await emails(BACKLOG, { inbox, automation: true, paced: true });
    // A slow broadcast's emails waiting for their retry: queued, but for later.
    await emails(WAITING, { inbox, broadcast, nextAttempt: "1 hour", paced: true });
    // Then two transactional emails of the inbox.
    await emails(2, { inbox, paced: false });
  }, 180_000);
  afterAll(() => database?.drop());

  const now = Prisma.sql`now()`;
  const expectFewRead = async (statement: Prisma.Sql) => expect(await engineRowsRead(database.db, statement)).toBeLessThan(50);

  async function expectEachReadsFew() {
    // The instant emails: the two transactional ones, not the paced backlog nor the emails waiting for later.
    expect(await database.db.$queryRaw<{ id: string }[]>(instantEmailsSql(inbox, now, 10))).toHaveLength(2);
    await expectFewRead(instantEmailsSql(inbox, now, 10));

    // The next paced email: the backlog's oldest.
    const [next] = await database.db.$queryRaw<{ id: string }[]>(nextPacedEmailSql(inbox, now));
    const [oldest] = await database.db.$queryRaw<{ id: string }[]>`
      SELECT id FROM emails WHERE inbox_id = ${inbox}::uuid AND automation_id IS NOT NULL ORDER BY created_at LIMIT 1`;
    expect(next.id).toBe(oldest.id);
    await expectFewRead(nextPacedEmailSql(inbox, now));

    // Which inboxes have emails of each pace due (the claim's list of inboxes).
    for (const [id, pace] of [
      [inbox, "instant"],
      [inbox, "paced"],
      [other, "instant"],
      [other, "paced"],
    ] as const) {
      const has = Prisma.sql`SELECT ${hasDueSql(Prisma.sql`${id}::uuid`, pace, now)} AS due`;
      const [{ due }] = await database.db.$queryRaw<{ due: boolean }[]>(has);
      expect(due).toBe(id === inbox || pace === "instant");
      await expectFewRead(has);
    }

    // The organizations with relay emails (the claim's turn): the neighbour, found without walking the backlog's organization.
    const relay = organizationsAfterSql(RELAY_QUEUE, "00000000-0000-0000-0000-000000000000", 1000);
    expect((await database.db.$queryRaw<{ id: string }[]>(relay)).map((row) => row.id)).toEqual([neighbour]);
    await expectFewRead(relay);
    // And the round that wraps to the start after the neighbour was served, in the same one statement.
    const turn = organizationTurn(RELAY_QUEUE);
    turn.served([neighbour]);
    const wrapped = turn.sql(1000);
    expect((await database.db.$queryRaw<{ id: string }[]>(wrapped)).map((row) => row.id)).toEqual([neighbour]);
    await expectFewRead(wrapped);

    // What a claim asks before its transaction: the relay's organizations and whether any inbox has something to claim.
    for (const [organizationIds, relayOrgs] of [
      [undefined, [neighbour]],
      [[backlogOrg], []],
    ] as const) {
      const due = dueWorkSql({ batchSize: 20, leaseMs: 60_000, paceScale: 1, organizationIds: organizationIds && [...organizationIds] });
      const [answer] = await database.db.$queryRaw<{ relay_orgs: string[]; inbox_due: boolean }[]>(due);
      expect({ relay_orgs: answer.relay_orgs, inbox_due: answer.inbox_due }).toEqual({ relay_orgs: relayOrgs, inbox_due: true });
      await expectFewRead(due);
    }
  }

  it("reads only the emails it finds, with statistics from before the backlog", async () => {
    await expectEachReadsFew();
  });

  it("reads only the emails it finds, with statistics that have seen the backlog", async () => {
    await database.db.$executeRawUnsafe("ANALYZE emails");
    await expectEachReadsFew();
  });
});

describe("a claim round beside another organization's paced backlog", () => {
  let sink: SmtpSink;
  let busy: TestOrg;
  let neighbour: TestOrg;
  beforeAll(async () => {
    sink = await startSmtpSink({ parse: false });
    busy = await createTestOrg();
    neighbour = await createTestOrg();
  });
  afterAll(async () => {
    for (const org of [busy, neighbour]) {
      await db.$executeRaw`DELETE FROM email_claims WHERE email_id IN (SELECT id FROM emails WHERE organization_id = ${org.organizationId}::uuid)`;
      await db.$executeRaw`UPDATE emails SET status = 'cancelled' WHERE organization_id = ${org.organizationId}::uuid AND status = 'queued'`;
    }
    await sink.close();
  });

  const queue = (org: string, count: number, row: { inbox: string | null; paced: boolean; createdAgo: string; nextAttempt?: string }) => db.$executeRaw`
    INSERT INTO emails (organization_id, message_id, from_email, to_email, subject, inbox_id, automation_id, paced, created_at, next_attempt_at)
    SELECT ${org}::uuid, '<' || gen_random_uuid() || '@example.test>', 'sender@acme.test', 'r' || n || '@example.test', 'Hi', ${row.inbox}::uuid,
      CASE WHEN ${row.paced} THEN gen_random_uuid() END, ${row.paced}, now() - ${row.createdAgo}::interval + n * interval '1 millisecond',
      now() + ${row.nextAttempt ?? null}::interval
    FROM generate_series(1, ${count}::int) n`;

  it("claims the neighbour's transactional and relay emails and the backlog's next paced email together, the one due longest", async () => {
    const backlogInbox = await sinkInbox(busy.organizationId, sink);
    const neighbourInbox = await sinkInbox(neighbour.organizationId, sink);
    await queue(busy.organizationId, 2_000, { inbox: backlogInbox.id, paced: true, createdAgo: "1 hour" });
    // Retried: created last, but its retry time has come before any other was created. And one whose retry is still to come.
    await queue(busy.organizationId, 1, { inbox: backlogInbox.id, paced: true, createdAgo: "1 minute", nextAttempt: "-2 hours" });
    await queue(busy.organizationId, 1, { inbox: backlogInbox.id, paced: true, createdAgo: "3 hours", nextAttempt: "1 hour" });
    await queue(neighbour.organizationId, 3, { inbox: neighbourInbox.id, paced: false, createdAgo: "1 minute" });
    await queue(neighbour.organizationId, 3, { inbox: null, paced: false, createdAgo: "1 minute" });
    const [retried] = await db.$queryRaw<{ id: string }[]>`
      SELECT id FROM emails WHERE inbox_id = ${backlogInbox.id}::uuid AND next_attempt_at < now()`;

    const round = () => claimDueEmails({ batchSize: 20, leaseMs: 60_000, paceScale: 1, organizationIds: [busy.organizationId, neighbour.organizationId] });
    const claimed = await round();
    const of = (inbox: string | null) => claimed.filter((c) => c.inbox_id === inbox);
    expect(of(neighbourInbox.id)).toHaveLength(3);
    expect(of(null).map((c) => c.organization_id)).toEqual(Array.from({ length: 3 }, () => neighbour.organizationId));
    expect(of(backlogInbox.id).map((c) => c.id)).toEqual([retried.id]);
    expect(claimed).toHaveLength(7);

    // The inbox's pacing gap is drawn: the next round has nothing for anyone, the backlog notwithstanding.
    const paced = await db.inbox.findUniqueOrThrow({ where: { id: backlogInbox.id } });
    expect(paced.next_send_at!.getTime()).toBeGreaterThan(Date.now());
    expect(await round()).toEqual([]);
  });
});

describe("the writers of an inbox's emails", () => {
  let sink: SmtpSink;
  let org: TestOrg;
  beforeAll(async () => {
    sink = await startSmtpSink({ parse: false });
    org = await createTestOrg();
  });
  afterAll(async () => {
    await db.$executeRaw`UPDATE broadcasts SET status = 'cancelled' WHERE organization_id = ${org.organizationId}::uuid AND status = 'sending'`;
    await db.$executeRaw`UPDATE emails SET status = 'cancelled' WHERE organization_id = ${org.organizationId}::uuid AND status = 'queued'`;
    await sink.close();
  });

  const pacedOf = async (where: { broadcast_id?: string; sequence_position?: number; automation_id?: string; id?: string }) =>
    (await db.email.findMany({ where: { organization_id: org.organizationId, ...where }, select: { paced: true } })).map((e) => e.paced);

  it("mark paced what goes at the inbox's pace: broadcasts at any speed but instant, their follow-ups, automations", async () => {
    const organizationId = org.organizationId;
    const inbox = await sinkInbox(organizationId, sink);
    for (const speed of ["instant", "normal", null] as const) {
      const { segmentId } = await seedSegment(organizationId, [{}]);
      // The first emails (the fan-out), then a follow-up once the first is sent (the sequence's dispatch).
      const broadcast = await db.broadcast.create({
        data: {
          organization_id: organizationId,
          name: `At ${speed}`,
          subject: "Hello",
          from_email: inbox.from_email,
          inbox_id: inbox.id,
          html_content: "<p>Hello</p>",
          segment_id: segmentId,
          sending_speed: speed,
          status: "scheduled",
          scheduled_at: new Date(),
          steps: { create: [{ organization_id: organizationId, position: 1, delay_minutes: 0, html_content: "<p>Again</p>" }] },
        },
      });
      expect(await startBroadcast(broadcast.id)).toBe("started");
      expect(await pacedOf({ broadcast_id: broadcast.id, sequence_position: 0 })).toEqual([speed !== "instant"]);
      await db.email.updateMany({ where: { broadcast_id: broadcast.id }, data: { status: "sent", sent_at: new Date(Date.now() - 60_000) } });
      expect(await dispatchSequenceSteps({ organizationId })).toBe(1);
      expect(await pacedOf({ broadcast_id: broadcast.id, sequence_position: 1 })).toEqual([speed !== "instant"]);
    }

    const { contacts } = await seedSegment(organizationId, [{}]);
    const automation = await activeAutomation(org, {
      name: "Through the inbox",
      inbox_ids: [inbox.id],
      trigger: { type: "event", event: "asked" },
      steps: [{ type: "send_email", subject: "Hello", html_content: "<p>Hi</p>" }],
    });
    await announceEvent(organizationId, contacts[0].id, "asked");
    await settle(organizationId, engineClock());
    expect(await pacedOf({ automation_id: automation.id })).toEqual([true]);

    const email = await org.owner.api.post("/v1/emails", { to: "reader@example.test", subject: "Receipt", text: "Thanks", inbox_id: inbox.id });
    expect(email.status).toBe(201);
    expect(await pacedOf({ id: email.body.id })).toEqual([false]);
  });
});
