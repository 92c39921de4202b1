import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTestOrg, type TestOrg } from "@/lib/testing/api";
import { drain, sinkInbox } from "@/lib/testing/sending-fixtures";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { BREAKER_MIN_ATTEMPTS, tripBreakersForEmails, tripBroadcastBreakers } from "./breakers";
import { startBroadcast } from "./fan-out";
import { createSender } from "./sender";

let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(() => sink.close());

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A segment of `count` contacts at `domain`, written set-based. */
async function seedAudience(organizationId: string, count: number, domain: string): Promise<{ segmentId: string; emails: string[] }> {
  const segment = await db.segment.create({ data: { organization_id: organizationId, name: `Dead list ${domain}` } });
  await db.$executeRaw`
    INSERT INTO contacts (organization_id, email) SELECT ${organizationId}::uuid, 'dead' || n || '@' || ${domain} FROM generate_series(1, ${count}::int) n`;
  await db.$executeRaw`
    INSERT INTO segment_contacts (segment_id, contact_id, organization_id)
    SELECT ${segment.id}::uuid, id, organization_id FROM contacts WHERE organization_id = ${organizationId}::uuid AND email LIKE ${`%@${domain}`}`;
  return { segmentId: segment.id, emails: Array.from({ length: count }, (_, i) => `dead${i + 1}@${domain}`) };
}

/** Sends a broadcast from a sink inbox to a list every address of which the sink refuses with 550. */
async function sendToDeadList(org: TestOrg, count: number, domain: string) {
  // A daily limit far above the list, so only the breaker can stop it.
  const inbox = await sinkInbox(org.organizationId, sink, { daily_limit: 10_000 });
  const audience = await seedAudience(org.organizationId, count, domain);
  for (const email of audience.emails) sink.reject(email, 550);
  const created = await org.owner.api.post("/v1/broadcasts", {
    name: "Old list",
    subject: "Hello again",
    inbox_id: inbox.id,
    html_content: "<p>It has been a while.</p>",
    segment_id: audience.segmentId,
    sending_speed: "instant",
  });
  expect(created.status).toBe(201);
  const id: string = created.body.id;
  expect((await org.owner.api.post(`/v1/broadcasts/${id}/send`, {})).status).toBe(200);
  expect(await startBroadcast(id)).toBe("started");
  const sender = createSender({ organizationId: org.organizationId });
  try {
    await drain(sender, org.organizationId, { timeoutMs: 120_000 });
    // The breaker's verdict follows the recorded batch that crossed the line.
    await until(
      () => db.broadcast.findUniqueOrThrow({ where: { id } }),
      (b) => b.status !== "sending",
      "the broadcast to pause or finish",
    );
  } finally {
    await sender.close();
  }
  const attempts = audience.emails.reduce((sum, email) => sum + (sink.attempts.get(email) ?? 0), 0);
  return { id, attempts };
}

describe("the bounce-rate circuit breaker", () => {
  it("pauses a broadcast to 300 addresses that all refuse with 550 before its 300th attempt, and says why", { timeout: 180_000 }, async () => {
    const org = await createTestOrg();
    const { id, attempts } = await sendToDeadList(org, 300, "dead-list.test");
    console.info(`[breaker] paused after ${attempts} of 300 attempts`);

    expect(attempts).toBeGreaterThanOrEqual(BREAKER_MIN_ATTEMPTS);
    expect(attempts).toBeLessThan(300);
    const broadcast = await org.owner.api.get(`/v1/broadcasts/${id}`);
    expect(broadcast.body).toMatchObject({ status: "paused", paused_reason: "bounce_rate" });
    // Nothing waits claimed: the rest stays queued, not claimed, until a person decides.
    const [{ claims }] = await db.$queryRaw<{ claims: number }[]>`
      SELECT count(*)::int AS claims FROM email_claims c JOIN emails e ON e.id = c.email_id WHERE e.broadcast_id = ${id}::uuid`;
    expect(claims).toBe(0);
    expect(await db.email.count({ where: { broadcast_id: id, status: "sending" } })).toBe(0);
    expect(await db.email.count({ where: { broadcast_id: id, status: "queued" } })).toBe(300 - attempts);
    const status = await org.owner.api.get(`/v1/broadcasts/${id}/status`);
    expect(status.body.reasons[0].message).toMatch(/bounce/i);
  });

  it("follows the organization's own threshold", { timeout: 180_000 }, async () => {
    const org = await createTestOrg();
    const saved = await org.owner.api.put("/v1/organization", { bounce_pause_threshold: 1 });
    expect(saved.body).toMatchObject({ bounce_pause_threshold: 1, complaint_pause_threshold: 0.003 });
    const { id, attempts } = await sendToDeadList(org, 150, "very-dead-list.test");
    // At 100 % no rate passes the threshold: every address was tried.
    expect(attempts).toBe(150);
    expect((await db.broadcast.findUniqueOrThrow({ where: { id } })).paused_reason).toBeNull();
  });

  it("refuses a threshold outside (0, 1]", async () => {
    const org = await createTestOrg();
    for (const bad of [0, -0.1, 1.5, "5%"]) {
      expect((await org.owner.api.put("/v1/organization", { bounce_pause_threshold: bad })).status).toBe(400);
    }
  });
});

/** A broadcast already sending, with counters as the engine would have folded them. */
async function sendingBroadcast(org: TestOrg, counters: { sent_count: number; bounced_count?: number; complained_count?: number }) {
  return db.broadcast.create({
    data: {
      organization_id: org.organizationId,
      name: "Sending",
      subject: "Hi",
      from_email: "news@acme.test",
      html_content: "<p>Hi</p>",
      status: "sending",
      ...counters,
    },
  });
}

/** `count` complained emails of the broadcast from different recipients (or one, `sameRecipient`), counted as recordFeedback counts them. */
async function addComplaints(broadcast: { id: string; organization_id: string }, count: number, sameRecipient = false) {
  await db.$executeRaw`
    INSERT INTO emails (organization_id, broadcast_id, message_id, from_email, to_email, subject, status, sent_at, complained_at)
    SELECT ${broadcast.organization_id}::uuid, ${broadcast.id}::uuid, '<' || gen_random_uuid() || '@acme.test>', 'news@acme.test',
           CASE WHEN ${sameRecipient} THEN 'same@example.test' ELSE 'c-' || gen_random_uuid() || '@example.test' END, 'Hi', 'complained', now(), clock_timestamp()
    FROM generate_series(1, ${count}::int)`;
  await db.broadcast.update({ where: { id: broadcast.id }, data: { complained_count: { increment: count } } });
}

describe("the complaint-rate circuit breaker", () => {
  it("pauses past 0.3 % of complaints from at least five recipients, and after a resume judges only what is sent from there", async () => {
    const org = await createTestOrg();
    const calm = await sendingBroadcast(org, { sent_count: 2000 });
    await addComplaints(calm, 6);
    const angry = await sendingBroadcast(org, { sent_count: 2000 });
    await addComplaints(angry, 7);
    const young = await sendingBroadcast(org, { sent_count: 50 });
    await addComplaints(young, 5);
    // 4 of 150 is far past 0.3 %, but four people could be one attacker's mailboxes.
    const small = await sendingBroadcast(org, { sent_count: 150 });
    await addComplaints(small, 4);
    // Six complaints from one recipient (every step of a sequence) are one complainant.
    const repeated = await sendingBroadcast(org, { sent_count: 150 });
    await addComplaints(repeated, 6, true);
    expect(await tripBroadcastBreakers([calm.id, angry.id, young.id, small.id, repeated.id])).toEqual([angry.id]);
    expect((await org.owner.api.get(`/v1/broadcasts/${angry.id}`)).body).toMatchObject({ status: "paused", paused_reason: "complaint_rate" });
    await addComplaints(small, 1);
    expect(await tripBroadcastBreakers([small.id])).toEqual([small.id]);

    // Resumed by a person: the old complaints no longer count against it.
    expect((await org.owner.api.post(`/v1/broadcasts/${angry.id}/resume`)).body).toMatchObject({ status: "sending", paused_reason: null });
    expect(await tripBroadcastBreakers([angry.id])).toEqual([]);
    await db.broadcast.update({ where: { id: angry.id }, data: { sent_count: { increment: 200 } } });
    await addComplaints(angry, 4);
    expect(await tripBroadcastBreakers([angry.id])).toEqual([]);
    await addComplaints(angry, 1);
    expect(await tripBroadcastBreakers([angry.id])).toEqual([angry.id]);
  });

  it("never pauses another organization's broadcast or one that is not sending", async () => {
    const org = await createTestOrg();
    const draft = await db.broadcast.create({
      data: {
        organization_id: org.organizationId,
        name: "Draft",
        subject: "Hi",
        from_email: "news@acme.test",
        status: "draft",
        sent_count: 1000,
        complained_count: 900,
      },
    });
    expect(await tripBroadcastBreakers([draft.id])).toEqual([]);
  });
});

describe("the inbox circuit breaker", () => {
  it("pauses an inbox whose recent emails bounce, says why, and counts again from a resume", async () => {
    const org = await createTestOrg();
    const inbox = await sinkInbox(org.organizationId, sink);
    const add = async (status: "sent" | "bounced", count: number) => {
      await db.$executeRaw`
        INSERT INTO emails (organization_id, message_id, from_email, to_email, subject, inbox_id, status)
        SELECT ${org.organizationId}::uuid, '<' || gen_random_uuid() || '@acme.test>', 'anna@acme.test', 'r' || n || '@example.test', 'Hi', ${inbox.id}::uuid, ${status}::"EmailStatus"
        FROM generate_series(1, ${count}::int) n`;
      return db.email.findMany({ where: { organization_id: org.organizationId, inbox_id: inbox.id }, select: { id: true } });
    };
    await add("sent", 80);
    const emails = await add("bounced", 40);
    // 40 of 120 bounced: far past 5 %, through the path delivery reports take.
    await tripBreakersForEmails(emails.map((e) => ({ id: e.id, organizationId: org.organizationId })));
    const paused = await org.owner.api.get(`/v1/inboxes/${inbox.id}`);
    expect(paused.body).toMatchObject({ paused: true, paused_reason: "bounce_rate" });
    const why = await db.inbox.findUniqueOrThrow({ where: { id: inbox.id } });
    expect(why.paused_at).not.toBeNull();

    // A person resumes it: its old bounces stay behind it.
    expect((await org.owner.api.put(`/v1/inboxes/${inbox.id}`, { paused: false })).body).toMatchObject({ paused: false, paused_reason: null });
    await tripBreakersForEmails(emails.map((e) => ({ id: e.id, organizationId: org.organizationId })));
    expect((await db.inbox.findUniqueOrThrow({ where: { id: inbox.id } })).paused).toBe(false);

    // Paused by a person, it says so.
    expect((await org.owner.api.put(`/v1/inboxes/${inbox.id}`, { paused: true })).body).toMatchObject({ paused: true, paused_reason: "manual" });
  });
});
