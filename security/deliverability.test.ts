import { randomUUID } from "node:crypto";
import net from "node:net";
import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { startInboundServer, type InboundServer } from "@/lib/feedback/inbound-server";
import { processFeedbackReports } from "@/lib/feedback/process-reports";
import { returnPathAddress } from "@/lib/feedback/verp";
import { recordRawReply } from "@/lib/replies/record-reply";
import { addDomain } from "@/lib/services/domains";
import { createTestOrg } from "@/lib/testing/api";
import { rawDsn } from "@/lib/testing/reports";
import { addInbox } from "@/lib/testing/sequence-fixtures";

// The inbound report listener faces the internet: one test per defence (docs/SECURITY.md, "Deliverability").

let listener: InboundServer;
beforeAll(async () => {
  listener = await startInboundServer({ port: 0, host: "127.0.0.1" });
});
afterAll(() => listener?.close());

async function send(to: string, raw: string, from = "") {
  const transport = nodemailer.createTransport({ host: "127.0.0.1", port: listener.port, secure: false, ignoreTLS: true });
  try {
    return await transport.sendMail({ envelope: { from, to }, raw });
  } finally {
    transport.close();
  }
}

async function sentEmail(organizationId: string, domain: string) {
  const id = randomUUID();
  return db.email.create({
    data: {
      id,
      organization_id: organizationId,
      message_id: `<${id}@${domain}>`,
      from_email: `news@${domain}`,
      to_email: `person-${id.slice(0, 6)}@example.net`,
      subject: "S",
      status: "sent",
      sent_at: new Date(),
    },
  });
}

const processAll = async () => {
  while ((await processFeedbackReports()) > 0);
};

describe("deliverability intake", () => {
  it("is not an open relay: mail for any address but its own return-path tokens is refused at RCPT and nothing is stored", async () => {
    const before = await db.feedbackReport.count();
    for (const to of ["victim@gmail.example", "postmaster@localhost", "b+abc@bounces.example.com"]) {
      await expect(send(to, "Subject: relay me\r\n\r\nhi\r\n", "spammer@example.net")).rejects.toMatchObject({ responseCode: 550 });
    }
    expect(await db.feedbackReport.count()).toBe(before);
  });

  it("refuses a real token moved to another organization's return path, and a token for another host changes nothing", async () => {
    const { organizationId } = await createTestOrg();
    const domain = `sec-${randomUUID().slice(0, 8)}.example.com`;
    await addDomain(organizationId, domain, { verified: true });
    const email = await sentEmail(organizationId, domain);
    const other = (await createTestOrg()).organizationId;
    const otherDomain = `sec-${randomUUID().slice(0, 8)}.example.com`;
    await addDomain(other, otherDomain, { verified: true });
    const moved = returnPathAddress(email.id, `bounces.${domain}`).replace(`bounces.${domain}`, `bounces.${otherDomain}`);
    await expect(send(moved, rawDsn({ to: moved, action: "failed", finalRecipient: email.to_email }))).rejects.toMatchObject({ responseCode: 550 });
    // Minted (with the secret) for a host that is not the email's return path: accepted at RCPT, discarded by the worker.
    const foreign = returnPathAddress(email.id, `bounces.${otherDomain}`);
    await send(foreign, rawDsn({ to: foreign, action: "failed", status: "5.1.1", finalRecipient: email.to_email }));
    await processAll();
    expect(await db.email.findUniqueOrThrow({ where: { id: email.id } })).toMatchObject({ status: "sent", bounced_at: null, bounce_type: null });
    expect(await db.feedbackReport.findFirst({ where: { recipient: foreign } })).toMatchObject({ status: "discarded" });
  });

  it("bounds what it takes: an oversized message is refused with 552, recipients past the first with 452 (one stored copy)", async () => {
    const { organizationId } = await createTestOrg();
    const domain = `sec-${randomUUID().slice(0, 8)}.example.com`;
    await addDomain(organizationId, domain, { verified: true });
    const emails = await Promise.all(Array.from({ length: 11 }, () => sentEmail(organizationId, domain)));
    const tokens = emails.map((e) => returnPathAddress(e.id, `bounces.${domain}`));
    await expect(send(tokens[0], `X-Pad: ${"a".repeat(3 * 1024 * 1024)}\r\n\r\nbody\r\n`)).rejects.toMatchObject({ responseCode: 552 });
    // A report is about one email: one addressed to eleven return paths would have been stored eleven times.
    const many = (await send(tokens.join(", "), "Subject: many\r\n\r\nhi\r\n")) as { rejectedErrors?: { responseCode?: number }[] };
    expect(many.rejectedErrors?.map((e) => e.responseCode)).toEqual(Array(10).fill(452));
    expect(await db.feedbackReport.count({ where: { recipient: { in: tokens } } })).toBe(1);
  });

  it("survives a client that sends garbage and hangs up mid-message", async () => {
    const socket = net.connect(listener.port, "127.0.0.1");
    await new Promise((resolve) => socket.once("data", resolve));
    socket.write("EHLO x\r\nMAIL FROM:<>\r\nRCPT TO:<b+zzzz@bounces.x>\r\nDATA\r\n\u0000\u0001garbage");
    socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    await expect(send("nobody@nowhere.example", "x")).rejects.toMatchObject({ responseCode: 550 });
  });

  it("a report in one organization's inbox cannot bounce another organization's email by quoting its Message-ID", async () => {
    const { organizationId } = await createTestOrg();
    const victim = await sentEmail(organizationId, "victim.example.com");
    const attacker = (await createTestOrg()).organizationId;
    const inbox = await addInbox(attacker);
    expect(
      (
        await recordRawReply(
          inbox,
          rawDsn({ to: "sam@sales.example.com", action: "failed", status: "5.1.1", finalRecipient: victim.to_email, originalMessageId: victim.message_id }),
        )
      ).result,
    ).toBe("report");
    while ((await processFeedbackReports({ organizationId: attacker })) > 0);
    expect(await db.email.findUniqueOrThrow({ where: { id: victim.id } })).toMatchObject({ status: "sent", bounced_at: null });
    expect(await db.suppression.count({ where: { organization_id: organizationId } })).toBe(0);
  });
});
