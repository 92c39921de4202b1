import { randomUUID } from "node:crypto";
import { ImapFlow } from "imapflow";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sealSecret } from "@/lib/crypto/secret-box";
import { db } from "@/lib/db";
import { pollReplies } from "@/lib/replies/poll-replies";
import { createTestOrg } from "@/lib/testing/api";
import { dovecotAvailable, startDovecot, type Dovecot } from "@/lib/testing/dovecot";
import { rawArf, rawDsn } from "@/lib/testing/reports";
import { addContacts, addInbox, addSegment, addSentFirstEmail, addSequencedBroadcast, rawReply } from "@/lib/testing/sequence-fixtures";
import { processFeedbackReports } from "./process-reports";

const USER = "sam@sales.example.com";
const PASSWORD = "imap-password";

describe.skipIf(!dovecotAvailable())("reports found in an IMAP inbox (dovecot)", () => {
  let dovecot: Dovecot;
  beforeAll(async () => {
    dovecot = await startDovecot({ [USER]: PASSWORD });
  });
  afterAll(() => dovecot?.stop());

  async function deliver(...messages: string[]) {
    const client = new ImapFlow({ host: dovecot.host, port: dovecot.port, secure: false, auth: { user: USER, pass: PASSWORD }, logger: false });
    await client.connect();
    for (const message of messages) await client.append("INBOX", message);
    await client.logout();
  }

  it("records bounces and complaints by the original Message-ID, leaves out-of-office answers alone, never across organizations", async () => {
    const organizationId = (await createTestOrg()).organizationId;
    const inbox = await addInbox(organizationId, {
      imap: { host: dovecot.host, port: dovecot.port, username: USER, password_encrypted: sealSecret(PASSWORD) },
    });
    const people = await addContacts(organizationId, ["Ann", "Bob", "Cy"]);
    const broadcast = await addSequencedBroadcast({
      organizationId,
      segmentId: await addSegment(organizationId, "A", [people.Ann.id, people.Bob.id, people.Cy.id]),
      inboxId: inbox.id,
      steps: [{ delay_minutes: 60 }],
    });
    const ann = await addSentFirstEmail(broadcast, people.Ann, 5);
    const bob = await addSentFirstEmail(broadcast, people.Bob, 5);
    const cy = await addSentFirstEmail(broadcast, people.Cy, 5);
    const followUp = await db.email.create({
      data: {
        organization_id: organizationId,
        message_id: `<${randomUUID()}@sales.example.com>`,
        from_email: USER,
        to_email: people.Ann.email,
        subject: "Re: Quick question",
        broadcast_id: broadcast.id,
        step_id: broadcast.steps[0].id,
        sequence_position: 1,
        contact_id: people.Ann.id,
        inbox_id: inbox.id,
        status: "queued",
        next_attempt_at: new Date(Date.now() + 3_600_000),
      },
    });
    // Another organization's email, which a report in this inbox must never reach.
    const otherOrg = (await createTestOrg()).organizationId;
    const otherInbox = await addInbox(otherOrg);
    const otherPeople = await addContacts(otherOrg, ["Dee"]);
    const otherBroadcast = await addSequencedBroadcast({
      organizationId: otherOrg,
      segmentId: await addSegment(otherOrg, "B", [otherPeople.Dee.id]),
      inboxId: otherInbox.id,
      steps: [],
    });
    const theirs = await addSentFirstEmail(otherBroadcast, otherPeople.Dee, 5);

    await deliver(
      rawDsn({
        to: USER,
        action: "failed",
        status: "5.1.1",
        diagnostic: "550 5.1.1 No such user",
        finalRecipient: people.Ann.email,
        originalMessageId: ann.message_id,
      }),
      rawArf({ to: USER, recipient: people.Bob.email, originalMessageId: bob.message_id }),
      rawReply({ from: people.Cy.email, to: USER, subject: "Out of office", inReplyTo: cy.message_id, headers: ["Auto-Submitted: auto-replied"] }),
      rawDsn({ to: USER, action: "failed", status: "5.1.1", finalRecipient: otherPeople.Dee.email, originalMessageId: theirs.message_id }),
    );

    expect(await pollReplies({ organizationIds: [organizationId], intervalMs: 0 })).toBe(0);
    expect(await db.feedbackReport.count({ where: { organization_id: organizationId, source: "imap" } })).toBe(3);
    while ((await processFeedbackReports({ organizationId })) > 0);

    expect(await db.email.findUniqueOrThrow({ where: { id: ann.id } })).toMatchObject({ status: "bounced", bounce_type: "hard", bounce_status: "5.1.1" });
    expect(await db.suppression.findFirst({ where: { organization_id: organizationId, email: people.Ann.email } })).toMatchObject({
      reason: "hard_bounce",
      email_id: ann.id,
    });
    expect((await db.email.findUniqueOrThrow({ where: { id: followUp.id } })).status).toBe("cancelled");
    expect((await db.email.findUniqueOrThrow({ where: { id: bob.id } })).complained_at).toBeInstanceOf(Date);
    expect((await db.contact.findUniqueOrThrow({ where: { id: people.Bob.id } })).subscribed).toBe(false);
    // The out-of-office answer is neither a reply nor a bounce: it is kept in Cy's thread, and holds Cy's follow-ups.
    expect(await db.email.findUniqueOrThrow({ where: { id: cy.id } })).toMatchObject({ replied_at: null, bounced_at: null, bounce_type: null, status: "sent" });
    const inbound = await db.email.findMany({ where: { organization_id: organizationId, direction: "inbound" } });
    expect(inbound.map((e) => e.thread_id)).toEqual([cy.thread_id]);
    expect((await db.contact.findUniqueOrThrow({ where: { id: people.Cy.id } })).away_until).toBeInstanceOf(Date);
    // The report quoting another organization's email is discarded.
    expect(await db.email.findUniqueOrThrow({ where: { id: theirs.id } })).toMatchObject({ status: "sent", bounced_at: null });
    expect(await db.suppression.count({ where: { organization_id: otherOrg } })).toBe(0);
    const discarded = await db.feedbackReport.findMany({ where: { organization_id: organizationId, status: "discarded" } });
    expect(discarded.map((r) => r.result)).toEqual(["the original message is not one of this organization's emails"]);

    // Polled again from scratch: the reports and the answer are not stored twice.
    await db.inbox.update({ where: { id: inbox.id }, data: { imap_last_uid: null } });
    await pollReplies({ organizationIds: [organizationId], intervalMs: 0 });
    expect(await db.feedbackReport.count({ where: { organization_id: organizationId, source: "imap" } })).toBe(3);
    expect(await db.email.count({ where: { organization_id: organizationId, direction: "inbound" } })).toBe(1);
  });
});
