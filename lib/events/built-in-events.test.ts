import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { processFeedbackReports, queueInboxReport } from "@/lib/feedback/process-reports";
import { recordRawReply } from "@/lib/replies/record-reply";
import { webhookEventTypes } from "@/lib/schemas/webhooks";
import { startBroadcast } from "@/lib/sending/fan-out";
import { createSender } from "@/lib/sending/sender";
import { unsubscribeByToken } from "@/lib/sending/unsubscribe";
import { unsubscribeToken } from "@/lib/sending/unsubscribe-token";
import { addDomain } from "@/lib/services/domains";
import { createTestOrg, type TestOrg } from "@/lib/testing/api";
import { dispatchEventsOf } from "@/lib/testing/events";
import { documentedPayload } from "@/lib/testing/webhook-payloads";
import { rawArf, rawDsn } from "@/lib/testing/reports";
import { drain, seedSegment, sinkInbox } from "@/lib/testing/sending-fixtures";
import { rawReply } from "@/lib/testing/sequence-fixtures";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { recordClick } from "@/lib/tracking/record-click";
import { recordOpen } from "@/lib/tracking/record-open";
import { signClickToken, signOpenToken } from "@/lib/tracking/token";
import { addTestWebhook } from "@/lib/testing/webhook-fixtures";

const LINK = "https://example.com/offer";
const READER = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15";
const person = { userAgent: READER, ip: "203.0.113.9" };

describe("every built-in fact is recorded once, by its recorder, as an event", () => {
  let sink: SmtpSink;
  let org: TestOrg;
  beforeAll(async () => {
    sink = await startSmtpSink();
    org = await createTestOrg();
    await addTestWebhook(org.organizationId, [...webhookEventTypes]);
  });
  afterAll(() => sink.close());

  const eventsOf = (where: { contact_id?: string; email_id?: string } = {}) =>
    db.event.findMany({ where: { organization_id: org.organizationId, ...where }, orderBy: [{ occurred_at: "asc" }, { id: "asc" }] });

  it("records contacts, sending, delivery reports, engagement, replies and unsubscriptions, each announced once", async () => {
    const tag = org.organizationId.slice(0, 8);
    const [reader, bouncer, complainer] = ["reader", "bouncer", "complainer"].map((name) => `${name}-${tag}@example.test`);
    sink.reject(bouncer, 550);

    // Contacts through the API: created, updated, unsubscribed.
    const created = await org.owner.api.post("/v1/contacts", { email: `api-${tag}@example.test` });
    await org.owner.api.put(`/v1/contacts/${created.body.id}`, { first_name: "Ada", tags: ["vip"], timezone: "Europe/Berlin" });
    await org.owner.api.put(`/v1/contacts/${created.body.id}`, { subscribed: false });
    await org.owner.api.put(`/v1/contacts/${created.body.id}`, { subscribed: true });
    expect((await eventsOf({ contact_id: created.body.id })).map((e) => [e.name, e.source, e.properties])).toEqual([
      ["contact.created", "contacts", {}],
      ["contact.updated", "contacts", { changed: ["first_name", "tags", "timezone"] }],
      ["contact.updated", "contacts", { changed: ["subscribed"] }],
      ["contact.unsubscribed", "contacts", { reason: "api" }],
      ["contact.updated", "contacts", { changed: ["subscribed"] }],
      ["contact.subscribed", "contacts", { reason: "api" }],
    ]);

    // A broadcast through a real SMTP server: sent, and a 550 bounced at once.
    const inbox = await sinkInbox(org.organizationId, sink);
    const { segmentId, contacts } = await seedSegment(org.organizationId, [{ email: reader }, { email: bouncer }, { email: complainer }]);
    const broadcast = await db.broadcast.create({
      data: {
        organization_id: org.organizationId,
        name: "Events",
        subject: "The offer",
        from_email: inbox.from_email,
        html_content: `<p>Hello</p><p><a href="${LINK}">See the offer</a></p>`,
        segment_id: segmentId,
        inbox_id: inbox.id,
        sending_speed: "instant",
        status: "scheduled",
        scheduled_at: new Date(),
      },
    });
    expect(await startBroadcast(broadcast.id)).toBe("started");
    const sender = createSender({ organizationId: org.organizationId });
    await drain(sender, org.organizationId);
    sender.close();
    const emails = await db.email.findMany({ where: { broadcast_id: broadcast.id } });
    const emailOf = (address: string) => emails.find((e) => e.to_email === address)!;
    const contactOf = (address: string) => contacts.find((c) => c.email === address)!;

    // Delivery reports found in the inbox: a DSN that it was delivered, an ARF complaint.
    await queueInboxReport(
      inbox,
      Buffer.from(rawDsn({ to: inbox.from_email, action: "delivered", finalRecipient: reader, originalMessageId: emailOf(reader).message_id })),
    );
    await queueInboxReport(inbox, Buffer.from(rawArf({ to: inbox.from_email, recipient: complainer, originalMessageId: emailOf(complainer).message_id })));
    await processFeedbackReports({ organizationId: org.organizationId });

    // The reader opens, clicks, replies and unsubscribes with the link.
    const readerEmail = emailOf(reader);
    expect(await recordOpen(signOpenToken(readerEmail.id), person)).toBe(true);
    expect(await recordClick(signClickToken(readerEmail.id, LINK), person)).toBe(LINK);
    const reply = rawReply({ from: reader, to: inbox.from_email, subject: "Re: The offer", inReplyTo: readerEmail.message_id });
    expect((await recordRawReply(inbox, reply)).result).toBe("stored");
    expect(await unsubscribeByToken(unsubscribeToken(readerEmail.id))).toBe(true);
    expect(await unsubscribeByToken(unsubscribeToken(readerEmail.id))).toBe(true); // a repeat records nothing

    const about = (address: string) => ({ contact_id: contactOf(address).id, email_id: emailOf(address).id, broadcast_id: broadcast.id });
    const shape = (e: { name: string; source: string; contact_id: string | null; email_id: string | null; broadcast_id: string | null; machine: boolean }) => ({
      name: e.name,
      source: e.source,
      contact_id: e.contact_id,
      email_id: e.email_id,
      broadcast_id: e.broadcast_id,
      machine: e.machine,
    });
    expect((await eventsOf({ email_id: readerEmail.id })).map(shape)).toEqual([
      { name: "email.sent", source: "sending", ...about(reader), machine: false },
      { name: "email.delivered", source: "feedback", ...about(reader), machine: false },
      { name: "email.opened", source: "tracking", ...about(reader), machine: false },
      { name: "email.clicked", source: "tracking", ...about(reader), machine: false },
      { name: "email.replied", source: "replies", ...about(reader), machine: false },
      { name: "contact.unsubscribed", source: "unsubscribe", ...about(reader), machine: false },
    ]);
    expect((await eventsOf({ email_id: emailOf(bouncer).id })).map(shape)).toEqual([
      { name: "email.bounced", source: "sending", ...about(bouncer), machine: false },
    ]);
    // The complaint and the unsubscription it causes are recorded by one statement, at one time.
    const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
    expect((await eventsOf({ email_id: emailOf(complainer).id })).map(shape).sort(byName)).toEqual([
      { name: "contact.unsubscribed", source: "feedback", ...about(complainer), machine: false },
      { name: "email.complained", source: "feedback", ...about(complainer), machine: false },
      { name: "email.sent", source: "sending", ...about(complainer), machine: false },
    ]);
    const [opened, clicked] = (await eventsOf({ email_id: readerEmail.id })).slice(2, 4);
    expect(opened.properties).toMatchObject({ first_open: true, machine: false });
    expect(clicked.properties).toMatchObject({ link: LINK, first_click: true, machine: false });

    // A machine's open is recorded, flagged.
    expect(await recordOpen(signOpenToken(emailOf(complainer).id), { userAgent: null, ip: null })).toBe(true);
    expect((await eventsOf({ email_id: emailOf(complainer).id })).at(-1)).toMatchObject({ name: "email.opened", machine: true });

    // Every event announced, and each of a webhook event type delivered to the webhook exactly once.
    await dispatchEventsOf(org.organizationId);
    const all = await eventsOf();
    const deliveries = await db.webhookDelivery.findMany({ where: { organization_id: org.organizationId } });
    expect(await db.eventOutbox.count({ where: { organization_id: org.organizationId } })).toBe(0);
    // Every built-in event this walk records is a webhook event type (contact.subscribed too).
    const announced = all.filter((e) => (webhookEventTypes as readonly string[]).includes(e.name));
    expect(all.map((e) => e.name).filter((name) => !announced.some((e) => e.name === name))).toEqual([]);
    expect(deliveries.map((d) => d.event_id).sort()).toEqual(announced.map((e) => e.id).sort());
    // Each payload is the one its type documents (lib/schemas/webhook-events.ts), field for field.
    for (const delivery of deliveries) documentedPayload(delivery.payload);
    const clickDelivery = deliveries.find((d) => d.event_id === clicked.id)!;
    expect(clickDelivery.payload).toMatchObject({
      type: "email.clicked",
      data: {
        email_id: readerEmail.id,
        contact_id: contactOf(reader).id,
        broadcast_id: broadcast.id,
        to: [reader],
        subject: "The offer",
        link: LINK,
        first_click: true,
      },
    });
  });

  it("records contact.created and contact.updated for every row of an import, in one statement", async () => {
    const { body: existing } = await org.owner.api.post("/v1/contacts", { email: "kept@import.test" });
    const csv = "email,first_name\nkept@import.test,Kept\nnew1@import.test,N1\nnew2@import.test,N2\n";
    const result = await org.owner.api.post("/v1/contacts/import", {
      file_content: Buffer.from(csv).toString("base64"),
      column_mappings: [
        { csv_column: "email", property_name: "email" },
        { csv_column: "first_name", property_name: "first_name" },
      ],
      handle_missing: "create",
    });
    expect(result.body).toMatchObject({ created: 2, updated: 1 });
    const imported = await db.event.findMany({ where: { organization_id: org.organizationId, source: "import" } });
    const byContact = new Map(imported.map((e) => [e.contact_id, e.name]));
    expect(imported).toHaveLength(3);
    expect(byContact.get(existing.id)).toBe("contact.updated");
    const fresh = await db.contact.findMany({ where: { organization_id: org.organizationId, email: { in: ["new1@import.test", "new2@import.test"] } } });
    expect(fresh.map((c) => byContact.get(c.id))).toEqual(["contact.created", "contact.created"]);
    // A webhook listens: each carries the contact as it was imported.
    expect(imported.every((e) => (e.payload as { email?: string } | null)?.email !== undefined)).toBe(true);
  });

  it("announces an email to several recipients with every To address (not its cc or bcc)", async () => {
    const tag = org.organizationId.slice(0, 8);
    const domain = `several-${tag}.example.com`;
    await addDomain(org.organizationId, domain, { verified: true });
    const to = [`ada-${tag}@example.net`, `bob-${tag}@example.org`];
    const created = await org.owner.api.post("/v1/emails", {
      from: `team@${domain}`,
      to,
      cc: [`carol-${tag}@example.com`],
      bcc: [`dan-${tag}@example.com`],
      subject: "For both of you",
      text: "Hello",
    });
    expect(created.status).toBe(201);
    const sender = createSender({ organizationId: org.organizationId, relayUrl: `smtp://${sink.host}:${sink.port}` });
    await drain(sender, org.organizationId);
    sender.close();
    await dispatchEventsOf(org.organizationId);
    const [sent] = await db.event.findMany({ where: { organization_id: org.organizationId, email_id: created.body.id, name: "email.sent" } });
    const [delivery] = await db.webhookDelivery.findMany({ where: { organization_id: org.organizationId, event_id: sent.id } });
    expect(documentedPayload(delivery.payload)).toMatchObject({ type: "email.sent", data: { email_id: created.body.id, to } });
  });
});
