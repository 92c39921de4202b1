import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as oneClick } from "@/app/u/[token]/one-click/route";
import UnsubscribePage from "@/app/u/[token]/page";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { createTestOrg, type TestOrg } from "@/lib/testing/api";
import { drain, seedSegment, sinkInbox } from "@/lib/testing/sending-fixtures";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { startBroadcast } from "./fan-out";
import { createSender } from "./sender";
import { readUnsubscribeToken } from "./unsubscribe-token";
import { emailEventsOf } from "@/lib/testing/events";

let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink({ credentials: { user: "anna@acme.test", pass: "s3cret password" } });
});
afterAll(() => sink.close());

// The header as written, not mailparser's structured reading of it.
const header = (mail: SmtpSink["messages"][number], name: string) => {
  const line = mail.parsed.headerLines.find((h) => h.key === name)?.line ?? "";
  return line
    .slice(line.indexOf(":") + 1)
    .replace(/\r?\n\s+/g, " ")
    .trim();
};

describe("a broadcast to a segment, through an inbox", () => {
  let org: TestOrg;
  let broadcastId: string;
  let contacts: Awaited<ReturnType<typeof seedSegment>>["contacts"];
  const received = () => sink.messages.filter((m) => m.envelopeFrom === "anna@acme.test");

  beforeAll(async () => {
    org = await createTestOrg();
    const organization_id = org.organizationId;
    const inbox = await sinkInbox(organization_id, sink, {
      name: "Anna's inbox",
      from_email: "anna@acme.test",
      from_name: "Anna Sender",
      reply_to: "replies@acme.test",
      smtp_username: "anna@acme.test",
      password: "s3cret password",
    });
    const topic = await db.topic.create({ data: { organization_id, name: "Product news", default_subscription: "opt_out" } });
    const seeded = await seedSegment(organization_id, [
      { email: "alice@example.test", first_name: "Alice", metadata: { company: "Acme & Co" } },
      { email: "bob@example.test" },
      { email: "carol@example.test", first_name: "Carol", subscribed: false },
      { email: "dave@example.test", first_name: "Dave" },
      { email: "erin@example.test", first_name: "Erin" },
    ]);
    contacts = seeded.contacts;
    await db.suppression.create({ data: { organization_id, email: "dave@example.test", reason: "hard_bounce" } });
    await db.contactTopic.create({ data: { organization_id, contact_id: contacts[4].id, topic_id: topic.id, subscribed: false } });
    // Not in the segment at all.
    await db.contact.create({ data: { organization_id, email: "frank@example.test" } });

    const created = await org.owner.api.post("/v1/broadcasts", {
      name: "Launch",
      subject: "Hello {{first_name|friend}}",
      inbox_id: inbox.id,
      preview_text: "A preview for {{first_name|you}}",
      html_content:
        '<html><body><p>Hi {{first_name|there}} from {{metadata.company|your company}}</p><p><a href="https://example.com/launch">Read more</a></p></body></html>',
      segment_id: seeded.segmentId,
      topic_id: topic.id,
      sending_speed: "instant",
    });
    expect(created.status).toBe(201);
    broadcastId = created.body.id;

    const sent = await org.owner.api.post(`/v1/broadcasts/${broadcastId}/send`, {});
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ id: broadcastId, status: "scheduled" });
    expect(await startBroadcast(broadcastId)).toBe("started");
    const sender = createSender({ organizationId: organization_id });
    await drain(sender, organization_id);
    sender.close();
  });

  it("goes to the subscribed, unsuppressed, opted-in members of the segment, once each", async () => {
    expect(
      received()
        .map((m) => m.envelopeTo[0])
        .sort(),
    ).toEqual(["alice@example.test", "bob@example.test"]);
    const rows = await db.email.findMany({ where: { broadcast_id: broadcastId } });
    expect(rows).toHaveLength(2);
    expect(rows.every((row) => row.status === "sent" && row.sent_at && row.provider_message_id?.startsWith("250"))).toBe(true);
    const broadcast = await db.broadcast.findUniqueOrThrow({ where: { id: broadcastId } });
    expect(broadcast).toMatchObject({ status: "sent", total_recipients: 2, sent_count: 2, bounced_count: 0 });
    expect(broadcast.started_at).toBeInstanceOf(Date);
    expect(broadcast.completed_at).toBeInstanceOf(Date);
    const events = await db.event.findMany({ where: { email_id: { in: rows.map((r) => r.id) } } });
    expect(events.map((e) => e.name)).toEqual(["email.sent", "email.sent"]);
    expect(events.map((e) => e.contact_id).sort()).toEqual(rows.map((r) => r.contact_id).sort());
  });

  it("logs in to the inbox's SMTP server with its decrypted password and sends with its identity", async () => {
    for (const mail of received()) {
      expect(mail.user).toBe("anna@acme.test");
      expect(mail.parsed.from?.value[0]).toEqual({ name: "Anna Sender", address: "anna@acme.test" });
      expect(mail.parsed.replyTo?.value[0].address).toBe("replies@acme.test");
    }
  });

  it("carries the row's Message-ID and the RFC 8058 unsubscribe headers", async () => {
    for (const mail of received()) {
      const row = await db.email.findFirstOrThrow({ where: { broadcast_id: broadcastId, to_email: mail.envelopeTo[0] } });
      expect(mail.parsed.messageId).toBe(row.message_id);
      expect(row.message_id).toMatch(/^<[0-9a-f-]{36}@acme\.test>$/);
      const listUnsubscribe = header(mail, "list-unsubscribe");
      const url = /<([^>]+)>/.exec(listUnsubscribe)?.[1] ?? "";
      expect(url.startsWith(`${env.appUrl}/u/`)).toBe(true);
      expect(url.endsWith("/one-click")).toBe(true);
      expect(readUnsubscribeToken(url.split("/").at(-2) ?? "")).toBe(row.id);
      expect(header(mail, "list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
      expect((row.headers as Record<string, string>)["List-Unsubscribe"]).toBe(`<${url}>`);
    }
  });

  it("renders placeholders with fallbacks, the preheader, a text part and a visible unsubscribe link", async () => {
    const alice = received().find((m) => m.envelopeTo[0] === "alice@example.test")!;
    const bob = received().find((m) => m.envelopeTo[0] === "bob@example.test")!;
    expect(alice.parsed.subject).toBe("Hello Alice");
    expect(bob.parsed.subject).toBe("Hello friend");
    expect(alice.parsed.html).toContain("Hi Alice from Acme &amp; Co");
    expect(bob.parsed.html).toContain("Hi there from your company");
    expect(alice.parsed.html).toMatch(/<div style="display:none[^"]*"[^>]*>A preview for Alice<\/div>/);
    expect(alice.parsed.html).toMatch(/<body><div style="display:none/);
    expect(alice.parsed.text).toContain("Hi Alice from Acme & Co");
    expect(alice.parsed.text).toContain("Read more (https://example.com/launch)");
    expect(alice.parsed.text).not.toContain("A preview for");
    const row = await db.email.findFirstOrThrow({ where: { broadcast_id: broadcastId, to_email: "alice@example.test" } });
    const pageUrl = `${env.appUrl}/u/${/\/u\/([^/]+)\/one-click/.exec(header(alice, "list-unsubscribe"))?.[1]}`;
    expect(alice.parsed.html).toContain(`href="${pageUrl}"`);
    expect(alice.parsed.text).toContain(`Unsubscribe: ${pageUrl}`);
    expect(row).toMatchObject({ subject: "Hello Alice", html_content: alice.parsed.html, text_content: alice.parsed.text });
  });

  it("unsubscribes from the page's button and the one-click POST, without login, once", async () => {
    const alice = received().find((m) => m.envelopeTo[0] === "alice@example.test")!;
    const token = /\/u\/([^/]+)\/one-click/.exec(header(alice, "list-unsubscribe"))![1];
    const page = async (search: Record<string, string> = {}) =>
      renderToStaticMarkup(await UnsubscribePage({ params: Promise.resolve({ token }), searchParams: Promise.resolve(search) }));

    const before = await page();
    expect(before).toContain("alice@example.test");
    expect(before).toContain(`action="/u/${token}/one-click"`);
    // Opening the page changes nothing.
    expect((await db.contact.findUniqueOrThrow({ where: { id: contacts[0].id } })).subscribed).toBe(true);

    const post = (body: string) =>
      oneClick(new Request(`${env.appUrl}/u/${token}/one-click`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body }), {
        params: Promise.resolve({ token }),
      });
    const first = await post("List-Unsubscribe=One-Click");
    expect(first.status).toBe(200);
    const contact = await db.contact.findUniqueOrThrow({ where: { id: contacts[0].id } });
    expect(contact.subscribed).toBe(false);
    expect(contact.unsubscribed_at).toBeInstanceOf(Date);
    const row = await db.email.findFirstOrThrow({ where: { broadcast_id: broadcastId, to_email: "alice@example.test" } });
    expect(row.unsubscribed_at).toBeInstanceOf(Date);
    expect((await emailEventsOf(row.id)).map((e) => e.name)).toEqual(["email.sent", "contact.unsubscribed"]);

    const again = await post("source=page");
    expect(again.status).toBe(303);
    expect(again.headers.get("location")).toBe(`/u/${token}?done=1`);
    expect((await db.broadcast.findUniqueOrThrow({ where: { id: broadcastId } })).unsubscribed_count).toBe(1);
    expect(await page({ done: "1" })).toContain("You are unsubscribed");

    const forged = `${token.slice(0, -2)}${token.endsWith("AA") ? "BB" : "AA"}`;
    const refused = await oneClick(new Request(`${env.appUrl}/u/${forged}/one-click`, { method: "POST" }), { params: Promise.resolve({ token: forged }) });
    expect(refused.status).toBe(404);
    expect(await page()).toContain("You are unsubscribed");
  });

  it("the body link also works for a contact who never used the header", async () => {
    const bob = received().find((m) => m.envelopeTo[0] === "bob@example.test")!;
    const link = /href="([^"]+\/u\/[^"]+)"/.exec(bob.parsed.html || "")![1];
    const token = link.split("/u/")[1];
    const response = await oneClick(
      new Request(`${env.appUrl}/u/${token}/one-click`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "source=page",
      }),
      { params: Promise.resolve({ token }) },
    );
    expect(response.status).toBe(303);
    expect((await db.contact.findUniqueOrThrow({ where: { id: contacts[1].id } })).subscribed).toBe(false);
    expect((await db.broadcast.findUniqueOrThrow({ where: { id: broadcastId } })).unsubscribed_count).toBe(2);
  });
});
