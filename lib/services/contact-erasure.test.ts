import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBroadcast } from "@/lib/sending/fan-out";
import { createSender } from "@/lib/sending/sender";
import { db } from "@/lib/db";
import { createTestOrg, expectError, request, type TestOrg } from "@/lib/testing/api";
import { dispatchEventsOf } from "@/lib/testing/events";
import { drain, sinkInbox } from "@/lib/testing/sending-fixtures";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { startWebhookReceiver } from "@/lib/testing/webhook-receiver";
import { deliverWebhooks } from "@/lib/webhooks/deliver";
import { recordRawReply } from "@/lib/replies/record-reply";
import { recordClick } from "@/lib/tracking/record-click";
import { recordOpen } from "@/lib/tracking/record-open";
import { signOpenToken } from "@/lib/tracking/token";
import { erasedAddress } from "./contact-erasure";
import { addTestWebhook } from "@/lib/testing/webhook-fixtures";

const ADDRESS = "zelda.quintessa@erasure.example";
const NAMES = ["Zeldarine", "Quintessabel"];
// What the person's opens and clicks recorded about them: their network address and their device.
const IP = "198.51.100.77";
const DEVICE = "ZeldaPhone";

/** Rows of every table of the database whose text holds `needle` (case-insensitive), by table. */
async function tablesHolding(needle: string): Promise<Record<string, number>> {
  const tables = await db.$queryRaw<{ name: string }[]>`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'`;
  const found: Record<string, number> = {};
  for (const { name } of tables) {
    const [{ n }] = await db.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM "${name}" t WHERE t::text ILIKE $1`, `%${needle}%`);
    if (n > 0) found[name] = n;
  }
  return found;
}

// decisions.md, "Consent": DELETE /v1/contacts/{id}?erase=true erases the address and names from
// its emails and events, keeping counts; the issue: after erasure the address is in no API answer
// and no table except as a hash.
describe("erasing a contact", () => {
  let sink: SmtpSink;
  let org: TestOrg;
  let contactId: string;
  let broadcastId: string;
  let scheduledId: string;
  let broadcastEmailId: string;

  beforeAll(async () => {
    sink = await startSmtpSink();
    org = await createTestOrg();
    const inbox = await sinkInbox(org.organizationId, sink);
    // A webhook, so the contact's events are in webhook_deliveries' payloads.
    await addTestWebhook(org.organizationId, ["contact.created", "contact.updated", "email.sent", "email.opened", "email.clicked"], {
      url: "https://hooks.example/x",
      secret: "whsec_x",
    });
    const topic = (await org.owner.api.post("/v1/topics", { name: "News", default_subscription: "opt_in" })).body.id;
    const segment = (await org.owner.api.post("/v1/segments", { name: "All" })).body.id;
    contactId = (await org.owner.api.post("/v1/contacts", { email: ADDRESS, first_name: NAMES[0], last_name: NAMES[1] })).body.id;
    await org.owner.api.put(`/v1/contacts/${contactId}/topics`, [{ topic_id: topic, subscribed: true }]);
    await org.owner.api.post(`/v1/segments/${segment}/contacts`, { contact_ids: [contactId] });
    const form = (await org.owner.api.post("/v1/forms", { name: "F", double_opt_in: false })).body.id;
    await db.formSubmission.create({
      data: { organization_id: org.organizationId, form_id: form, contact_id: contactId, values: { email: ADDRESS }, ip: "192.0.2.1" },
    });
    const created = await org.owner.api.post("/v1/broadcasts", {
      name: "B",
      subject: "Hello {{first_name}}",
      html_content: '<p>Dear {{first_name}} {{last_name}} ({{email}})</p><p><a href="https://shop.example/welcome?who={{email}}">Shop</a></p>',
      inbox_id: inbox.id,
      segment_id: segment,
      topic_id: topic,
      sending_speed: "instant",
    });
    broadcastId = created.body.id;
    await org.owner.api.post(`/v1/broadcasts/${broadcastId}/send`, {});
    await startBroadcast(broadcastId);
    // A transactional email too, with an Idempotency-Key whose stored answer names the email.
    const sent = await request("POST", "/v1/emails", {
      token: org.owner.token,
      headers: { "idempotency-key": "erase-test" },
      body: { inbox_id: inbox.id, to: ADDRESS, subject: `For ${NAMES[0]}`, html: `<p>${NAMES[1]}</p>` },
    });
    expect(sent.status).toBe(201);
    // One still to go (scheduled), and one to a colleague that names the person as its Reply-To.
    const scheduled = await org.owner.api.post("/v1/emails", {
      inbox_id: inbox.id,
      to: ADDRESS,
      subject: "Later",
      html: "<p>Later</p>",
      scheduled_at: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect(scheduled.status).toBe(201);
    scheduledId = scheduled.body.id;
    const colleague = await org.owner.api.post("/v1/emails", {
      inbox_id: inbox.id,
      to: "colleague@elsewhere.example",
      reply_to: ADDRESS,
      subject: `Introducing ${NAMES[0]}`,
      html: "<p>Meet her</p>",
    });
    expect(colleague.status).toBe(201);
    const sender = createSender({ organizationId: org.organizationId });
    await drain(sender, org.organizationId);
    sender.close();
    const email = await db.email.findFirstOrThrow({ where: { broadcast_id: broadcastId } });
    broadcastEmailId = email.id;
    // The person opens it and clicks a link that carries their address, from their phone.
    const visitor = { ip: IP, userAgent: `Mozilla/5.0 (${DEVICE}; like Gecko) Mobile Safari/605.1.15` };
    expect(await recordOpen(signOpenToken(email.id), visitor)).toBe(true);
    const clickToken = /\/t\/c\/([A-Za-z0-9_.~-]+)/.exec(email.html_content ?? "")?.[1];
    expect(await recordClick(clickToken ?? "", visitor)).toMatch(/^https:\/\/shop\.example\/welcome\?who=zelda/);
    // They answer the transactional email; the reply is threaded.
    const transactional = await db.email.findFirstOrThrow({ where: { id: sent.body.id } });
    const reply = [
      `From: ${NAMES[0]} ${NAMES[1]} <${ADDRESS}>`,
      `To: ${transactional.from_email}`,
      `Subject: Re: ${transactional.subject}`,
      `Message-ID: <reply-${Date.now()}@erasure.example>`,
      `In-Reply-To: ${transactional.message_id}`,
      "Date: " + new Date().toUTCString(),
      "",
      `Thanks! ${NAMES[0]}, ${ADDRESS}, +1 555 0100`,
      "",
    ].join("\r\n");
    expect(await recordRawReply({ id: inbox.id, organization_id: org.organizationId }, reply)).toMatchObject({ result: "stored" });
    // A member's note on the email, a soft-bounce streak, and an audit entry naming the address.
    const comment = await org.owner.api.post(`/v1/threads/emails/${email.id}/comments`, { content: `Called ${NAMES[0]} at ${ADDRESS}` });
    expect(comment.status).toBe(201);
    await db.softBounceStreak.create({ data: { organization_id: org.organizationId, email: ADDRESS, count: 1, last_email_id: email.id } });
    // A soft bounce's event, whose message names the address.
    await db.event.create({
      data: {
        organization_id: org.organizationId,
        contact_id: contactId,
        email_id: email.id,
        broadcast_id: broadcastId,
        name: "email.bounced",
        properties: { bounce: { type: "soft", message: `550 <${ADDRESS}> mailbox full` } },
        source: "feedback",
        occurred_at: new Date(),
      },
    });
    await db.event.create({
      data: {
        organization_id: org.organizationId,
        contact_id: contactId,
        name: "purchase",
        properties: { buyer: NAMES[0] },
        source: "api",
        occurred_at: new Date(),
      },
    });
    expect((await org.owner.api.post("/v1/suppressions", { emails: [ADDRESS] })).status).toBeLessThan(300);
    await db.suppression.updateMany({ where: { organization_id: org.organizationId, email: ADDRESS }, data: { reason: "complaint" } });
    // The worker's dispatcher queues the webhook deliveries of what was recorded so far.
    await dispatchEventsOf(org.organizationId);
  });
  afterAll(() => sink.close());

  it("leaves the address and names in no table but as a hash, and the reports their counts", async () => {
    expect(Object.keys(await tablesHolding(ADDRESS)).sort()).toEqual(
      expect.arrayContaining([
        "audit_logs",
        "contacts",
        "email_comments",
        "emails",
        "events",
        "form_submissions",
        "soft_bounce_streaks",
        "suppressions",
        "webhook_deliveries",
      ]),
    );
    expect(Object.keys(await tablesHolding(DEVICE)).sort()).toEqual(expect.arrayContaining(["emails"]));
    expect(Object.keys(await tablesHolding(NAMES[0])).sort()).toEqual(expect.arrayContaining(["emails", "threads", "webhook_deliveries"]));
    const report = (await org.owner.api.get(`/v1/broadcasts/${broadcastId}`)).body;
    const emails = await db.email.count({ where: { organization_id: org.organizationId } });

    const erased = await org.owner.api.delete(`/v1/contacts/${contactId}?erase=true`);
    expect(erased.status).toBe(200);
    expect(erased.body).toEqual({ success: true });

    expect(await tablesHolding(ADDRESS)).toEqual({});
    expect(await tablesHolding(encodeURIComponent(ADDRESS))).toEqual({});
    for (const name of NAMES) expect(await tablesHolding(name), name).toEqual({});
    expect(await tablesHolding(IP)).toEqual({});
    expect(await tablesHolding(DEVICE)).toEqual({});
    // The open and the click still count, and the email not yet sent is not sent to anyone.
    const opened = await db.email.findUniqueOrThrow({ where: { id: broadcastEmailId } });
    expect(opened.opened_at).not.toBeNull();
    expect([(opened.opens as unknown[]).length, (opened.clicked_links as unknown[]).length]).toEqual([1, 1]);
    expect(await db.event.count({ where: { email_id: broadcastEmailId, name: { in: ["email.opened", "email.clicked"] } } })).toBe(2);
    expect(await db.email.findUniqueOrThrow({ where: { id: scheduledId }, select: { status: true } })).toEqual({ status: "cancelled" });
    expect(await db.auditLog.count({ where: { organization_id: org.organizationId, action: "contact.erased", target_id: contactId } })).toBe(1);
    expect(await db.email.count({ where: { organization_id: org.organizationId } })).toBe(emails);
    const after = (await org.owner.api.get(`/v1/broadcasts/${broadcastId}`)).body;
    expect(after).toMatchObject({ total_recipients: report.total_recipients, sent_count: report.sent_count });
    const hash = erasedAddress(org.organizationId, ADDRESS);
    expect(await db.suppression.findMany({ where: { organization_id: org.organizationId }, select: { email: true, reason: true, erased: true } })).toEqual([
      { email: hash, reason: "complaint", erased: true },
    ]);
  });

  it("answers the address in no API answer", async () => {
    const answers = await Promise.all(
      [
        "/v1/contacts",
        `/v1/contacts?search=${encodeURIComponent("zelda")}`,
        "/v1/emails?limit=100",
        "/v1/suppressions",
        `/v1/broadcasts/${broadcastId}/recipients?limit=100`,
      ].map((path) => org.owner.api.get(path).catch(() => null)),
    );
    for (const answer of answers) if (answer) expect(JSON.stringify(answer.body).toLowerCase()).not.toContain("zelda");
    expectError(await org.owner.api.get(`/v1/contacts/${contactId}`), 404, "NOT_FOUND");
  });

  it("suppresses the address again when it comes back, through the API, a bulk creation or an import", async () => {
    const again = await org.owner.api.post("/v1/contacts", { email: ADDRESS });
    expect(again.body.suppression).toMatchObject({ reason: "complaint" });
    await db.suppression.deleteMany({ where: { organization_id: org.organizationId, email: ADDRESS } });
    await org.owner.api.delete(`/v1/contacts/${again.body.id}`);
    const csv = `email\n${ADDRESS}\n`;
    await org.owner.api.post("/v1/contacts/import", {
      file_content: Buffer.from(csv).toString("base64"),
      column_mappings: [{ csv_column: "email", property_name: "email" }],
      handle_missing: "create",
    });
    expect(await db.suppression.count({ where: { organization_id: org.organizationId, email: ADDRESS } })).toBe(1);
    // Another organization's contact with the address is not touched by this one's erasure.
    const other = await createTestOrg();
    expect((await other.owner.api.post("/v1/contacts", { email: ADDRESS })).body.suppression).toBeNull();
  });

  it("is 404 for another organization's contact, and erases nothing there", async () => {
    const other = await createTestOrg();
    const theirs = (await other.owner.api.post("/v1/contacts", { email: "kept@erasure.example" })).body.id;
    expectError(await org.owner.api.delete(`/v1/contacts/${theirs}?erase=true`), 404, "NOT_FOUND");
    expect((await other.owner.api.get(`/v1/contacts/${theirs}`)).status).toBe(200);
    expectError(await org.owner.api.delete(`/v1/contacts/${theirs}?erase=yes`), 400, "VALIDATION_ERROR");
  });
});

describe("erasing a contact whose webhook receiver echoed it", () => {
  it("takes the address and names out of the delivery log's answers too", async () => {
    const receiver = await startWebhookReceiver();
    try {
      const org = await createTestOrg();
      const address = "echoed.person@erasure.example";
      // A receiver that answers with what it was sent, as many do when they refuse it.
      receiver.answer({ status: 422, body: `contact ${address} (Echonella Persimmon) refused` }, { status: 200, body: `saved Echonella <${address}>` });
      await org.owner.api.post("/v1/webhooks", { url: receiver.url, events: ["contact.created"] });
      const id = (await org.owner.api.post("/v1/contacts", { email: address, first_name: "Echonella", last_name: "Persimmon" })).body.id;
      await dispatchEventsOf(org.organizationId);
      await deliverWebhooks({ organizationId: org.organizationId });
      await db.webhookDelivery.updateMany({ where: { organization_id: org.organizationId }, data: { next_attempt_at: new Date(Date.now() - 1000) } });
      await deliverWebhooks({ organizationId: org.organizationId });
      expect(Object.keys(await tablesHolding(address))).toEqual(expect.arrayContaining(["webhook_delivery_attempts"]));

      expect((await org.owner.api.delete(`/v1/contacts/${id}?erase=true`)).status).toBe(200);
      for (const needle of [address, "Echonella", "Persimmon"]) expect(await tablesHolding(needle), needle).toEqual({});
      const attempts = await db.webhookDeliveryAttempt.findMany({ where: { organization_id: org.organizationId }, orderBy: { attempted_at: "asc" } });
      expect(attempts.map((a) => a.response_body)).toEqual([
        `contact ${erasedAddress(org.organizationId, address)} ([erased] [erased]) refused`,
        `saved [erased] <${erasedAddress(org.organizationId, address)}>`,
      ]);
    } finally {
      await receiver.close();
    }
  });
});

describe("erasing a contact named like the keys of a payload", () => {
  it("takes the names out of values and leaves the keys: the payloads keep their shape, recorded or delivered", async () => {
    const org = await createTestOrg();
    await addTestWebhook(org.organizationId, ["contact.created"], { url: "https://hooks.example/y", secret: "whsec_y" });
    const id = (
      await org.owner.api.post("/v1/contacts", {
        email: "data.subject@erasure.example",
        first_name: "Data",
        last_name: "Subject",
        metadata: { note: "Data Subject's note" },
      })
    ).body.id;
    expect((await org.owner.api.delete(`/v1/contacts/${id}?erase=true`)).status).toBe(200);
    // Erased before the dispatcher announced it: the delivery is made from the event as erasure left it.
    await dispatchEventsOf(org.organizationId);
    const [delivery] = await db.webhookDelivery.findMany({ where: { organization_id: org.organizationId } });
    const payload = delivery.payload as { type: string; data: Record<string, unknown> };
    expect(payload.type).toBe("contact.created");
    expect(payload.data).toMatchObject({ id, first_name: null, last_name: null, metadata: { note: "[erased] [erased]'s note" } });
    expect(payload.data.email).toBe(erasedAddress(org.organizationId, "data.subject@erasure.example"));
  });
});

describe("one contact's export", () => {
  it("answers the record with its consent, topics, segments, submissions, events and emails", async () => {
    const org = await createTestOrg();
    const id = (await org.owner.api.post("/v1/contacts", { email: "export@example.test", first_name: "Ex" })).body.id;
    const topic = (await org.owner.api.post("/v1/topics", { name: "T", default_subscription: "opt_out" })).body.id;
    await org.owner.api.put(`/v1/contacts/${id}/topics`, [{ topic_id: topic, subscribed: false }]);
    const exported = await org.owner.api.get(`/v1/contacts/${id}/export`);
    expect(exported.status).toBe(200);
    expect(exported.body).toMatchObject({
      contact: { id, email: "export@example.test", consent: [{ source: "api" }] },
      topics: [{ topic_id: topic, name: "T", subscribed: false }],
      segments: [],
      form_submissions: [],
      events: [{ name: "contact.topic_unsubscribed" }, { name: "contact.created" }],
      emails: [],
      truncated: false,
    });
    expectError(await (await createTestOrg()).owner.api.get(`/v1/contacts/${id}/export`), 404, "NOT_FOUND");
  });
});
