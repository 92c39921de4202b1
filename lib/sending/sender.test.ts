import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTestOrg, type TestOrg } from "@/lib/testing/api";
import { seedSegment, sinkInbox, verifiedDomain } from "@/lib/testing/sending-fixtures";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { fanOut, startBroadcast } from "./fan-out";
import { pauseBroadcastIn } from "./pause-broadcast";
import { createSender } from "./sender";

let sink: SmtpSink;
let slow: SmtpSink;
let org: TestOrg;
beforeAll(async () => {
  sink = await startSmtpSink();
  slow = await startSmtpSink({ answerDelayMs: 300 });
  org = await createTestOrg();
  await verifiedDomain(org.organizationId, "engine.test");
});
afterAll(async () => {
  await sink.close();
  await slow.close();
});

const broadcastTo = async (segmentId: string, data: { inbox_id?: string } = {}) => {
  const broadcast = await db.broadcast.create({
    data: {
      organization_id: org.organizationId,
      name: "Engine",
      subject: "Hello {{first_name}}",
      from_email: "news@engine.test",
      html_content: "<p>Hello {{first_name}}</p>",
      segment_id: segmentId,
      sending_speed: "instant",
      status: "scheduled",
      scheduled_at: new Date(),
      ...data,
    },
  });
  return broadcast.id;
};

/** `count` contacts in a new segment, written set-based. */
async function bulkSegment(count: number, tag: string) {
  const segment = await db.segment.create({ data: { organization_id: org.organizationId, name: `Bulk ${tag}` } });
  await db.$executeRaw`
    WITH added AS (
      INSERT INTO contacts (organization_id, email)
      SELECT ${org.organizationId}::uuid, ${tag} || g || '@example.test' FROM generate_series(1, ${count}::int) g RETURNING id)
    INSERT INTO segment_contacts (segment_id, contact_id, organization_id) SELECT ${segment.id}::uuid, id, ${org.organizationId}::uuid FROM added`;
  return segment.id;
}

describe("the sender", () => {
  it("records outcomes while another transaction holds the broadcast's row: nothing waits for it, and it completes once the row is free", async () => {
    const { segmentId } = await seedSegment(
      org.organizationId,
      Array.from({ length: 12 }, (_, i) => ({ first_name: `Locked ${i}` })),
    );
    const id = await broadcastTo(segmentId);
    expect(await startBroadcast(id)).toBe("started");

    // A long transaction on the broadcast's row, as a fan-out chunk or a pause of 100 000 emails might hold.
    const holder = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await holder.connect();
    await holder.query("BEGIN");
    await holder.query("SELECT 1 FROM broadcasts WHERE id = $1 FOR UPDATE", [id]);
    const sender = createSender({ organizationId: org.organizationId, relayUrl: `smtp://${sink.host}:${sink.port}` });
    try {
      const sent = await Promise.race([sender.runOnce(), new Promise<string>((resolve) => setTimeout(() => resolve("blocked"), 20_000))]);
      expect(sent).toBe(12);
      expect(await db.email.count({ where: { broadcast_id: id, status: "sent" } })).toBe(12);
      // Counting and completing skipped the locked row.
      expect(await db.broadcast.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: "sending", sent_count: 0 });
    } finally {
      await holder.query("ROLLBACK");
      await holder.end();
    }
    // The sender comes back for it once the row is free, not leaving it to the housekeeping's next round.
    await expect.poll(async () => (await db.broadcast.findUniqueOrThrow({ where: { id } })).status, { timeout: 15_000 }).toBe("sent");
    expect(await db.broadcast.findUniqueOrThrow({ where: { id } })).toMatchObject({ sent_count: 12 });
    await sender.close();
  });

  it("stop() gives back, unsent and not counted as an attempt, the emails not yet handed to SMTP", async () => {
    const { segmentId, contacts } = await seedSegment(
      org.organizationId,
      Array.from({ length: 30 }, (_, i) => ({ first_name: `Slow ${i}` })),
    );
    const inbox = await sinkInbox(org.organizationId, slow);
    const id = await broadcastTo(segmentId, { inbox_id: inbox.id });
    expect(await startBroadcast(id)).toBe("started");
    const sender = createSender({ organizationId: org.organizationId, batchSize: 30 });
    expect(await sender.dispatchOnce()).toBe(30);
    await sender.stop();
    await sender.close();
    const rows = await db.email.findMany({ where: { broadcast_id: id } });
    const sent = rows.filter((r) => r.status === "sent");
    // Only what the inbox's five connections had taken went out.
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.length).toBeLessThanOrEqual(5);
    expect(slow.messages.filter((m) => contacts.some((c) => c.email === m.envelopeTo[0]))).toHaveLength(sent.length);
    const back = rows.filter((r) => r.status !== "sent");
    expect(back.every((r) => r.status === "queued" && r.attempts === 0)).toBe(true);
    // Given back: no claim is left on them.
    expect(await db.emailClaim.count({ where: { email_id: { in: back.map((r) => r.id) } } })).toBe(0);
    expect(await db.inbox.findUniqueOrThrow({ where: { id: inbox.id } })).toMatchObject({ daily_sent_count: sent.length });
  });

  it("explains emails whose worker stopped renewing their lease", async () => {
    const { segmentId } = await seedSegment(org.organizationId, [{ first_name: "Orphan" }]);
    const id = await broadcastTo(segmentId);
    await startBroadcast(id);
    const until = new Date(Date.now() + 1000);
    const emails = await db.email.findMany({ where: { broadcast_id: id }, select: { id: true } });
    await db.emailClaim.createMany({ data: emails.map((e) => ({ email_id: e.id, locked_until: until })) });
    const status = (await org.owner.api.get(`/v1/broadcasts/${id}/status`)).body;
    expect(status.reasons[0]).toMatchObject({ code: "RECOVERING", message: expect.stringContaining("stopped answering") });
    expect(new Date(status.reasons[0].resumes_at).getTime()).toBeGreaterThanOrEqual(until.getTime());
    // A live worker's lease (renewed every quarter lease) is not a reason.
    await db.emailClaim.updateMany({ where: { email_id: { in: emails.map((e) => e.id) } }, data: { locked_until: new Date(Date.now() + 60_000) } });
    const live = (await org.owner.api.get(`/v1/broadcasts/${id}/status`)).body;
    expect(live.reasons.map((r: { code: string }) => r.code)).not.toContain("RECOVERING");
  });
});

describe("the fan-out beside a pause", () => {
  it("leaves unclaimed the emails of a chunk written while the pause committed, and carries on after the resume without duplicates", async () => {
    const segmentId = await bulkSegment(1200, `chunky-${org.organizationId.slice(0, 8)}-`);
    const id = await broadcastTo(segmentId);
    await db.broadcast.update({ where: { id }, data: { status: "sending", started_at: new Date() } });

    // The pause takes the broadcast's row first and commits only once the chunk is waiting for
    // it at its end: the chunk's emails come after the pause, and wait with the broadcast's others.
    let fanning: Promise<unknown> = Promise.resolve();
    await db.$transaction(
      async (tx) => {
        expect(await pauseBroadcastIn(tx, org.organizationId, id, "manual")).toBe(true);
        fanning = fanOut(id);
        const waiting = async () =>
          (
            await db.$queryRaw<{ n: number }[]>`
            SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%UPDATE broadcasts SET total_recipients%'`
          )[0].n;
        await expect.poll(waiting, { timeout: 20_000 }).toBe(1);
      },
      { timeout: 30_000 },
    );
    expect(await fanning).toBe("started");
    const states = await db.email.groupBy({ by: ["status"], where: { broadcast_id: id }, _count: { _all: true } });
    expect(states).toEqual([{ status: "queued", _count: { _all: 200 } }]);
    expect(await db.broadcast.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: "paused", total_recipients: 200, fanned_out_at: null });

    expect((await org.owner.api.post(`/v1/broadcasts/${id}/resume`)).body.status).toBe("sending");
    expect(await startBroadcast(id)).toBe("started");
    const rows = await db.email.findMany({ where: { broadcast_id: id }, select: { contact_id: true, status: true } });
    expect(rows).toHaveLength(1200);
    expect(new Set(rows.map((r) => r.contact_id)).size).toBe(1200);
    expect(rows.every((r) => r.status === "queued")).toBe(true);
    expect(await db.broadcast.findUniqueOrThrow({ where: { id } })).toMatchObject({ total_recipients: 1200, fanned_out_at: expect.any(Date) });
    await db.broadcast.update({ where: { id }, data: { status: "cancelled" } });
  });
});
