import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, Prisma } from "@/lib/db";
import { recordFeedback } from "@/lib/feedback/record-feedback";
import { createIsolatedDatabase, type IsolatedDatabase } from "@/lib/testing/isolated-database";
import { createTestOrg, type TestOrg } from "@/lib/testing/api";
import { seedSegment, verifiedDomain } from "@/lib/testing/sending-fixtures";
import { recordOpen } from "@/lib/tracking/record-open";
import { signOpenToken } from "@/lib/tracking/token";
import { cancelBatchSql, cancelEmailBatch, emailsLeftSql, readThroughIndexes, REQUEST_BATCH } from "./cancel-emails";
import { claimDueEmails } from "./claim";
import { fanOut } from "./fan-out";
import { prepareBatch } from "./prepare-batch";

let org: TestOrg;
beforeAll(async () => {
  org = await createTestOrg();
  await verifiedDomain(org.organizationId, "cancel.test");
});

const holders: pg.Client[] = [];
afterAll(async () => {
  for (const holder of holders) await holder.end().catch(() => undefined);
});

/** A sending broadcast through the relay with `sent` emails already out and `queued` still to go, written set-based. */
async function sendingBroadcast(sent: number, queued: number) {
  const b = await db.broadcast.create({
    data: {
      organization_id: org.organizationId,
      name: "Big",
      subject: "Hello",
      from_email: "news@cancel.test",
      html_content: "<p>Hello</p>",
      sending_speed: "instant",
      status: "sending",
      started_at: new Date(),
      fanned_out_at: new Date(),
      total_recipients: sent + queued,
    },
  });
  await db.$executeRaw`
    INSERT INTO emails (organization_id, message_id, from_email, to_email, subject, broadcast_id, status, sent_at)
    SELECT ${org.organizationId}::uuid, '<' || gen_random_uuid() || '@cancel.test>', 'news@cancel.test', 'person' || g || '@example.test', 'Hello',
      ${b.id}::uuid, CASE WHEN g <= ${sent}::int THEN 'sent'::"EmailStatus" ELSE 'queued'::"EmailStatus" END,
      CASE WHEN g <= ${sent}::int THEN now() END
    FROM generate_series(1, ${sent + queued}::int) g`;
  const emails = await db.email.findMany({ where: { broadcast_id: b.id }, orderBy: { to_email: "asc" }, select: { id: true, status: true } });
  return { id: b.id, sent: emails.filter((e) => e.status === "sent").map((e) => e.id), queued: emails.filter((e) => e.status === "queued").map((e) => e.id) };
}

/** A transaction of its own holding these emails' rows, as an outcome being written or a slow statement would. */
async function holdRows(ids: string[]) {
  const holder = new pg.Client({ connectionString: process.env.DATABASE_URL });
  holders.push(holder);
  await holder.connect();
  await holder.query("BEGIN");
  await holder.query("SELECT 1 FROM emails WHERE id = ANY($1::uuid[]) FOR UPDATE", [ids]);
  const [{ pid }] = (await holder.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows;
  return { pid, release: () => holder.query("ROLLBACK").then(() => holder.end()) };
}

/** Resolves once some statement waits for a lock `pid` holds, directly or behind one that does. */
async function blockedBehind(pid: number): Promise<string> {
  for (;;) {
    const [row] = await db.$queryRaw<{ query: string }[]>`
      WITH RECURSIVE chain AS (
        SELECT a.pid, a.query FROM pg_stat_activity a WHERE ${pid}::int = ANY(pg_blocking_pids(a.pid))
        UNION SELECT a.pid, a.query FROM pg_stat_activity a JOIN chain c ON c.pid = ANY(pg_blocking_pids(a.pid))
      ) SELECT query FROM chain LIMIT 1`;
    if (row) return `blocked: ${row.query.slice(0, 120)}`;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const statuses = async (broadcastId: string) =>
  Object.fromEntries(
    (await db.email.groupBy({ by: ["status"], where: { broadcast_id: broadcastId }, _count: { _all: true } })).map((g) => [g.status, g._count._all]),
  );

describe("cancelling a broadcast in batches", () => {
  it("commits the status at once, while the emails' rows are held; outcomes are recorded meanwhile; the sweep cancels the rest", async () => {
    const b = await sendingBroadcast(3, REQUEST_BATCH + 500);
    // One queued email's row held: the cancel of old, one UPDATE of every queued email under the
    // broadcast's row lock, waited for it, and every outcome of the broadcast waited behind that.
    const held = await holdRows([b.queued[0]]);

    const cancel = org.owner.api.post(`/v1/broadcasts/${b.id}/cancel`);
    expect(await Promise.race([cancel.then((r) => `answered ${r.status}`), blockedBehind(held.pid)])).toBe("answered 200");
    expect((await cancel).body).toMatchObject({ status: "cancelled" });
    // The request cancelled a first small batch; the rest waits for the sweep, and none of it is claimed.
    expect(await statuses(b.id)).toEqual({ sent: 3, cancelled: REQUEST_BATCH, queued: 500 });
    const claimed = await claimDueEmails({ batchSize: 100, leaseMs: 10_000, paceScale: 1, organizationIds: [org.organizationId] });
    expect(claimed.filter((c) => b.queued.includes(c.id))).toEqual([]);

    // Outcomes of the broadcast's sent emails, while its emails are still being cancelled.
    const outcomes = Promise.all([
      recordOpen(signOpenToken(b.sent[0]), { userAgent: "Mozilla/5.0 (Windows NT 10.0) Firefox/140.0", ip: "192.0.2.1" }),
      db.$transaction((tx) =>
        recordFeedback(tx, [{ emailId: b.sent[1], organizationId: org.organizationId, kind: "delivered", status: "2.0.0", diagnostic: null, source: "smtp" }]),
      ),
      cancelEmailBatch({ broadcastId: b.id }),
    ]);
    const [opened, , swept] = await Promise.race([outcomes, blockedBehind(held.pid).then((why) => Promise.reject(new Error(why)))]);
    expect(opened).toBe(true);
    expect(swept).toBe(499); // the held row is skipped, not waited for
    expect(await db.broadcast.findUniqueOrThrow({ where: { id: b.id } })).toMatchObject({ opened_count: 1, delivered_count: 1 });
    expect(await db.broadcastCancellation.count({ where: { broadcast_id: b.id } })).toBe(1);

    await held.release();
    expect(await cancelEmailBatch({ broadcastId: b.id })).toBe(1);
    expect(await statuses(b.id)).toEqual({ sent: 2, delivered: 1, cancelled: REQUEST_BATCH + 500 });
    expect(await db.broadcastCancellation.count({ where: { broadcast_id: b.id } })).toBe(0);
    expect(await cancelEmailBatch({ broadcastId: b.id })).toBe(0);
  });

  it("an email claimed before the cancel and read after it is given back, not sent", async () => {
    const b = await sendingBroadcast(0, 3);
    const claims = await claimDueEmails({ batchSize: 100, leaseMs: 10_000, paceScale: 1, organizationIds: [org.organizationId] });
    const claimed = claims.map((c) => c.id).filter((id) => b.queued.includes(id));
    expect(claimed.sort()).toEqual([...b.queued].sort());
    // The cancel's batches do not reach them before the sender reads them back.
    const held = await holdRows(b.queued);
    expect((await org.owner.api.post(`/v1/broadcasts/${b.id}/cancel`)).body.status).toBe("cancelled");
    await held.release();
    expect(await statuses(b.id)).toEqual({ queued: 3 });

    const prepared = await prepareBatch(claimed);
    expect(prepared.outgoing).toEqual([]);
    expect(prepared.stopped.map((e) => e.id).sort()).toEqual([...b.queued].sort());
    await db.emailClaim.deleteMany({ where: { email_id: { in: claims.map((c) => c.id) } } });
    expect(await cancelEmailBatch({ broadcastId: b.id })).toBe(3);
  });

  it("a fan-out chunk written while the cancel committed is cancelled too", async () => {
    const { segmentId } = await seedSegment(
      org.organizationId,
      Array.from({ length: 30 }, (_, i) => ({ first_name: `Chunk ${i}` })),
    );
    const b = await db.broadcast.create({
      data: {
        organization_id: org.organizationId,
        name: "Fanning",
        subject: "Hello",
        from_email: "news@cancel.test",
        html_content: "<p>Hello</p>",
        segment_id: segmentId,
        sending_speed: "instant",
        status: "sending",
        started_at: new Date(),
      },
    });
    // The cancel commits (and its batches find nothing yet) while the chunk waits for the
    // broadcast's row at its end: the chunk's emails were not there for the cancel to see.
    const holder = new pg.Client({ connectionString: process.env.DATABASE_URL });
    holders.push(holder);
    await holder.connect();
    await holder.query("BEGIN");
    await holder.query("SELECT 1 FROM broadcasts WHERE id = $1 FOR NO KEY UPDATE", [b.id]);
    const fanning = fanOut(b.id);
    await expect
      .poll(
        async () =>
          (
            await db.$queryRaw<{ n: number }[]>`
              SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'
                AND query LIKE '%UPDATE broadcasts SET total_recipients%'`
          )[0].n,
        { timeout: 20_000 },
      )
      .toBe(1);
    await holder.query("UPDATE broadcasts SET status = 'cancelled' WHERE id = $1", [b.id]);
    await holder.query("COMMIT");
    expect(await fanning).toBe("started");
    expect(await statuses(b.id)).toEqual({ queued: 30 });
    expect(await db.broadcastCancellation.count({ where: { broadcast_id: b.id } })).toBe(1);
    while ((await cancelEmailBatch({ broadcastId: b.id })) > 0);
    expect(await statuses(b.id)).toEqual({ cancelled: 30 });
    expect(await db.broadcastCancellation.count({ where: { broadcast_id: b.id } })).toBe(0);
  });

  it("deleting a broadcast whose cancel is still going ends it: no email is left queued without its broadcast", async () => {
    const b = await sendingBroadcast(1, REQUEST_BATCH + 10);
    expect((await org.owner.api.post(`/v1/broadcasts/${b.id}/cancel`)).body.status).toBe("cancelled");
    expect(await db.email.count({ where: { id: { in: b.queued }, status: "queued" } })).toBe(10);
    expect((await org.owner.api.delete(`/v1/broadcasts/${b.id}`)).status).toBe(200);
    expect(await db.email.count({ where: { id: { in: b.queued }, status: { not: "cancelled" } } })).toBe(0);
    expect(await db.broadcastCancellation.count({ where: { broadcast_id: b.id } })).toBe(0);
  });
});

type PlanNode = { "Relation Name"?: string; "Actual Rows": number; "Actual Loops": number; "Rows Removed by Filter"?: number; Plans?: PlanNode[] };
const planNodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(planNodes)];

describe("a cancel's batches, read through the indexes", () => {
  let database: IsolatedDatabase;
  let job: { broadcast_id: string; organization_id: string };
  const QUEUED = 5_000;

  // A database of its own that autovacuum leaves alone, with statistics that have seen the
  // broadcast's queued emails as most of the table (a million queued, cancelled at once).
  beforeAll(async () => {
    database = await createIsolatedDatabase("cancel_batches");
    const client = database.db;
    await client.$executeRawUnsafe("ALTER TABLE emails SET (autovacuum_enabled = off)");
    const organization = randomUUID();
    await client.$executeRaw`INSERT INTO organizations (id, name) VALUES (${organization}::uuid, 'Cancelling')`;
    const [{ id }] = await client.$queryRaw<{ id: string }[]>`
      INSERT INTO broadcasts (organization_id, name, subject, from_email, sending_speed, status)
      VALUES (${organization}::uuid, 'Big', 'Big', 'news@cancel.test', 'instant', 'cancelled') RETURNING id`;
    job = { broadcast_id: id, organization_id: organization };
    const emails = (count: number, broadcast: string | null, status: string) => client.$executeRaw`
      INSERT INTO emails (organization_id, message_id, from_email, to_email, subject, broadcast_id, status)
      SELECT ${organization}::uuid, '<' || gen_random_uuid() || '@cancel.test>', 'news@cancel.test', 'r' || n || '@example.test', 'Hi',
        ${broadcast}::uuid, ${status}::"EmailStatus"
      FROM generate_series(1, ${count}::int) n`;
    await emails(50, null, "sent");
    await emails(QUEUED, id, "queued");
    await client.$executeRawUnsafe("VACUUM ANALYZE emails");
  }, 180_000);
  afterAll(() => database?.drop());

  /** Runs `statement` as the batch does (its planner settings), answering how many rows of `emails` it read. */
  const rowsRead = (statement: Prisma.Sql) =>
    database.db.$transaction(async (tx) => {
      await readThroughIndexes(tx);
      const [row] = await tx.$queryRaw<{ "QUERY PLAN": [{ Plan: PlanNode }] }[]>(Prisma.sql`EXPLAIN (ANALYZE, FORMAT JSON) ${statement}`);
      return planNodes(row["QUERY PLAN"][0].Plan)
        .filter((node) => node["Relation Name"] === "emails")
        .reduce((sum, node) => sum + node["Actual Loops"] * (node["Actual Rows"] + (node["Rows Removed by Filter"] ?? 0)), 0);
    });
  const queuedLeft = async () =>
    (
      await database.db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM emails WHERE broadcast_id = ${job.broadcast_id}::uuid AND status = 'queued'`
    )[0].n;

  it("each batch reads what it cancels (picked, then updated by key), however many the batches before cancelled", async () => {
    // The request's batch, then the sweep's: each reads its emails twice (picked, then updated), nothing more.
    expect(await rowsRead(cancelBatchSql(job, REQUEST_BATCH))).toBeLessThanOrEqual(2 * REQUEST_BATCH);
    for (let batch = 0; batch < 4; batch++) expect(await rowsRead(cancelBatchSql(job, 1000))).toBeLessThanOrEqual(2 * 1000);
    expect(await queuedLeft()).toBe(QUEUED - REQUEST_BATCH - 4000);
    expect(await rowsRead(emailsLeftSql(job))).toBeLessThanOrEqual(1);
    expect(await rowsRead(cancelBatchSql(job, 1000))).toBeLessThanOrEqual(2 * (1000 - REQUEST_BATCH));
    expect(await queuedLeft()).toBe(0);
    // Nothing left: the check that ends the cancellation reads no email.
    expect(await rowsRead(emailsLeftSql(job))).toBe(0);
  });
});
