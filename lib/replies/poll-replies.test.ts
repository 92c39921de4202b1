import { ImapFlow } from "imapflow";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sealSecret } from "@/lib/crypto/secret-box";
import { db } from "@/lib/db";
import { createTestOrg } from "@/lib/testing/api";
import { dovecotAvailable, startDovecot, type Dovecot } from "@/lib/testing/dovecot";
import { addContacts, addInbox, addSegment, addSentFirstEmail, addSequencedBroadcast, rawReply } from "@/lib/testing/sequence-fixtures";
import { pollReplies } from "./poll-replies";

const USER = "sam@sales.example.com";
const PASSWORD = "imap-password";

describe.skipIf(!dovecotAvailable())("IMAP reply polling (dovecot)", () => {
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

  it("reads new messages, stores the replies in their threads and ignores the rest", async () => {
    const organizationId = (await createTestOrg()).organizationId;
    const inbox = await addInbox(organizationId, {
      imap: { host: dovecot.host, port: dovecot.port, username: USER, password_encrypted: sealSecret(PASSWORD) },
    });
    const people = await addContacts(organizationId, ["Max", "Ned"]);
    const broadcast = await addSequencedBroadcast({
      organizationId,
      segmentId: await addSegment(organizationId, "A", [people.Max.id, people.Ned.id]),
      inboxId: inbox.id,
      steps: [{ delay_minutes: 0 }],
    });
    const max = await addSentFirstEmail(broadcast, people.Max, 5);
    const ned = await addSentFirstEmail(broadcast, people.Ned, 5);

    await deliver(
      rawReply({ from: people.Max.email, to: USER, subject: "Re: Quick question", inReplyTo: max.message_id, references: [max.message_id] }),
      rawReply({ from: "newsletter@shop.example", to: USER, subject: "Our sale" }),
    );

    expect(await pollReplies({ organizationIds: [organizationId], intervalMs: 0 })).toBe(1);
    const stored = await db.email.findMany({ where: { organization_id: organizationId, direction: "inbound" } });
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      thread_id: max.thread_id,
      parent_email_id: max.id,
      from_email: people.Max.email,
      status: "received",
      inbox_id: inbox.id,
    });
    let row = await db.inbox.findUniqueOrThrow({ where: { id: inbox.id } });
    expect(row.imap_last_uid).toBe(2);
    expect(row.imap_last_polled_at).toBeInstanceOf(Date);

    // Polled again too soon: not polled. Polled with nothing new: nothing stored.
    expect(await pollReplies({ organizationIds: [organizationId] })).toBe(0);
    expect(await pollReplies({ organizationIds: [organizationId], intervalMs: 0 })).toBe(0);

    await deliver(rawReply({ from: people.Ned.email, to: USER, subject: "Re: Quick question", inReplyTo: ned.message_id }));
    expect(await pollReplies({ organizationIds: [organizationId], intervalMs: 0 })).toBe(1);
    row = await db.inbox.findUniqueOrThrow({ where: { id: inbox.id } });
    expect(row.imap_last_uid).toBe(3);
    expect((await db.email.findUniqueOrThrow({ where: { id: ned.id } })).replied_at).toBeInstanceOf(Date);
    expect((await db.broadcast.findUniqueOrThrow({ where: { id: broadcast.id } })).replied_count).toBe(2);

    // Starting over from scratch (the mark lost) stores nothing twice.
    await db.inbox.update({ where: { id: inbox.id }, data: { imap_last_uid: null } });
    expect(await pollReplies({ organizationIds: [organizationId], intervalMs: 0 })).toBe(0);
    expect(await db.email.count({ where: { organization_id: organizationId, direction: "inbound" } })).toBe(2);
  });

  it("keeps going when an inbox cannot be reached or refuses the login", async () => {
    const organizationId = (await createTestOrg()).organizationId;
    const refused = await addInbox(organizationId, {
      imap: { host: dovecot.host, port: dovecot.port, username: USER, password_encrypted: sealSecret("wrong") },
    });
    const closed = await addInbox(organizationId, { imap: { host: "127.0.0.1", port: 1, username: USER, password_encrypted: sealSecret(PASSWORD) } });
    // One inbox of an organization a round (claimInboxes): two rounds poll both.
    expect(await pollReplies({ organizationIds: [organizationId], intervalMs: 0 })).toBe(0);
    expect(await pollReplies({ organizationIds: [organizationId], intervalMs: 0 })).toBe(0);
    for (const inbox of [refused, closed]) {
      expect(await db.inbox.findUniqueOrThrow({ where: { id: inbox.id } })).toMatchObject({ imap_last_polled_at: expect.any(Date), imap_poll_until: null });
    }
  });
});
