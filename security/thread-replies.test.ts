import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { recordRawReply } from "@/lib/replies/record-reply";
import { createSender } from "@/lib/sending/sender";
import { client, createTestOrg, expectError, randomId } from "@/lib/testing/api";
import { drain, sinkInbox } from "@/lib/testing/sending-fixtures";
import { rawReply } from "@/lib/testing/sequence-fixtures";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";

// A reply from the unified inbox goes out under the organization's own mailbox, to the person who
// wrote: whoever calls the API picks neither the sender nor the recipient (docs/SECURITY.md, "The
// unified inbox").
let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(() => sink.close());

async function answeredThread() {
  const org = await createTestOrg();
  const inbox = await sinkInbox(org.organizationId, sink);
  const sentId = `<${randomId()}@acme.test>`;
  const thread = await db.thread.create({ data: { organization_id: org.organizationId, subject: "Hello", inbox_id: inbox.id } });
  await db.email.create({
    data: {
      organization_id: org.organizationId,
      thread_id: thread.id,
      inbox_id: inbox.id,
      message_id: sentId,
      from_email: inbox.from_email,
      to_email: "lead@example.org",
      subject: "Hello",
      status: "sent",
    },
  });
  const recorded = await recordRawReply(
    inbox,
    rawReply({ from: "lead@example.org", to: inbox.from_email, subject: "Re: Hello", inReplyTo: sentId, body: "Who is this?" }),
  );
  expect(recorded.result).toBe("stored");
  return { org, inbox, threadId: thread.id };
}

describe("replies from the unified inbox", () => {
  it("go from the thread's inbox to the lead whatever the body names as sender, recipient or inbox", async () => {
    const { org, inbox, threadId } = await answeredThread();
    const other = await sinkInbox(org.organizationId, sink);
    const answer = await org.owner.api.post(`/v1/threads/${threadId}/reply`, {
      text_content: "Hi",
      to: "victim@example.net",
      cc: ["victim@example.net"],
      bcc: ["victim@example.net"],
      from: "ceo@bank.example",
      from_email: "ceo@bank.example",
      inbox_id: other.id,
      headers: { "X-Evil": "1" },
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ from_email: inbox.from_email, to_email: "lead@example.org", inbox_id: inbox.id, cc: [], bcc: [] });
    const before = sink.messages.length;
    const sender = createSender({ organizationId: org.organizationId });
    try {
      await drain(sender, org.organizationId);
    } finally {
      sender.close();
    }
    const sent = sink.messages.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0].envelopeTo).toEqual(["lead@example.org"]);
    expect(sent[0].envelopeFrom).toBe(inbox.from_email);
    expect(sent[0].parsed.headers.has("x-evil")).toBe(false);
  });

  it("are refused to a sending-only API key, and to another organization's members", async () => {
    const { org, threadId } = await answeredThread();
    const key = await org.owner.api.post("/v1/api-keys", { name: "App", permission: "sending_access" });
    expect(key.status).toBe(201);
    expectError(await client(key.body.token).post(`/v1/threads/${threadId}/reply`, { text_content: "Hi" }), 403, "FORBIDDEN");
    expectError(await client(key.body.token).get("/v1/threads"), 403, "FORBIDDEN");
    const stranger = await createTestOrg();
    expectError(await stranger.owner.api.post(`/v1/threads/${threadId}/reply`, { text_content: "Hi" }), 404, "NOT_FOUND");
    expectError(await stranger.owner.api.patch(`/v1/threads/${threadId}`, { category: "done" }), 404, "NOT_FOUND");
    expect(await db.email.count({ where: { thread_id: threadId, direction: "outbound", status: "queued" } })).toBe(0);
  });
});
