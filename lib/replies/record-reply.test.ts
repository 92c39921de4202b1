import { randomUUID } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTestOrg } from "@/lib/testing/api";
import { addContacts, addInbox, addSegment, addSentFirstEmail, addSequencedBroadcast, rawReply } from "@/lib/testing/sequence-fixtures";
import { replyCandidates } from "./message-ids";
import { recordRawReply } from "./record-reply";
import { dispatchEventsOf, emailEventsOf } from "@/lib/testing/events";
import { documentedPayload } from "@/lib/testing/webhook-payloads";
import { addTestWebhook } from "@/lib/testing/webhook-fixtures";

describe("reply matching", () => {
  let organizationId: string;
  let inbox: { id: string; organization_id: string };
  let contact: { id: string; email: string };
  let first: Awaited<ReturnType<typeof addSentFirstEmail>>;
  let broadcastId: string;

  beforeEach(async () => {
    organizationId = (await createTestOrg()).organizationId;
    inbox = await addInbox(organizationId);
    const people = await addContacts(organizationId, ["Kim", "Lee"]);
    contact = people.Kim;
    const broadcast = await addSequencedBroadcast({
      organizationId,
      segmentId: await addSegment(organizationId, "A", [people.Kim.id, people.Lee.id]),
      inboxId: inbox.id,
      steps: [{ delay_minutes: 60 }],
    });
    broadcastId = broadcast.id;
    first = await addSentFirstEmail(broadcast, contact, 10);
    await addTestWebhook(organizationId, ["email.replied"]);
  });

  it("orders candidates: In-Reply-To, then References newest first", () => {
    expect(replyCandidates("<c@x>", ["<a@x>", "<b@x>", "<c@x>"])).toEqual(["<c@x>", "<b@x>", "<a@x>"]);
    expect(replyCandidates(undefined, "<a@x> <b@x>")).toEqual(["<b@x>", "<a@x>"]);
    expect(replyCandidates("bare@x", undefined)).toEqual(["<bare@x>"]);
    expect(replyCandidates(undefined, undefined)).toEqual([]);
  });

  it("stores a reply in the thread of the email it answers and records the outcome", async () => {
    const messageId = `<${randomUUID()}@mail.example.net>`;
    const outcome = await recordRawReply(
      inbox,
      rawReply({
        from: `Kim <${contact.email}>`,
        to: "Sam <sam@sales.example.com>",
        subject: "Re: Quick question",
        inReplyTo: first.message_id,
        references: [first.message_id],
        messageId,
        body: "Yes, call me.",
      }),
    );
    expect(outcome).toMatchObject({ result: "stored", repliedToId: first.id, threadId: first.thread_id });
    if (outcome.result !== "stored") throw new Error("not stored");

    const reply = await db.email.findUniqueOrThrow({ where: { id: outcome.emailId } });
    expect(reply).toMatchObject({
      organization_id: organizationId,
      direction: "inbound",
      status: "received",
      message_id: messageId,
      from_email: contact.email,
      from_name: "Kim",
      to_email: "sam@sales.example.com",
      subject: "Re: Quick question",
      thread_id: first.thread_id,
      parent_email_id: first.id,
      contact_id: contact.id,
      inbox_id: inbox.id,
      in_reply_to: first.message_id,
      references: [first.message_id],
      broadcast_id: null,
    });
    expect(reply.text_content).toContain("Yes, call me.");

    const original = await db.email.findUniqueOrThrow({ where: { id: first.id } });
    expect(original.replied_at).toBeInstanceOf(Date);
    expect((await db.broadcast.findUniqueOrThrow({ where: { id: broadcastId } })).replied_count).toBe(1);
    const events = await emailEventsOf(first.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      name: "email.replied",
      contact_id: contact.id,
      source: "replies",
      properties: { reply: { email_id: reply.id, from: contact.email } },
    });
    await dispatchEventsOf(organizationId);
    const [delivery] = await db.webhookDelivery.findMany({ where: { organization_id: organizationId, event_type: "email.replied" } });
    documentedPayload(delivery.payload);
    expect(delivery.payload).toMatchObject({ type: "email.replied", data: { email_id: first.id, thread_id: first.thread_id, reply: { email_id: reply.id } } });
    const thread = await db.thread.findUniqueOrThrow({ where: { id: first.thread_id! } });
    expect(thread.last_message_at.getTime()).toBeGreaterThanOrEqual(original.replied_at!.getTime());
    // "Yes, call me." asks for a call: the rules put the thread in `meeting`.
    expect(thread.category).toBe("meeting");
  });

  it("categorizes the thread by each reply's rules, over what a person chose before", async () => {
    const thread = () => db.thread.findUniqueOrThrow({ where: { id: first.thread_id! }, select: { category: true } });
    expect((await thread()).category).toBeNull();
    const reply = (body: string) =>
      recordRawReply(inbox, rawReply({ from: contact.email, to: "sam@sales.example.com", subject: "Re: Quick question", inReplyTo: first.message_id, body }));
    expect((await reply("Not interested, thanks.")).result).toBe("stored");
    expect((await thread()).category).toBe("not_interested");
    await db.thread.update({ where: { id: first.thread_id! }, data: { category: "done" } });
    expect((await reply("Actually, what does it cost? Send me the pricing.")).result).toBe("stored");
    expect((await thread()).category).toBe("interested");
  });

  it("matches by References when In-Reply-To is missing, and stores a message only once", async () => {
    const raw = rawReply({ from: contact.email, to: "sam@sales.example.com", subject: "Re: hi", references: ["<unknown@else.where>", first.message_id] });
    expect((await recordRawReply(inbox, raw)).result).toBe("stored");
    expect((await recordRawReply(inbox, raw)).result).toBe("duplicate");
    expect(await db.email.count({ where: { thread_id: first.thread_id, direction: "inbound" } })).toBe(1);
  });

  it("counts a recipient's replies once on the broadcast", async () => {
    for (let i = 0; i < 2; i++) {
      await recordRawReply(inbox, rawReply({ from: contact.email, to: "sam@sales.example.com", subject: "Re: hi", inReplyTo: first.message_id }));
    }
    expect(await db.email.count({ where: { thread_id: first.thread_id, direction: "inbound" } })).toBe(2);
    expect((await db.broadcast.findUniqueOrThrow({ where: { id: broadcastId } })).replied_count).toBe(1);
  });

  it("ignores messages that answer nothing of the organization's, and does not take automatic answers for replies", async () => {
    const before = await db.email.count({ where: { organization_id: organizationId } });
    expect((await recordRawReply(inbox, rawReply({ from: contact.email, to: "sam@sales.example.com", subject: "Hello" }))).result).toBe("unmatched");
    expect(
      (await recordRawReply(inbox, rawReply({ from: contact.email, to: "sam@sales.example.com", subject: "Re: x", inReplyTo: "<nothing@nowhere>" }))).result,
    ).toBe("unmatched");
    const outOfOffice = rawReply({
      from: contact.email,
      to: "sam@sales.example.com",
      subject: "Out of office",
      inReplyTo: first.message_id,
      headers: ["Auto-Submitted: auto-replied"],
    });
    // Kept in the thread, but not a reply (auto-reply.test.ts has what it holds).
    expect((await recordRawReply(inbox, outOfOffice)).result).toBe("auto_reply");

    // Another organization's inbox cannot attach a message to this organization's email.
    const otherOrg = (await createTestOrg()).organizationId;
    const otherInbox = await addInbox(otherOrg);
    expect((await recordRawReply(otherInbox, rawReply({ from: contact.email, to: "x@y.z", subject: "Re: x", inReplyTo: first.message_id }))).result).toBe(
      "unmatched",
    );

    expect(await db.email.count({ where: { organization_id: organizationId } })).toBe(before + 1);
    expect(await db.email.count({ where: { organization_id: otherOrg } })).toBe(0);
    expect((await db.email.findUniqueOrThrow({ where: { id: first.id } })).replied_at).toBeNull();
  });

  it("refuses NUL characters and oversized fields quietly instead of failing", async () => {
    const raw = rawReply({
      from: contact.email,
      to: "sam@sales.example.com",
      subject: "Re: a\u0000b",
      inReplyTo: first.message_id,
      body: `x\u0000y ${"z".repeat(2_000_000)}`,
    });
    const outcome = await recordRawReply(inbox, raw);
    expect(outcome.result).toBe("stored");
    if (outcome.result !== "stored") return;
    const reply = await db.email.findUniqueOrThrow({ where: { id: outcome.emailId } });
    expect(reply.subject).toBe("Re: ab");
    expect(reply.text_content!.length).toBeLessThanOrEqual(1_000_000);
  });
});
