import { randomUUID } from "node:crypto";
import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { startInboundServer, type InboundServer } from "@/lib/feedback/inbound-server";
import { processFeedbackReports } from "@/lib/feedback/process-reports";
import { returnPathAddress } from "@/lib/feedback/verp";
import { addDomain } from "@/lib/services/domains";
import { createTestOrg, type TestOrg } from "@/lib/testing/api";
import { rawArf } from "@/lib/testing/reports";

// A receiver must not pause a tenant's broadcast at will (docs/SECURITY.md, "Deliverability"):
// complaint reports carry no proof of who sent them, and one complaint was 0.67 % of a 150-recipient
// broadcast, past the 0.3 % line, so any receiver of a small broadcast could pause it, again after
// each resume. The breaker now needs complaints from several different recipients.

let listener: InboundServer;
beforeAll(async () => {
  listener = await startInboundServer({ port: 0, host: "127.0.0.1" });
});
afterAll(() => listener?.close());

async function complain(to: string, recipient: string, messageId: string) {
  const transport = nodemailer.createTransport({ host: "127.0.0.1", port: listener.port, secure: false, ignoreTLS: true });
  try {
    await transport.sendMail({ envelope: { from: "", to }, raw: rawArf({ to, recipient, originalMessageId: messageId }) });
  } finally {
    transport.close();
  }
}

/** A broadcast sending to 150 recipients, every email accepted by their servers; `steps` emails each (a sequence). */
async function sendingBroadcast(org: TestOrg, steps = 1) {
  const domain = `cb-${randomUUID().slice(0, 8)}.example.com`;
  await addDomain(org.organizationId, domain, { verified: true });
  const broadcast = await db.broadcast.create({
    data: {
      organization_id: org.organizationId,
      name: "Small list",
      subject: "News",
      from_email: `news@${domain}`,
      html_content: "<p>News</p>",
      status: "sending",
      sent_count: 150 * steps,
      total_recipients: 150 * steps,
    },
  });
  await db.$executeRaw`
    INSERT INTO emails (organization_id, broadcast_id, sequence_position, message_id, from_email, to_email, subject, status, sent_at)
    SELECT ${org.organizationId}::uuid, ${broadcast.id}::uuid, s, '<' || gen_random_uuid() || '@' || ${domain} || '>', ${`news@${domain}`},
           'person' || n || '@receivers.example', 'News', 'sent', now()
    FROM generate_series(1, 150) n, generate_series(0, ${steps - 1}::int) s`;
  const emails = await db.email.findMany({
    where: { broadcast_id: broadcast.id, organization_id: org.organizationId },
    orderBy: [{ to_email: "asc" }, { sequence_position: "asc" }],
  });
  const complainAbout = async (email: (typeof emails)[number]) => complain(returnPathAddress(email.id, `bounces.${domain}`), email.to_email, email.message_id);
  return { broadcast, emails, complainAbout };
}

const processAll = async () => {
  while ((await processFeedbackReports()) > 0);
};
const statusOf = async (id: string) => (await db.broadcast.findUniqueOrThrow({ where: { id } })).status;

describe("complaints and the circuit breaker", () => {
  it("one receiver's complaint does not pause a broadcast of 150", async () => {
    const org = await createTestOrg();
    const { broadcast, emails, complainAbout } = await sendingBroadcast(org);
    await complainAbout(emails[0]);
    await processAll();
    // The complaint is recorded (the email, the suppression), but one is not enough to judge a rate by.
    expect(await db.email.count({ where: { broadcast_id: broadcast.id, complained_at: { not: null } } })).toBe(1);
    expect(await db.suppression.count({ where: { organization_id: org.organizationId, reason: "complaint" } })).toBe(1);
    expect(await statusOf(broadcast.id)).toBe("sending");
  });

  it("one receiver is one complaint, however many of the broadcast's emails it reports", async () => {
    const org = await createTestOrg();
    const { broadcast, emails, complainAbout } = await sendingBroadcast(org, 3);
    // Four receivers, one of whom reports all three emails of the sequence: six complaints, four people.
    const people = [...new Set(emails.map((e) => e.to_email))].slice(0, 4);
    const reported = [...emails.filter((e) => e.to_email === people[0]), ...people.slice(1).map((p) => emails.find((e) => e.to_email === p)!)];
    expect(reported).toHaveLength(6);
    for (const email of reported) await complainAbout(email);
    await processAll();
    expect(await db.email.count({ where: { broadcast_id: broadcast.id, complained_at: { not: null } } })).toBe(6);
    expect(await statusOf(broadcast.id)).toBe("sending");
  });

  it("complaints from several different recipients past the threshold still pause it", async () => {
    const org = await createTestOrg();
    const { broadcast, emails, complainAbout } = await sendingBroadcast(org);
    for (const email of emails.slice(0, 5)) await complainAbout(email);
    await processAll();
    expect(await db.broadcast.findUniqueOrThrow({ where: { id: broadcast.id } })).toMatchObject({ status: "paused", paused_reason: "complaint_rate" });
  });
});
