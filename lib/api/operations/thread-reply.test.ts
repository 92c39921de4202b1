import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import type { Inbox } from "@/lib/generated/prisma/client";
import { recordRawReply } from "@/lib/replies/record-reply";
import { startBroadcast } from "@/lib/sending/fan-out";
import { createSender } from "@/lib/sending/sender";
import { createTestOrg, expectError, randomId, request, type TestOrg } from "@/lib/testing/api";
import { drain, seedSegment, sinkInbox } from "@/lib/testing/sending-fixtures";
import { rawReply } from "@/lib/testing/sequence-fixtures";
import { startSmtpSink, type ReceivedMail, type SmtpSink } from "@/lib/testing/smtp-sink";

let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(() => sink.close());

/** A header as the recipient's mail client reads it: unfolded, as written. */
const header = (mail: ReceivedMail, name: string) => {
  const line = mail.parsed.headerLines.find((h) => h.key === name)?.line ?? "";
  return line
    .slice(line.indexOf(":") + 1)
    .replace(/\r?\n\s+/g, " ")
    .trim();
};

type Conversation = { org: TestOrg; inbox: Inbox; threadId: string; first: ReceivedMail; replyMessageId: string; lead: string };

/**
 * A broadcast sent from an inbox through the sink to one lead, who answers it (the answer recorded
 * as the IMAP poller records it): the thread a rep then replies in.
 */
async function conversation(lead = `lead-${randomId().slice(0, 8)}@example.org`): Promise<Conversation> {
  const org = await createTestOrg();
  const inbox = await sinkInbox(org.organizationId, sink, { from_email: `rep-${randomId().slice(0, 8)}@acme.test`, from_name: "Rep" });
  const { segmentId } = await seedSegment(org.organizationId, [{ email: lead, first_name: "Lee" }]);
  const created = await org.owner.api.post("/v1/broadcasts", {
    name: "Outbound",
    subject: "Idea for {{first_name|you}}",
    inbox_id: inbox.id,
    html_content: "<p>Hi {{first_name}}</p>",
    segment_id: segmentId,
    sending_speed: "instant",
  });
  expect((await org.owner.api.post(`/v1/broadcasts/${created.body.id}/send`, {})).status).toBe(200);
  expect(await startBroadcast(created.body.id)).toBe("started");
  const sender = createSender({ organizationId: org.organizationId });
  try {
    await drain(sender, org.organizationId);
  } finally {
    sender.close();
  }
  const first = sink.messages.find((m) => m.envelopeFrom === inbox.from_email)!;
  const replyMessageId = `<${randomId()}@mail.example.org>`;
  const recorded = await recordRawReply(
    inbox,
    rawReply({
      from: `Lee <${lead}>`,
      to: inbox.from_email,
      subject: `Re: ${first.parsed.subject}`,
      inReplyTo: first.parsed.messageId,
      references: [first.parsed.messageId!],
      messageId: replyMessageId,
      body: "Interesting. What does it cost?",
    }),
  );
  if (recorded.result !== "stored") throw new Error(`the reply was ${recorded.result}`);
  return { org, inbox, threadId: recorded.threadId, first, replyMessageId, lead };
}

async function sendQueued(organizationId: string) {
  const sender = createSender({ organizationId });
  try {
    await drain(sender, organizationId);
  } finally {
    sender.close();
  }
}

describe("POST /v1/threads/{threadId}/reply", () => {
  it("sends the shared draft from the thread's inbox as a reply the recipient's client threads, records it and discards the draft", async () => {
    const c = await conversation();
    const member = await c.org.addMember("member");
    expect((await member.api.put(`/v1/threads/${c.threadId}/draft`, { text_content: "Hi Lee, it is 20 € a seat. Call on Monday?" })).status).toBe(200);

    const queued = await c.org.owner.api.post(`/v1/threads/${c.threadId}/reply`, { use_draft: true });
    expect(queued.status).toBe(201);
    expect(queued.body).toMatchObject({
      direction: "outbound",
      status: "queued",
      thread_id: c.threadId,
      inbox_id: c.inbox.id,
      from_email: c.inbox.from_email,
      to_email: c.lead,
      subject: "Re: Idea for Lee",
      text_content: "Hi Lee, it is 20 € a seat. Call on Monday?",
      broadcast_id: null,
    });
    const thread = await c.org.owner.api.get(`/v1/threads/${c.threadId}`);
    expect(thread.body.draft).toBeNull();

    const before = sink.messages.length;
    await sendQueued(c.org.organizationId);
    const sent = sink.messages.slice(before).filter((m) => m.envelopeFrom === c.inbox.from_email);
    expect(sent).toHaveLength(1);
    const [reply] = sent;
    expect(reply.envelopeTo).toEqual([c.lead]);
    expect(reply.user).toBe(c.inbox.smtp_username);
    expect(reply.parsed.subject).toBe("Re: Idea for Lee");
    expect(reply.parsed.from?.value[0]).toMatchObject({ address: c.inbox.from_email, name: "Rep" });
    expect(reply.parsed.text?.trim()).toBe("Hi Lee, it is 20 € a seat. Call on Monday?");
    // Threaded under the lead's answer, the conversation's root first.
    expect(header(reply, "in-reply-to")).toBe(c.replyMessageId);
    expect(header(reply, "references")).toBe(`${c.first.parsed.messageId} ${c.replyMessageId}`);
    expect(reply.parsed.inReplyTo).toBe(c.replyMessageId);
    expect(reply.parsed.references).toEqual([c.first.parsed.messageId, c.replyMessageId]);
    // No marketing headers on a person's reply.
    expect(header(reply, "list-unsubscribe")).toBe("");

    const after = await c.org.owner.api.get(`/v1/threads/${c.threadId}`);
    expect(after.body.emails.map((e: { direction: string; status: string }) => `${e.direction}:${e.status}`)).toEqual([
      "outbound:sent",
      "inbound:received",
      "outbound:sent",
    ]);
    expect(after.body.emails[2].message_id).toBe(reply.parsed.messageId);
    expect(after.body.draft).toBeNull();
    expect(new Date(after.body.last_message_at).getTime()).toBeGreaterThanOrEqual(new Date(after.body.emails[1].created_at).getTime());
  });

  it("sends content given in the body, with the draft's subject under use_draft, and repeats nothing under one Idempotency-Key", async () => {
    const c = await conversation();
    await c.org.owner.api.put(`/v1/threads/${c.threadId}/draft`, { subject: "Pricing", text_content: "old text" });
    const send = () =>
      request("POST", `/v1/threads/${c.threadId}/reply`, {
        token: c.org.owner.token,
        body: { use_draft: true, html_content: "<p>New <b>text</b></p>" },
        headers: { "Idempotency-Key": "reply-1" },
      });
    const first = await send();
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ subject: "Pricing", html_content: "<p>New <b>text</b></p>", text_content: "old text" });
    const again = await send();
    expect(again.body.id).toBe(first.body.id);
    expect(await db.email.count({ where: { thread_id: c.threadId, direction: "outbound" } })).toBe(2);

    // Without a draft, plain content: the text is derived from the HTML.
    const plain = await c.org.owner.api.post(`/v1/threads/${c.threadId}/reply`, { html_content: "<p>Just checking in.</p>" });
    expect(plain.body).toMatchObject({ subject: "Re: Idea for Lee", text_content: "Just checking in." });
  });

  it("refuses a reply without content, use_draft without a draft, a suppressed recipient and another organization's thread", async () => {
    const c = await conversation();
    for (const [body, path] of [
      [{}, "text_content"],
      [{ text_content: "   " }, "text_content"],
      [{ use_draft: true }, "use_draft"],
      [{ use_draft: "yes" }, "use_draft"],
      [{ html_content: "a\u0000" }, "html_content"],
    ] as const) {
      const error = expectError(await c.org.owner.api.post(`/v1/threads/${c.threadId}/reply`, body), 400, "VALIDATION_ERROR");
      expect(error.details?.[0].path, JSON.stringify(body)).toBe(path);
    }
    await db.suppression.create({ data: { organization_id: c.org.organizationId, email: c.lead, reason: "unsubscribe" } });
    expectError(await c.org.owner.api.post(`/v1/threads/${c.threadId}/reply`, { text_content: "Hi" }), 422, "RECIPIENT_SUPPRESSED");
    const stranger = await createTestOrg();
    expectError(await stranger.owner.api.post(`/v1/threads/${c.threadId}/reply`, { text_content: "Hi" }), 404, "NOT_FOUND");
    expectError(await c.org.owner.api.post(`/v1/threads/${randomId()}/reply`, { text_content: "Hi" }), 404, "NOT_FOUND");
    expect(await db.email.count({ where: { thread_id: c.threadId, direction: "outbound" } })).toBe(1);
  });

  it("refuses while the thread's inbox is stopped or unproven, and when the thread has no inbox", async () => {
    const c = await conversation();
    await db.inbox.update({ where: { id: c.inbox.id }, data: { status: "error", last_error: "535 Authentication failed" } });
    const stopped = expectError(await c.org.owner.api.post(`/v1/threads/${c.threadId}/reply`, { text_content: "Hi" }), 400, "INBOX_CONNECTION_FAILED");
    expect(stopped.error).toContain("535 Authentication failed");
    await db.inbox.update({ where: { id: c.inbox.id }, data: { status: "active", sender_confirmed_at: null, from_email: "rep@unverified.example" } });
    expectError(await c.org.owner.api.post(`/v1/threads/${c.threadId}/reply`, { text_content: "Hi" }), 400, "INBOX_NOT_VERIFIED");
    const relay = await db.thread.create({ data: { organization_id: c.org.organizationId, subject: "Relay", category: "needs_reply" } });
    await db.email.create({
      data: {
        organization_id: c.org.organizationId,
        thread_id: relay.id,
        message_id: `<${randomId()}@acme.test>`,
        from_email: "news@acme.test",
        to_email: c.lead,
        subject: "Relay",
        status: "sent",
      },
    });
    expectError(await c.org.owner.api.post(`/v1/threads/${relay.id}/reply`, { text_content: "Hi" }), 400, "BAD_REQUEST");
    expect(await db.email.count({ where: { organization_id: c.org.organizationId, status: "queued" } })).toBe(0);
  });
});
