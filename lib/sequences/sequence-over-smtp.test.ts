import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { recordRawReply } from "@/lib/replies/record-reply";
import { startBroadcast } from "@/lib/sending/fan-out";
import { createSender } from "@/lib/sending/sender";
import { createTestOrg } from "@/lib/testing/api";
import { drain, seedSegment, sinkInbox } from "@/lib/testing/sending-fixtures";
import { rawReply } from "@/lib/testing/sequence-fixtures";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { dispatchSequenceSteps } from "./dispatch";

let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(() => sink.close());

const header = (mail: SmtpSink["messages"][number], name: string) => {
  const line = mail.parsed.headerLines.find((h) => h.key === name)?.line ?? "";
  return line
    .slice(line.indexOf(":") + 1)
    .replace(/\r?\n\s+/g, " ")
    .trim();
};

describe("a sales sequence sent over SMTP", () => {
  it("threads each follow-up under the previous message, from the same inbox, and stops for the recipient who replied", async () => {
    const org = await createTestOrg();
    const organizationId = org.organizationId;
    const inbox = await sinkInbox(organizationId, sink, { from_email: "rep@sales.test", from_name: "Rep" });
    const { segmentId, contacts } = await seedSegment(organizationId, [
      // Two companies: a reply from one does not stop the other (stop_on_company_reply).
      { email: "quinn@quinn.example.test", first_name: "Quinn" },
      { email: "riley@riley.example.test", first_name: "Riley" },
    ]);
    const [quinn, riley] = contacts;
    const created = await org.owner.api.post("/v1/broadcasts", {
      name: "Outbound",
      subject: "Idea for {{first_name|you}}",
      inbox_id: inbox.id,
      html_content: "<p>Hi {{first_name}}</p>",
      segment_id: segmentId,
      sending_speed: "instant",
      sequence_mode: "sales",
    });
    expect(created.status).toBe(201);
    const broadcastId = created.body.id;
    for (const [i, delay] of [0, 0].entries()) {
      const step = await org.owner.api.post(`/v1/broadcasts/${broadcastId}/steps`, {
        delay_minutes: delay,
        html_content: `<p>Follow-up ${i + 1} for {{first_name}}</p>`,
      });
      expect(step.status).toBe(201);
    }
    expect((await org.owner.api.post(`/v1/broadcasts/${broadcastId}/send`, {})).status).toBe(200);
    expect(await startBroadcast(broadcastId)).toBe("started");

    const sender = createSender({ organizationId });
    const inboxMail = () => sink.messages.filter((m) => m.envelopeFrom === "rep@sales.test");
    const to = (address: string) => inboxMail().filter((m) => m.envelopeTo.includes(address));
    try {
      await drain(sender, organizationId);
      expect(inboxMail()).toHaveLength(2);
      const [quinnFirst] = to(quinn.email);
      const [rileyFirst] = to(riley.email);
      expect(rileyFirst.parsed.subject).toBe("Idea for Riley");

      // Quinn answers the first email before the follow-ups.
      const reply = await recordRawReply(
        { id: inbox.id, organization_id: organizationId },
        rawReply({
          from: quinn.email,
          to: "rep@sales.test",
          subject: `Re: ${quinnFirst.parsed.subject}`,
          inReplyTo: quinnFirst.parsed.messageId,
          references: [quinnFirst.parsed.messageId!],
        }),
      );
      expect(reply.result).toBe("stored");

      expect(await dispatchSequenceSteps({ organizationId })).toBe(2);
      await drain(sender, organizationId);
      expect(await dispatchSequenceSteps({ organizationId })).toBe(1);
      await drain(sender, organizationId);
      expect(await dispatchSequenceSteps({ organizationId })).toBe(0);

      expect(to(quinn.email)).toHaveLength(1);
      const rileyMail = to(riley.email);
      expect(rileyMail).toHaveLength(3);
      const [first, second, third] = rileyMail;
      for (const followUp of [second, third]) {
        expect(followUp.parsed.subject).toBe("Re: Idea for Riley");
        expect(followUp.parsed.from?.value[0]).toMatchObject({ address: "rep@sales.test", name: "Rep" });
      }
      expect(second.parsed.text).toContain("Follow-up 1 for Riley");
      expect(header(second, "in-reply-to")).toBe(first.parsed.messageId);
      expect(header(second, "references")).toBe(first.parsed.messageId);
      expect(header(third, "in-reply-to")).toBe(second.parsed.messageId);
      expect(header(third, "references")).toBe(`${first.parsed.messageId} ${second.parsed.messageId}`);
      expect(new Set(rileyMail.map((m) => m.parsed.messageId)).size).toBe(3);

      // All of Riley's emails share one thread; the broadcast is done and its counters add up.
      const rows = await db.email.findMany({ where: { broadcast_id: broadcastId, contact_id: riley.id }, orderBy: { sequence_position: "asc" } });
      expect(rows.map((r) => r.status)).toEqual(["sent", "sent", "sent"]);
      expect(new Set(rows.map((r) => r.thread_id)).size).toBe(1);
      expect(rows.map((r) => r.message_id)).toEqual(rileyMail.map((m) => m.parsed.messageId));
      const broadcast = await db.broadcast.findUniqueOrThrow({ where: { id: broadcastId } });
      expect(broadcast).toMatchObject({ status: "sent", sent_count: 4, total_recipients: 4, replied_count: 1 });
      const thread = await db.thread.findUniqueOrThrow({ where: { id: rows[0].thread_id! }, include: { emails: true } });
      expect(thread.emails).toHaveLength(3);
      const quinnThread = await db.email.findMany({
        where: { thread_id: (await db.email.findFirstOrThrow({ where: { broadcast_id: broadcastId, contact_id: quinn.id, sequence_position: 0 } })).thread_id },
      });
      expect(quinnThread.map((e) => e.direction).sort()).toEqual(["inbound", "outbound"]);
    } finally {
      sender.close();
    }
  });
});
