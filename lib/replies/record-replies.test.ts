import { randomUUID } from "node:crypto";
import { ImapFlow } from "imapflow";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sealSecret } from "@/lib/crypto/secret-box";
import { db } from "@/lib/db";
import { createTestOrg } from "@/lib/testing/api";
import { dovecotAvailable, startDovecot, type Dovecot } from "@/lib/testing/dovecot";
import { addContacts, addInbox, addSegment, addSentFirstEmail, addSequencedBroadcast, rawReply } from "@/lib/testing/sequence-fixtures";
import { pollReplies } from "./poll-replies";
import { recordReplies } from "./record-replies";

const USER = "batch@sales.example.com";
const POISONED = "poisoned@sales.example.com";
const PASSWORD = "imap-password";

/** An organization whose broadcast sent a first email to each of `count` contacts from an inbox on `imap` (its mailbox `user`'s). */
async function team(count: number, imap?: { host: string; port: number }, user = USER) {
  const organizationId = (await createTestOrg()).organizationId;
  const inbox = await addInbox(organizationId, imap && { imap: { ...imap, username: user, password_encrypted: sealSecret(PASSWORD) } });
  const names = Array.from({ length: count }, (_, i) => `P${i}`);
  const people = await addContacts(organizationId, names);
  const broadcast = await addSequencedBroadcast({
    organizationId,
    segmentId: await addSegment(
      organizationId,
      "A",
      names.map((name) => people[name].id),
    ),
    inboxId: inbox.id,
    steps: [{ delay_minutes: 60 }],
  });
  const sent = [];
  for (const name of names) sent.push({ contact: people[name], email: await addSentFirstEmail(broadcast, people[name], 10) });
  return { organizationId, inbox, broadcast, sent };
}

const inboundOf = (organizationId: string) =>
  db.$queryRaw<{ subject: string; tx: string }[]>`
    SELECT subject, xmin::text AS tx FROM emails WHERE organization_id = ${organizationId}::uuid AND direction = 'inbound' ORDER BY subject`;

describe.skipIf(!dovecotAvailable())("replies recorded a batch at a time (dovecot)", () => {
  let dovecot: Dovecot;
  beforeAll(async () => {
    dovecot = await startDovecot({ [USER]: PASSWORD, [POISONED]: PASSWORD });
  });
  afterAll(() => dovecot?.stop());

  async function deliver(messages: string[], user = USER) {
    const client = new ImapFlow({ host: dovecot.host, port: dovecot.port, secure: false, auth: { user, pass: PASSWORD }, logger: false });
    await client.connect();
    for (const message of messages) await client.append("INBOX", message);
    await client.logout();
  }

  async function uids(user: string) {
    const client = new ImapFlow({ host: dovecot.host, port: dovecot.port, secure: false, auth: { user, pass: PASSWORD }, logger: false });
    await client.connect();
    const lock = await client.getMailboxLock("INBOX", { readOnly: true });
    const found = (await client.search({ all: true }, { uid: true })) || [];
    lock.release();
    await client.logout();
    return found.sort((a, b) => a - b);
  }

  it("records each batch of 50 in one transaction with the inbox's mark; a batch that fails records nothing and is read again whole", async () => {
    const { organizationId, inbox, sent } = await team(60, dovecot);
    const replies = sent.map(({ contact, email }, i) =>
      rawReply({ from: contact.email, to: USER, subject: i === 54 ? "Re: poison" : `Re: ${String(i).padStart(2, "0")}`, inReplyTo: email.message_id }),
    );
    await deliver(replies);
    const uidOf = async (position: number) => (await uids(USER))[position];

    // The 55th reply cannot be stored (a trigger stands in for whatever could fail while recording it).
    const suffix = organizationId.replace(/-/g, "");
    await db.$executeRawUnsafe(`CREATE FUNCTION poison_${suffix}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.organization_id = '${organizationId}' AND NEW.subject = 'Re: poison' THEN RAISE EXCEPTION 'poisoned reply'; END IF; RETURN NEW; END $$`);
    await db.$executeRawUnsafe(`CREATE TRIGGER poison_${suffix} BEFORE INSERT ON emails FOR EACH ROW EXECUTE FUNCTION poison_${suffix}()`);
    try {
      expect(await pollReplies({ organizationIds: [organizationId], intervalMs: 0 })).toBe(0);
    } finally {
      await db.$executeRawUnsafe(`DROP TRIGGER poison_${suffix} ON emails`);
      await db.$executeRawUnsafe(`DROP FUNCTION poison_${suffix}()`);
    }
    // The first batch is recorded, by one transaction; of the second, nothing, and the mark is at the first's end.
    let inbound = await inboundOf(organizationId);
    expect(inbound).toHaveLength(50);
    expect(new Set(inbound.map((row) => row.tx)).size).toBe(1);
    expect((await db.inbox.findUniqueOrThrow({ where: { id: inbox.id } })).imap_last_uid).toBe(await uidOf(49));

    // The next poll reads the second batch again and records it, once, in one transaction.
    expect(await pollReplies({ organizationIds: [organizationId], intervalMs: 0 })).toBe(10);
    inbound = await inboundOf(organizationId);
    expect(inbound).toHaveLength(60);
    expect(new Set(inbound.map((row) => row.subject)).size).toBe(60);
    expect(new Set(inbound.map((row) => row.tx)).size).toBe(2);
    expect((await db.inbox.findUniqueOrThrow({ where: { id: inbox.id } })).imap_last_uid).toBe(await uidOf(59));
    const events = await db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM events WHERE organization_id = ${organizationId}::uuid AND name = 'email.replied'`;
    expect(events[0].n).toBe(60);
  });

  it("records the rest of a batch when PostgreSQL refuses one of its messages, skips that one, and keeps the inbox healthy", async () => {
    const { organizationId, inbox, sent } = await team(60, dovecot, POISONED);
    // A real poison: a Message-ID of 990 characters outside ASCII is about 3 000 bytes, more than a
    // B-tree index row may hold (2 704), so PostgreSQL refuses the row and, with it, its batch's statement.
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    const hostileId = `<${Array.from({ length: 990 }, () => String.fromCodePoint(0x4e00 + (next() % 20000))).join("")}@mail.example.net>`;
    await deliver(
      sent.map(({ contact, email }, i) =>
        rawReply({
          from: contact.email,
          to: POISONED,
          subject: `Re: ${String(i).padStart(2, "0")}`,
          inReplyTo: email.message_id,
          messageId: i === 54 ? hostileId : undefined,
        }),
      ),
      POISONED,
    );
    const all = await uids(POISONED);

    // One poll records the 59 others (the second batch's one at a time) and moves past the poison.
    expect(await pollReplies({ organizationIds: [organizationId], intervalMs: 0 })).toBe(59);
    const inbound = await inboundOf(organizationId);
    expect(inbound).toHaveLength(59);
    expect(inbound.map((row) => row.subject)).not.toContain("Re: 54");
    expect(new Set(inbound.slice(0, 50).map((row) => row.tx)).size).toBe(1);
    const after = await db.inbox.findUniqueOrThrow({ where: { id: inbox.id } });
    expect(after).toMatchObject({ imap_last_uid: all[59], status: "active", failure_count: 0 });

    // The next poll has nothing left to read: the poison does not come back.
    expect(await pollReplies({ organizationIds: [organizationId], intervalMs: 0 })).toBe(0);
    expect(await inboundOf(organizationId)).toHaveLength(59);
    const events = await db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM events WHERE organization_id = ${organizationId}::uuid AND name = 'email.replied'`;
    expect(events[0].n).toBe(59);
  });
});

describe("a batch records what the same replies one at a time would", () => {
  it("counts, cancels, holds, threads and stops for companies as in order, and stores a copy once", async () => {
    const { organizationId, inbox, broadcast, sent } = await team(3);
    const [kim, lee, max] = sent;
    // Max works with Kim: Kim's reply stops the sequence at their company.
    const domain = kim.contact.email.split("@")[1];
    await db.contact.update({ where: { id: max.contact.id }, data: { email: `max@${domain}` } });
    await db.email.update({ where: { id: max.email.id }, data: { to_email: `max@${domain}` } });
    // Follow-ups already created for all three (waiting for their window, say); Lee's email has no thread yet.
    for (const { contact } of sent)
      await db.email.create({
        data: {
          organization_id: organizationId,
          message_id: `<${randomUUID()}@sales.example.com>`,
          from_email: "sam@sales.example.com",
          to_email: contact.id === max.contact.id ? `max@${domain}` : contact.email,
          subject: "Re: Quick question",
          broadcast_id: broadcast.id,
          sequence_position: 1,
          contact_id: contact.id,
          inbox_id: inbox.id,
          status: "scheduled",
          scheduled_at: new Date(Date.now() + 3_600_000),
        },
      });
    await db.email.update({ where: { id: lee.email.id }, data: { thread_id: null } });
    const total = (await db.broadcast.findUniqueOrThrow({ where: { id: broadcast.id } })).total_recipients;

    const outOfOffice = rawReply({
      from: kim.contact.email,
      to: USER,
      subject: "Automatic reply: Quick question",
      inReplyTo: kim.email.message_id,
      headers: ["Auto-Submitted: auto-replied"],
      body: "I am out of the office this week.",
    });
    const leeTwice = rawReply({ from: lee.contact.email, to: USER, subject: "Re: Quick question", inReplyTo: lee.email.message_id, body: "Not interested." });
    const outcomes = await recordReplies(inbox, [
      outOfOffice,
      rawReply({ from: kim.contact.email, to: USER, subject: "Re: Quick question", inReplyTo: kim.email.message_id, body: "Back early. Send me the pricing." }),
      leeTwice,
      leeTwice,
      rawReply({ from: lee.contact.email, to: USER, subject: "Re: Quick question", inReplyTo: lee.email.message_id, body: "Actually, let's schedule a call." }),
      rawReply({ from: "someone@shop.example", to: USER, subject: "Hello" }),
    ]);
    expect(outcomes.map((o) => o.result)).toEqual(["auto_reply", "stored", "stored", "duplicate", "stored", "unmatched"]);

    // Kim and Lee replied: counted once each; their follow-ups cancelled (Kim's, held by the answer before, too); Max's at Kim's company.
    expect((await db.broadcast.findUniqueOrThrow({ where: { id: broadcast.id } })).replied_count).toBe(2);
    const followUps = await db.email.findMany({
      where: { broadcast_id: broadcast.id, sequence_position: 1 },
      select: { contact_id: true, status: true, last_error: true },
    });
    const followUp = (contactId: string) => followUps.find((f) => f.contact_id === contactId);
    expect(followUp(kim.contact.id)).toMatchObject({ status: "cancelled", last_error: "Left the sequence: replied" });
    expect(followUp(lee.contact.id)).toMatchObject({ status: "cancelled", last_error: "Left the sequence: replied" });
    expect(followUp(max.contact.id)).toMatchObject({ status: "cancelled", last_error: "Left the sequence: a colleague replied" });
    expect((await db.broadcast.findUniqueOrThrow({ where: { id: broadcast.id } })).total_recipients).toBe(Math.max(total - 3, 0));
    // The out-of-office answer still says when Kim is back.
    expect((await db.contact.findUniqueOrThrow({ where: { id: kim.contact.id } })).away_until).toBeInstanceOf(Date);

    // Lee's email got one thread, holding both of Lee's replies; each thread has its last reply's category.
    const leeEmail = await db.email.findUniqueOrThrow({ where: { id: lee.email.id } });
    expect(leeEmail.thread_id).not.toBeNull();
    expect(leeEmail.replied_at).toBeInstanceOf(Date);
    expect(await db.email.count({ where: { thread_id: leeEmail.thread_id, direction: "inbound" } })).toBe(2);
    expect((await db.thread.findUniqueOrThrow({ where: { id: leeEmail.thread_id! } })).category).toBe("meeting");
    expect((await db.thread.findUniqueOrThrow({ where: { id: kim.email.thread_id! } })).category).toBe("interested");
    const events = await db.$queryRaw<{ email_id: string }[]>`
      SELECT email_id::text FROM events WHERE organization_id = ${organizationId}::uuid AND name = 'email.replied' ORDER BY id`;
    expect(events.map((e) => e.email_id)).toEqual([kim.email.id, lee.email.id, lee.email.id]);
  });
});
