import { randomBytes, randomUUID } from "node:crypto";
import nodemailer from "nodemailer";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sealSecret } from "@/lib/crypto/secret-box";
import { db } from "@/lib/db";
import { startBroadcast } from "@/lib/sending/fan-out";
import { createSender } from "@/lib/sending/sender";
import { addDomain } from "@/lib/services/domains";
import { createTestOrg } from "@/lib/testing/api";
import { rawArf, rawDsn } from "@/lib/testing/reports";
import { drain, seedSegment } from "@/lib/testing/sending-fixtures";
import { addContacts, addInbox, addSegment, addSentFirstEmail, addSequencedBroadcast } from "@/lib/testing/sequence-fixtures";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { startWebhookReceiver } from "@/lib/testing/webhook-receiver";
import { deliverWebhooks } from "@/lib/webhooks/deliver";
import { startInboundServer, type InboundServer } from "./inbound-server";
import { processFeedbackReports } from "./process-reports";
import { readReturnPath, returnPathAddress } from "./verp";
import { dispatchEventsOf } from "@/lib/testing/events";
import { documentedPayload } from "@/lib/testing/webhook-payloads";

let relay: SmtpSink;
let listener: InboundServer;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

beforeAll(async () => {
  relay = await startSmtpSink({ dsn: true });
  listener = await startInboundServer({ port: 0, host: "127.0.0.1" });
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await relay?.close();
  await listener?.close();
  await receiver?.close();
});

/** Delivers a report to the listener as a receiving system would: a null sender, one recipient. */
async function sendReport(to: string, raw: string) {
  const transport = nodemailer.createTransport({ host: "127.0.0.1", port: listener.port, secure: false, ignoreTLS: true });
  try {
    return await transport.sendMail({ envelope: { from: "", to }, raw });
  } finally {
    transport.close();
  }
}

/** Processes every stored report (every file's: they are real reports too) until none is left. */
async function processAll() {
  while ((await processFeedbackReports()) > 0);
}

type Org = { organizationId: string; domain: string; host: string };

async function orgWithDomain(): Promise<Org> {
  const { organizationId } = await createTestOrg();
  const domain = `d${randomUUID().slice(0, 8)}.example.com`;
  await addDomain(organizationId, domain, { verified: true });
  return { organizationId, domain, host: `bounces.${domain}` };
}

/** A sequence of one follow-up with its first email sent (from the org's domain) and the follow-up already queued. */
async function sentSequenceEmail(org: Org, name = "Kim") {
  const inbox = await addInbox(org.organizationId, { from_email: `sam@${org.domain}` });
  const people = await addContacts(org.organizationId, [name]);
  const contact = people[name];
  const broadcast = await addSequencedBroadcast({
    organizationId: org.organizationId,
    segmentId: await addSegment(org.organizationId, "S", [contact.id]),
    inboxId: inbox.id,
    steps: [{ delay_minutes: 60 }],
  });
  const first = await addSentFirstEmail(broadcast, contact, 5);
  await db.email.update({ where: { id: first.id }, data: { from_email: `sam@${org.domain}` } });
  const followUp = await db.email.create({
    data: {
      organization_id: org.organizationId,
      message_id: `<${randomUUID()}@${org.domain}>`,
      from_email: `sam@${org.domain}`,
      to_email: contact.email,
      subject: "Re: Quick question",
      broadcast_id: broadcast.id,
      step_id: broadcast.steps[0].id,
      sequence_position: 1,
      contact_id: contact.id,
      inbox_id: inbox.id,
      thread_id: first.thread_id,
      status: "queued",
      next_attempt_at: new Date(Date.now() + 60 * 60_000),
    },
  });
  await db.broadcast.update({ where: { id: broadcast.id }, data: { total_recipients: { increment: 1 } } });
  return { email: first, followUp, contact, broadcast, verp: returnPathAddress(first.id, org.host) };
}

async function addSignedWebhook(organizationId: string, events: string[]) {
  const secret = `whsec_${randomBytes(32).toString("base64")}`;
  await db.webhook.create({ data: { organization_id: organizationId, url: receiver.url, events, secret_encrypted: sealSecret(secret) } });
  return secret;
}

/** Sends the organization's queued webhooks to the receiver and answers the verified payloads. */
async function deliveredWebhooks(organizationId: string, secret: string) {
  receiver.received.length = 0;
  await dispatchEventsOf(organizationId);
  await deliverWebhooks({ organizationId });
  const verifier = new StandardWebhook(secret);
  return receiver.received.map(
    (r) => documentedPayload(verifier.verify(r.body, r.headers as Record<string, string>)) as { type: string; data: Record<string, unknown> },
  );
}

describe("the return path", () => {
  it("sends relay mail from a signed VERP address at the return path and asks the relay for DSNs", async () => {
    const org = await orgWithDomain();
    const { segmentId, contacts } = await seedSegment(org.organizationId, [{ first_name: "Vera" }]);
    const broadcast = await db.broadcast.create({
      data: {
        organization_id: org.organizationId,
        name: "VERP",
        subject: "Hi",
        from_email: `news@${org.domain}`,
        html_content: "<p>Hi</p>",
        status: "scheduled",
        scheduled_at: new Date(),
        sending_speed: "instant",
        segment_id: segmentId,
      },
    });
    expect(await startBroadcast(broadcast.id)).toBe("started");
    const sender = createSender({ organizationId: org.organizationId, relayUrl: `smtp://${relay.host}:${relay.port}` });
    await drain(sender, org.organizationId);
    sender.close();
    const email = await db.email.findFirstOrThrow({ where: { broadcast_id: broadcast.id } });
    const mail = relay.messages.find((m) => m.messageId === email.message_id)!;
    expect(mail.envelopeFrom).toMatch(new RegExp(`^b\\+[a-z2-7]{42}@bounces\\.${org.domain.replace(/\./g, "\\.")}$`));
    expect(readReturnPath(mail.envelopeFrom)).toEqual({ emailId: email.id, host: org.host });
    expect(mail.parsed.from?.value[0].address).toBe(`news@${org.domain}`);
    expect(mail.mailFromArgs).toMatchObject({ RET: "HDRS", ENVID: email.id });
    expect(mail.rcptArgs).toEqual([expect.objectContaining({ NOTIFY: "SUCCESS,FAILURE", ORCPT: `rfc822;${contacts[0].email}` })]);
    // A delivery report can come: the report counts this email among those that can report it.
    expect(email.dsn_requested).toBe(true);
  });

  it("notes that no delivery report can come from a relay that does not offer DSN", async () => {
    const plain = await startSmtpSink();
    try {
      const org = await orgWithDomain();
      const { segmentId } = await seedSegment(org.organizationId, [{ first_name: "Otto" }]);
      const broadcast = await db.broadcast.create({
        data: {
          organization_id: org.organizationId,
          name: "No DSN",
          subject: "Hi",
          from_email: `news@${org.domain}`,
          html_content: "<p>Hi</p>",
          status: "scheduled",
          scheduled_at: new Date(),
          sending_speed: "instant",
          segment_id: segmentId,
        },
      });
      await startBroadcast(broadcast.id);
      const sender = createSender({ organizationId: org.organizationId, relayUrl: `smtp://${plain.host}:${plain.port}` });
      await drain(sender, org.organizationId);
      sender.close();
      const email = await db.email.findFirstOrThrow({ where: { broadcast_id: broadcast.id } });
      expect(plain.messages.find((m) => m.messageId === email.message_id)?.rcptArgs[0]).not.toHaveProperty("NOTIFY");
      expect(email).toMatchObject({ status: "sent", dsn_requested: false });
    } finally {
      await plain.close();
    }
  });

  it("keeps the From address as envelope sender while the return path is not verified", async () => {
    const org = await orgWithDomain();
    await db.domain.updateMany({ where: { organization_id: org.organizationId }, data: { return_path_verified_at: null } });
    const { segmentId } = await seedSegment(org.organizationId, [{ first_name: "Nora" }]);
    const broadcast = await db.broadcast.create({
      data: {
        organization_id: org.organizationId,
        name: "Plain",
        subject: "Hi",
        from_email: `news@${org.domain}`,
        html_content: "<p>Hi</p>",
        status: "scheduled",
        scheduled_at: new Date(),
        sending_speed: "instant",
        segment_id: segmentId,
      },
    });
    await startBroadcast(broadcast.id);
    const sender = createSender({ organizationId: org.organizationId, relayUrl: `smtp://${relay.host}:${relay.port}` });
    await drain(sender, org.organizationId);
    sender.close();
    const email = await db.email.findFirstOrThrow({ where: { broadcast_id: broadcast.id } });
    const mail = relay.messages.find((m) => m.messageId === email.message_id)!;
    expect(mail.envelopeFrom).toBe(`news@${org.domain}`);
    expect(mail.mailFromArgs).not.toHaveProperty("ENVID");
    expect(email.dsn_requested).toBe(false);
  });
});

describe("reports by SMTP", () => {
  let org: Org;
  beforeEach(async () => {
    org = await orgWithDomain();
  });

  it("records a hard bounce: bounced, suppressed, out of every sequence, email.bounced signed", async () => {
    const secret = await addSignedWebhook(org.organizationId, ["email.bounced"]);
    const { email, followUp, contact, broadcast, verp } = await sentSequenceEmail(org);
    await sendReport(
      verp,
      rawDsn({
        to: verp,
        action: "failed",
        status: "5.1.1",
        diagnostic: "550 5.1.1 User unknown",
        finalRecipient: contact.email,
        originalMessageId: email.message_id,
      }),
    );
    await processAll();

    const row = await db.email.findUniqueOrThrow({ where: { id: email.id } });
    expect(row).toMatchObject({ status: "bounced", bounce_type: "hard", bounce_status: "5.1.1", bounce_diagnostic: "smtp; 550 5.1.1 User unknown" });
    expect(row.bounced_at).toBeInstanceOf(Date);
    expect(await db.suppression.findFirst({ where: { organization_id: org.organizationId, email: contact.email } })).toMatchObject({
      reason: "hard_bounce",
      email_id: email.id,
    });
    expect(await db.email.findUniqueOrThrow({ where: { id: followUp.id } })).toMatchObject({ status: "cancelled", last_error: "Left the sequence: bounced" });
    expect(await db.broadcast.findUniqueOrThrow({ where: { id: broadcast.id } })).toMatchObject({ bounced_count: 1, total_recipients: 1 });
    const [event] = await db.event.findMany({ where: { email_id: email.id, name: "email.bounced" } });
    expect(event.properties).toMatchObject({ bounce: { type: "hard", status: "5.1.1", source: "smtp" } });

    const hooks = await deliveredWebhooks(org.organizationId, secret);
    expect(hooks).toEqual([
      expect.objectContaining({
        type: "email.bounced",
        data: expect.objectContaining({
          email_id: email.id,
          bounce: { type: "hard", status: "5.1.1", message: "smtp; 550 5.1.1 User unknown", source: "smtp" },
        }),
      }),
    ]);
    const report = await db.feedbackReport.findFirstOrThrow({ where: { email_id: email.id } });
    expect(report).toMatchObject({ status: "processed", result: "hard_bounce", organization_id: org.organizationId, raw: null });
  });

  it("records a delivery once, however often it is reported", async () => {
    const secret = await addSignedWebhook(org.organizationId, ["email.delivered"]);
    const { email, contact, broadcast, verp } = await sentSequenceEmail(org);
    const report = rawDsn({ to: verp, action: "delivered", finalRecipient: contact.email, originalMessageId: email.message_id });
    await sendReport(verp, report);
    await sendReport(verp, report); // the same bytes again: stored once
    await sendReport(verp, rawDsn({ to: verp, action: "delivered", finalRecipient: contact.email })); // another report of the same event
    await processAll();
    const row = await db.email.findUniqueOrThrow({ where: { id: email.id } });
    expect(row.status).toBe("delivered");
    expect(row.delivered_at).toBeInstanceOf(Date);
    expect((await db.broadcast.findUniqueOrThrow({ where: { id: broadcast.id } })).delivered_count).toBe(1);
    expect(await db.event.count({ where: { email_id: email.id, name: "email.delivered" } })).toBe(1);
    const reports = await db.feedbackReport.findMany({ where: { email_id: email.id }, orderBy: { received_at: "asc" } });
    expect(reports.map((r) => r.result)).toEqual(["delivered", "delivered (already recorded)"]);
    const hooks = await deliveredWebhooks(org.organizationId, secret);
    expect(hooks.map((h) => h.type)).toEqual(["email.delivered"]);
  });

  it("suppresses an address after three soft bounces in a row, and a delivery resets the run", async () => {
    const people = await addContacts(org.organizationId, ["Sol"]);
    const address = people.Sol.email;
    const emails = await Promise.all(
      Array.from({ length: 5 }, async () => {
        const id = randomUUID();
        return db.email.create({
          data: {
            id,
            organization_id: org.organizationId,
            message_id: `<${id}@${org.domain}>`,
            from_email: `news@${org.domain}`,
            to_email: address,
            subject: "S",
            status: "sent",
            sent_at: new Date(),
            contact_id: people.Sol.id,
          },
        });
      }),
    );
    const soft = async (index: number) => {
      const verp = returnPathAddress(emails[index].id, org.host);
      await sendReport(verp, rawDsn({ to: verp, action: "delayed", status: "4.2.2", diagnostic: "452 4.2.2 Mailbox full", finalRecipient: address }));
      await processAll();
    };
    const suppressed = () => db.suppression.findFirst({ where: { organization_id: org.organizationId, email: address } });
    await soft(0);
    await soft(1);
    // A delivery in between: the run starts again.
    const verp = returnPathAddress(emails[2].id, org.host);
    await sendReport(verp, rawDsn({ to: verp, action: "delivered", finalRecipient: address }));
    await processAll();
    await soft(3);
    expect(await suppressed()).toBeNull();
    expect(await db.email.findUniqueOrThrow({ where: { id: emails[3].id } })).toMatchObject({
      status: "sent",
      bounce_type: "soft",
      bounce_status: "4.2.2",
      bounced_at: null,
    });
    await soft(4);
    expect(await suppressed()).toBeNull();
    // The same email's second soft report is not a second soft bounce in the run.
    await soft(4);
    expect(await suppressed()).toBeNull();
    await soft(1);
    expect(await suppressed()).toBeNull();
    const sixth = await db.email.create({
      data: {
        organization_id: org.organizationId,
        message_id: `<${randomUUID()}@${org.domain}>`,
        from_email: `news@${org.domain}`,
        to_email: address,
        subject: "S",
        status: "sent",
        sent_at: new Date(),
      },
    });
    const last = returnPathAddress(sixth.id, org.host);
    await sendReport(last, rawDsn({ to: last, action: "failed", status: "4.4.1", finalRecipient: address }));
    await processAll();
    expect(await suppressed()).toMatchObject({ reason: "soft_bounce", email_id: sixth.id });
  });

  it("records a complaint: complained, unsubscribed and suppressed, out of the sequence, both webhooks", async () => {
    const secret = await addSignedWebhook(org.organizationId, ["email.complained", "contact.unsubscribed"]);
    const { email, followUp, contact, broadcast, verp } = await sentSequenceEmail(org);
    // This follow-up waits for its window's opening (the bounce's test has one queued): it leaves too.
    const opening = new Date(Date.now() + 12 * 60 * 60_000);
    await db.email.update({ where: { id: followUp.id }, data: { status: "scheduled", scheduled_at: opening, next_attempt_at: opening } });
    await sendReport(verp, rawArf({ to: verp, recipient: contact.email, originalMessageId: email.message_id }));
    await processAll();
    const row = await db.email.findUniqueOrThrow({ where: { id: email.id } });
    expect(row.status).toBe("complained");
    expect(row.complained_at).toBeInstanceOf(Date);
    expect(await db.contact.findUniqueOrThrow({ where: { id: contact.id } })).toMatchObject({ subscribed: false, unsubscribed_at: expect.any(Date) });
    expect(await db.suppression.findFirst({ where: { organization_id: org.organizationId, email: contact.email } })).toMatchObject({
      reason: "complaint",
      email_id: email.id,
    });
    expect((await db.email.findUniqueOrThrow({ where: { id: followUp.id } })).status).toBe("cancelled");
    expect((await db.broadcast.findUniqueOrThrow({ where: { id: broadcast.id } })).complained_count).toBe(1);
    const hooks = await deliveredWebhooks(org.organizationId, secret);
    expect(hooks.map((h) => h.type).sort()).toEqual(["contact.unsubscribed", "email.complained"]);
    expect(hooks.find((h) => h.type === "contact.unsubscribed")!.data).toMatchObject({ contact_id: contact.id, email: contact.email, reason: "complaint" });
  });
});

describe("forged, hostile and malformed reports", () => {
  it("refuses at RCPT any address that is not a return-path token it made", async () => {
    const org = await orgWithDomain();
    const { email, contact } = await sentSequenceEmail(org);
    const verp = returnPathAddress(email.id, org.host);
    const altered = verp.replace(/@/, "").slice(0, 12) + (verp[12] === "a" ? "b" : "a") + verp.slice(13);
    const elsewhere = (await orgWithDomain()).host;
    for (const address of [
      `postmaster@${org.host}`,
      `someone@gmail.example`,
      `b+${"a".repeat(42)}@${org.host}`,
      altered,
      verp.replace(org.host, elsewhere), // a valid token moved to another organization's return path
      verp.toUpperCase().replace(/^B\+/, "c+"),
    ]) {
      await expect(
        sendReport(address, rawDsn({ to: address, action: "failed", finalRecipient: contact.email, originalMessageId: email.message_id })),
      ).rejects.toMatchObject({ responseCode: 550 });
    }
    // Case folded by a relay on the way is still the same token.
    await expect(sendReport(verp.toUpperCase(), rawDsn({ to: verp, action: "delayed", finalRecipient: contact.email }))).resolves.toBeTruthy();
    await processAll();
    expect(await db.email.findUniqueOrThrow({ where: { id: email.id } })).toMatchObject({ bounced_at: null, bounce_type: "soft" });
  });

  it("never changes another organization's email: the token decides, not the Message-ID the report quotes", async () => {
    const victim = await orgWithDomain();
    const attacker = await orgWithDomain();
    const theirs = await sentSequenceEmail(victim);
    const mine = await sentSequenceEmail(attacker, "Max");
    await sendReport(
      mine.verp,
      rawDsn({ to: mine.verp, action: "failed", status: "5.1.1", finalRecipient: theirs.contact.email, originalMessageId: theirs.email.message_id }),
    );
    await processAll();
    expect(await db.email.findUniqueOrThrow({ where: { id: theirs.email.id } })).toMatchObject({ status: "sent", bounced_at: null, bounce_type: null });
    expect(await db.suppression.count({ where: { organization_id: victim.organizationId } })).toBe(0);
    expect((await db.email.findUniqueOrThrow({ where: { id: mine.email.id } })).status).toBe("bounced");
  });

  it("discards what is not a report and refuses what is too big, changing nothing and staying up", async () => {
    const org = await orgWithDomain();
    const { email, contact, verp } = await sentSequenceEmail(org);
    const good = rawDsn({ to: verp, action: "failed", finalRecipient: contact.email, boundary: "B1" });
    await sendReport(verp, "From: spammer@example.net\r\nSubject: buy now\r\n\r\nhello\r\n");
    await sendReport(verp, good.replace('boundary="B1"', 'boundary="B2"'));
    await sendReport(verp, good.replace("message/delivery-status", "text/plain"));
    await sendReport(verp, good.slice(0, good.indexOf("Action:")));
    await expect(sendReport(verp, `X-Pad: ${"a".repeat(3 * 1024 * 1024)}\r\n${good}`)).rejects.toMatchObject({ responseCode: 552 });
    await processAll();
    const reports = await db.feedbackReport.findMany({ where: { recipient: verp } });
    expect(reports).toHaveLength(4);
    expect(reports.every((r) => r.status === "discarded" && r.result === "not a delivery status notification or feedback report" && r.raw === null)).toBe(true);
    expect(await db.email.findUniqueOrThrow({ where: { id: email.id } })).toMatchObject({
      status: "sent",
      bounced_at: null,
      bounce_type: null,
      delivered_at: null,
    });
    // Still answering.
    await expect(sendReport(verp, rawDsn({ to: verp, action: "delivered", finalRecipient: contact.email }))).resolves.toBeTruthy();
  });
});
