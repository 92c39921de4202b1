import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTestOrg } from "@/lib/testing/api";
import { seedSegment, sinkInbox } from "@/lib/testing/sending-fixtures";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { claimDueEmails } from "./claim";
import { startBroadcast } from "./fan-out";
import { releaseExpiredLeases, startLeaseKeeper } from "./leases";

let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink({ parse: false });
});
afterAll(() => sink.close());

/** An organization whose `count` emails a worker claimed and then died holding: their leases (1 ms) have run out. */
async function orphanedClaims(count: number) {
  const org = await createTestOrg();
  const inbox = await sinkInbox(org.organizationId, sink);
  const { segmentId } = await seedSegment(
    org.organizationId,
    Array.from({ length: count }, () => ({})),
  );
  const { id } = await db.broadcast.create({
    data: {
      organization_id: org.organizationId,
      name: "Orphans",
      subject: "Hello",
      from_email: inbox.from_email,
      inbox_id: inbox.id,
      html_content: "<p>Hello</p>",
      segment_id: segmentId,
      sending_speed: "instant",
      status: "scheduled",
      scheduled_at: new Date(),
    },
  });
  expect(await startBroadcast(id)).toBe("started");
  expect(await claimDueEmails({ batchSize: count, leaseMs: 1, paceScale: 1, organizationIds: [org.organizationId] })).toHaveLength(count);
  await new Promise((resolve) => setTimeout(resolve, 20));
  const claims = () => db.emailClaim.count({ where: { email_id: { in: emailIds } } });
  const emailIds = (await db.email.findMany({ where: { broadcast_id: id }, select: { id: true } })).map((e) => e.id);
  return { organizationId: org.organizationId, claims, emailIds, broadcastId: id };
}

describe("taking over a dead worker's claims", () => {
  it("a worker just started takes them over as soon as it reaches the database, without first waiting a lease of its own", async () => {
    const { organizationId, claims } = await orphanedClaims(3);
    // A minute's lease: the old rule (a lease of the new worker's own unbroken contact first) would hold them that long.
    const keeper = startLeaseKeeper({ leaseMs: 60_000, held: () => new Map(), organizationId });
    try {
      await expect.poll(claims, { timeout: 20_000 }).toBe(0);
    } finally {
      await keeper.stop();
    }
  });

  it("a worker that lost contact with the database takes over nothing until it has had a whole lease of contact again", async () => {
    const { organizationId, claims } = await orphanedClaims(2);
    const keeper = startLeaseKeeper({ leaseMs: 4_000, held: () => new Map(), organizationId });
    // As after an outage: its peers lost contact too, and get the lease to renew what they hold.
    keeper.noteFailure();
    try {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(await claims()).toBe(2);
      await expect.poll(claims, { timeout: 20_000 }).toBe(0);
    } finally {
      await keeper.stop();
    }
  });

  it("records as sent, never sends again, an email the relay had accepted when its worker died (its claim marked so)", async () => {
    const { organizationId, claims, emailIds, broadcastId } = await orphanedClaims(2);
    const [accepted, unsent] = emailIds;
    await db.emailClaim.update({
      where: { email_id: accepted },
      data: { accepted_at: new Date(Date.now() - 5_000), accepted_response: "250 2.0.0 Ok: queued as ABC", accepted_dsn: true },
    });
    expect(await releaseExpiredLeases(organizationId)).toBe(2);
    expect(await claims()).toBe(0);
    expect(await db.email.findUniqueOrThrow({ where: { id: accepted } })).toMatchObject({
      status: "sent",
      provider_message_id: "250 2.0.0 Ok: queued as ABC",
      attempts: 1,
      sent_at: expect.any(Date),
      // The relay was asked for a delivery report: the report counts it among the emails that can report one.
      dsn_requested: true,
    });
    // Its email.sent is recorded once, announced with it (lib/events), and dated when the relay took it.
    const [sent] = await db.event.findMany({ where: { organization_id: organizationId, email_id: accepted } });
    expect(sent).toMatchObject({ name: "email.sent", source: "sending" });
    expect(await db.event.count({ where: { organization_id: organizationId, email_id: accepted } })).toBe(1);
    expect(await db.eventOutbox.count({ where: { organization_id: organizationId, event_id: sent.id } })).toBe(1);
    expect(await db.email.findUniqueOrThrow({ where: { id: unsent } })).toMatchObject({ status: "queued", attempts: 0 });
    const deltas = await db.broadcastCounterDelta.aggregate({ where: { broadcast_id: broadcastId }, _sum: { sent_count: true } });
    expect(deltas._sum.sent_count).toBe(1);
  });

  it("releases nothing while the database has been up for less than a lease: nobody could renew while it was down", async () => {
    const { organizationId, claims } = await orphanedClaims(1);
    const [{ ms }] = await db.$queryRaw<{ ms: number }[]>`SELECT (extract(epoch FROM now() - pg_postmaster_start_time()) * 1000)::float8 AS ms`;
    // As if it had started a moment ago: its uptime is shorter than the lease asked for.
    expect(await releaseExpiredLeases(organizationId, { databaseUpForMs: ms + 60_000 })).toBe(0);
    expect(await claims()).toBe(1);
    expect(await releaseExpiredLeases(organizationId, { databaseUpForMs: Math.max(0, ms - 60_000) })).toBe(1);
    expect(await claims()).toBe(0);
  });
});
