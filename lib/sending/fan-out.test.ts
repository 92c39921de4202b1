import { generateKeyPairSync, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sealSecret } from "@/lib/crypto/secret-box";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { createTestOrg, type TestOrg } from "@/lib/testing/api";
import { drain, seedSegment, sinkInbox, verifiedDomain } from "@/lib/testing/sending-fixtures";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { completeFinishedBroadcasts } from "./complete-broadcasts";
import { startBroadcast, startOverdueBroadcasts } from "./fan-out";
import { createSender } from "./sender";
import { dispatchEventsOf } from "@/lib/testing/events";
import { documentedPayload } from "@/lib/testing/webhook-payloads";

let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(() => sink.close());

/** `count` contacts in a new segment, written set-based. */
async function seedBulkSegment(organizationId: string, count: number) {
  const segment = await db.segment.create({ data: { organization_id: organizationId, name: `Bulk ${randomUUID().slice(0, 8)}` } });
  const tag = randomUUID().slice(0, 8);
  await db.$executeRaw`
    WITH added AS (
      INSERT INTO contacts (organization_id, email)
      SELECT ${organizationId}::uuid, 'bulk' || g || '-' || ${tag} || '@example.test' FROM generate_series(1, ${count}::int) g
      RETURNING id)
    INSERT INTO segment_contacts (segment_id, contact_id, organization_id) SELECT ${segment.id}::uuid, id, ${organizationId}::uuid FROM added`;
  return { segmentId: segment.id };
}

const scheduledBroadcast = (organizationId: string, data: Partial<Prisma.BroadcastUncheckedCreateInput>) =>
  db.broadcast.create({
    data: {
      organization_id: organizationId,
      name: "Fan-out",
      subject: "Hello {{first_name|there}}",
      from_email: "news@acme.test",
      from_name: "Acme News",
      html_content: "<p>Hello {{first_name|there}}</p>",
      status: "scheduled",
      scheduled_at: new Date(),
      sending_speed: "instant",
      ...data,
    },
  });

describe("fan-out", () => {
  let org: TestOrg;
  beforeAll(async () => {
    org = await createTestOrg();
    await verifiedDomain(org.organizationId, "acme.test");
  });

  // decisions.md, "Consent": opt_out reaches everyone who did not leave the topic, opt_in only those who joined it.
  it.each([
    ["opt_out", ["In", "Silent"]],
    ["opt_in", ["In"]],
  ] as const)(
    "a broadcast to an %s topic reaches %j of a contact that joined it, one that said nothing and one that left it",
    async (default_subscription, expected) => {
      const topic = await db.topic.create({ data: { organization_id: org.organizationId, name: "Beta", default_subscription } });
      const { segmentId, contacts } = await seedSegment(org.organizationId, [{ first_name: "In" }, { first_name: "Silent" }, { first_name: "Out" }]);
      await db.contactTopic.createMany({
        data: [
          { organization_id: org.organizationId, contact_id: contacts[0].id, topic_id: topic.id, subscribed: true },
          { organization_id: org.organizationId, contact_id: contacts[2].id, topic_id: topic.id, subscribed: false },
        ],
      });
      const broadcast = await scheduledBroadcast(org.organizationId, { segment_id: segmentId, topic_id: topic.id });
      expect(await startBroadcast(broadcast.id)).toBe("started");
      const rows = await db.email.findMany({ where: { broadcast_id: broadcast.id } });
      const names = new Map(contacts.map((c) => [c.id, c.first_name]));
      expect(rows.map((r) => names.get(r.contact_id!)).sort()).toEqual(expected);
    },
  );

  it("never duplicates a recipient when it runs again, and gives each email a thread", async () => {
    const { segmentId } = await seedSegment(org.organizationId, [{}, {}, {}]);
    const broadcast = await scheduledBroadcast(org.organizationId, { segment_id: segmentId });
    expect(await startBroadcast(broadcast.id)).toBe("started");
    await db.broadcast.update({ where: { id: broadcast.id }, data: { status: "scheduled" } });
    expect(await startBroadcast(broadcast.id)).toBe("started");
    const rows = await db.email.findMany({ where: { broadcast_id: broadcast.id } });
    expect(rows).toHaveLength(3);
    expect((await db.broadcast.findUniqueOrThrow({ where: { id: broadcast.id } })).total_recipients).toBe(3);
    const threads = await db.thread.findMany({ where: { broadcast_id: broadcast.id } });
    expect(threads).toHaveLength(3);
    expect(new Set(rows.map((r) => r.thread_id))).toEqual(new Set(threads.map((t) => t.id)));
    expect(new Set(rows.map((r) => r.message_id)).size).toBe(3);
  });

  it("sends a broadcast without inboxes through the relay, from its verified domain, DKIM-signed", async () => {
    const { privateKey } = generateKeyPairSync("rsa", {
      modulusLength: 1024,
      privateKeyEncoding: { type: "pkcs8", format: "pem" },
      publicKeyEncoding: { type: "spki", format: "pem" },
    });
    await db.domain.updateMany({
      where: { organization_id: org.organizationId, name: "acme.test" },
      data: { dkim_selector: "mp7", dkim_private_key_encrypted: sealSecret(privateKey), dkim_verified_at: new Date() },
    });
    const { segmentId } = await seedSegment(org.organizationId, [{ first_name: "Relay", email: `relay-${randomUUID()}@example.test` }]);
    const broadcast = await scheduledBroadcast(org.organizationId, { segment_id: segmentId, reply_to: "answers@acme.test" });
    expect(await startBroadcast(broadcast.id)).toBe("started");
    const sender = createSender({ organizationId: org.organizationId, relayUrl: `smtp://${sink.host}:${sink.port}` });
    await drain(sender, org.organizationId);
    sender.close();
    const row = await db.email.findFirstOrThrow({ where: { broadcast_id: broadcast.id } });
    const mail = sink.messages.find((m) => m.messageId === row.message_id)!;
    expect(mail.parsed.from?.value[0]).toEqual({ name: "Acme News", address: "news@acme.test" });
    expect(mail.parsed.replyTo?.value[0].address).toBe("answers@acme.test");
    expect(mail.parsed.subject).toBe("Hello Relay");
    expect(mail.parsed.headerLines.some((h) => h.key === "list-unsubscribe-post")).toBe(true);
    expect(mail.user).toBeNull();
    const signature = mail.parsed.headerLines.find((h) => h.key === "dkim-signature")?.line ?? "";
    expect(signature).toMatch(/\bd=acme\.test;/);
    expect(signature).toMatch(/\bs=mp7;/);
    expect(signature).toMatch(/\bh=[^;]*From/i);
  });

  it("fails a relay broadcast whose domain is not verified, with the reason", async () => {
    const { segmentId } = await seedSegment(org.organizationId, [{}]);
    const broadcast = await scheduledBroadcast(org.organizationId, { segment_id: segmentId, from_email: "news@unverified.test" });
    expect(await startBroadcast(broadcast.id)).toBe("failed");
    const failed = await db.broadcast.findUniqueOrThrow({ where: { id: broadcast.id } });
    expect(failed).toMatchObject({ status: "failed", failure_reason: expect.stringContaining("unverified.test") });
    expect(await db.email.count({ where: { broadcast_id: broadcast.id } })).toBe(0);
  });

  it("fans out in chunks, keeping the rotation even across them", async () => {
    const inboxes = [];
    for (let i = 0; i < 3; i++) inboxes.push(await sinkInbox(org.organizationId, sink));
    const { segmentId } = await seedBulkSegment(org.organizationId, 451);
    const broadcast = await scheduledBroadcast(org.organizationId, { segment_id: segmentId, inbox_ids: inboxes.map((i) => i.id) });
    expect(await startBroadcast(broadcast.id)).toBe("started");
    const started = await db.broadcast.findUniqueOrThrow({ where: { id: broadcast.id } });
    expect(started).toMatchObject({ status: "sending", total_recipients: 451 });
    expect(started.fanned_out_at).toBeInstanceOf(Date);
    const shares = await db.email.groupBy({ by: ["inbox_id"], where: { broadcast_id: broadcast.id }, _count: { _all: true } });
    expect(shares.map((s) => s._count._all).sort()).toEqual([150, 150, 151]);
    expect(await db.email.count({ where: { broadcast_id: broadcast.id } })).toBe(451);
  });

  it("resumes a fan-out whose worker died half-way, without duplicates, and only then can the broadcast finish", async () => {
    const { segmentId } = await seedBulkSegment(org.organizationId, 300);
    const broadcast = await scheduledBroadcast(org.organizationId, { segment_id: segmentId });
    await startBroadcast(broadcast.id);
    // As if the worker had died after the first chunks: some rows exist, the fan-out is not marked done.
    const some = await db.email.findMany({ where: { broadcast_id: broadcast.id }, take: 120, select: { id: true } });
    await db.email.deleteMany({ where: { broadcast_id: broadcast.id, id: { notIn: some.map((e) => e.id) } } });
    await db.email.updateMany({ where: { broadcast_id: broadcast.id }, data: { status: "sent" } });
    await db.$executeRaw`UPDATE broadcasts SET fanned_out_at = NULL, total_recipients = 120, updated_at = now() - interval '1 hour' WHERE id = ${broadcast.id}::uuid`;
    expect(await completeFinishedBroadcasts([broadcast.id])).toBe(0);
    const status = (await org.owner.api.get(`/v1/broadcasts/${broadcast.id}/status`)).body;
    expect(status.reasons[0]).toMatchObject({ code: "PREPARING" });

    expect(await startOverdueBroadcasts({ organizationId: org.organizationId })).toBe(1);
    const rows = await db.email.findMany({ where: { broadcast_id: broadcast.id }, select: { contact_id: true } });
    expect(rows).toHaveLength(300);
    expect(new Set(rows.map((r) => r.contact_id)).size).toBe(300);
    expect(await db.broadcast.findUniqueOrThrow({ where: { id: broadcast.id } })).toMatchObject({ status: "sending", total_recipients: 300 });
  });

  it("starts an overdue broadcast whose start job was lost", async () => {
    const { segmentId } = await seedSegment(org.organizationId, [{}]);
    const broadcast = await scheduledBroadcast(org.organizationId, { segment_id: segmentId, scheduled_at: new Date(Date.now() - 5 * 60_000) });
    expect(await startOverdueBroadcasts({ organizationId: org.organizationId })).toBe(1);
    expect((await db.broadcast.findUniqueOrThrow({ where: { id: broadcast.id } })).status).toBe("sending");
  });
});

describe("sequence steps and completion", () => {
  it("renders a step's email as a threaded reply, and finishes only when every step is dispatched", async () => {
    const org = await createTestOrg();
    const inbox = await sinkInbox(org.organizationId, sink, { from_name: "Sales" });
    await db.webhook.create({
      data: { organization_id: org.organizationId, url: "https://hooks.example.test/in", events: ["email.sent", "broadcast.sent"], secret_encrypted: "x" },
    });
    const { segmentId, contacts } = await seedSegment(org.organizationId, [{ first_name: "Kim", email: `kim-${randomUUID()}@example.test` }]);
    const broadcast = await scheduledBroadcast(org.organizationId, {
      segment_id: segmentId,
      inbox_id: inbox.id,
      from_email: inbox.from_email,
      subject: "Intro",
    });
    const step = await db.sequenceStep.create({
      data: {
        organization_id: org.organizationId,
        broadcast_id: broadcast.id,
        position: 1,
        delay_minutes: 0,
        html_content: "<p>Following up, {{first_name}}</p>",
      },
    });
    expect(await startBroadcast(broadcast.id)).toBe("started");
    const sender = createSender({ organizationId: org.organizationId });
    await drain(sender, org.organizationId);
    const first = await db.email.findFirstOrThrow({ where: { broadcast_id: broadcast.id, sequence_position: 0 } });
    expect(first.status).toBe("sent");
    // The step is not dispatched yet: the broadcast is still sending, and says why.
    expect((await org.owner.api.get(`/v1/broadcasts/${broadcast.id}/status`)).body).toMatchObject({
      status: "sending",
      sending: false,
      reasons: [{ code: "WAITING_FOR_NEXT_STEP" }],
    });

    // What the step dispatcher (ENGINE-FLOWS) inserts for a sales-mode follow-up.
    const followUpId = randomUUID();
    await db.email.create({
      data: {
        id: followUpId,
        organization_id: org.organizationId,
        message_id: `<${followUpId}@${inbox.from_email.split("@")[1]}>`,
        from_email: first.from_email,
        from_name: first.from_name,
        to_email: first.to_email,
        subject: "Re: Intro {{first_name}}",
        broadcast_id: broadcast.id,
        step_id: step.id,
        sequence_position: 1,
        contact_id: contacts[0].id,
        inbox_id: inbox.id,
        thread_id: first.thread_id,
        parent_email_id: first.id,
        in_reply_to: first.message_id,
        references: [first.message_id],
      },
    });
    await db.sequenceStep.update({ where: { id: step.id }, data: { dispatched_at: new Date() } });
    await drain(sender, org.organizationId);
    sender.close();

    const mail = sink.messages.find((m) => m.messageId === `<${followUpId}@${inbox.from_email.split("@")[1]}>`)!;
    expect(mail.parsed.subject).toBe("Re: Intro Kim");
    expect(mail.parsed.inReplyTo).toBe(first.message_id);
    expect(mail.parsed.references).toBe(first.message_id);
    expect(mail.parsed.html).toContain("Following up, Kim");
    expect(mail.parsed.headerLines.some((h) => h.key === "list-unsubscribe")).toBe(true);

    const done = await db.broadcast.findUniqueOrThrow({ where: { id: broadcast.id } });
    expect(done).toMatchObject({ status: "sent", sent_count: 2, total_recipients: 1 });
    await dispatchEventsOf(org.organizationId);
    const deliveries = await db.webhookDelivery.findMany({ where: { organization_id: org.organizationId }, orderBy: { created_at: "asc" } });
    expect(deliveries.map((d) => d.event_type)).toEqual(["email.sent", "email.sent", "broadcast.sent"]);
    for (const delivery of deliveries) documentedPayload(delivery.payload);
    expect(deliveries[0].payload).toMatchObject({ type: "email.sent", data: { email_id: first.id, to: [first.to_email], broadcast_id: broadcast.id } });
    expect(deliveries[2].payload).toMatchObject({ type: "broadcast.sent", data: { broadcast_id: broadcast.id, sent_count: 2 } });
    expect(await completeFinishedBroadcasts([broadcast.id])).toBe(0);
  });
});
