import { randomUUID } from "node:crypto";
import { ImapFlow } from "imapflow";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { sealSecret } from "@/lib/crypto/secret-box";
import { db } from "@/lib/db";
import { processFeedbackReports } from "@/lib/feedback/process-reports";
import { pollInbox, pollReplies } from "@/lib/replies/poll-replies";
import { PollLimitError } from "@/lib/replies/poll-guard";
import type { ImapInbox } from "@/lib/replies/claim-inboxes";
import { createTestOrg } from "@/lib/testing/api";
import { dovecotAvailable, startDovecot, type Dovecot } from "@/lib/testing/dovecot";
import { startHostileImap, type HostileImap, type HostileImapOptions } from "@/lib/testing/hostile-imap";
import { addContacts, addInbox, addSegment, addSentFirstEmail, addSequencedBroadcast, minutesAgo, rawReply } from "@/lib/testing/sequence-fixtures";
import { waitUntil } from "@/lib/testing/worker-process";

// An organization chooses its inbox's IMAP server: an attacker's answers one byte at a time, or
// sends gigabytes. The poller must hold neither other organizations' replies nor the worker's memory.
const USER = "sam@sales.example.com";
const PASSWORD = "imap-password";
const MB = 1024 * 1024;

const NOWHERE = { host: "127.0.0.1", port: 1 };

/** An organization with a sent email to Ann and one to Bob, and `inboxes` inboxes on `server` (mailbox `user`). */
async function tenant(server: { host: string; port: number }, inboxes = 1, user = USER) {
  const organizationId = (await createTestOrg()).organizationId;
  const rows = [];
  for (let i = 0; i < inboxes; i++)
    rows.push(await addInbox(organizationId, { imap: { host: server.host, port: server.port, username: user, password_encrypted: sealSecret(PASSWORD) } }));
  const people = await addContacts(organizationId, ["Ann", "Bob"]);
  const broadcast = await addSequencedBroadcast({
    organizationId,
    segmentId: await addSegment(organizationId, "A", [people.Ann.id, people.Bob.id]),
    inboxId: rows[0].id,
    steps: [{ delay_minutes: 60 }],
  });
  const ann = await addSentFirstEmail(broadcast, people.Ann, 5);
  const bob = await addSentFirstEmail(broadcast, people.Bob, 5);
  return { organizationId, inboxes: rows, people, ann, bob };
}

/** The headers of a reply to `email`, for a message the hostile server makes up. */
const replyHeaders = (email: { message_id: string; to_email: string }) =>
  rawReply({ from: email.to_email, to: USER, subject: "Re: Quick question", inReplyTo: email.message_id, body: "" }).replace(/\r\n\r\n\r\n$/, "\r\n\r\n");

const asImapInbox = (row: Awaited<ReturnType<typeof addInbox>>): ImapInbox => ({
  ...row,
  imap_host: row.imap_host!,
  imap_port: row.imap_port!,
  imap_secure: false,
  imap_username: row.imap_username!,
  imap_password_encrypted: row.imap_password_encrypted!,
});

const inbound = (organizationId: string) => db.email.findMany({ where: { organization_id: organizationId, direction: "inbound" } });

describe.skipIf(!dovecotAvailable())("IMAP reply polling beside a hostile IMAP server", () => {
  let dovecot: Dovecot;
  const hostiles: HostileImap[] = [];
  const hostile = async (options: HostileImapOptions) => {
    const server = await startHostileImap(options);
    hostiles.push(server);
    return server;
  };
  // A mailbox of its own for each test that reads dovecot, so none sees another's messages.
  const mailboxes = ["a", "b", "c", "d"].map((name) => `${name}@sales.example.com`);
  let nextMailbox = 0;
  beforeAll(async () => {
    dovecot = await startDovecot(Object.fromEntries(mailboxes.map((user) => [user, PASSWORD])));
  });
  afterEach(async () => {
    for (const server of hostiles.splice(0)) await server.close();
  });
  afterAll(() => dovecot?.stop());

  async function deliver(user: string, ...messages: string[]) {
    const client = new ImapFlow({ host: dovecot.host, port: dovecot.port, secure: false, auth: { user, pass: PASSWORD }, logger: false });
    await client.connect();
    for (const message of messages) await client.append("INBOX", message);
    await client.logout();
  }

  /** An honest organization on dovecot whose inbox holds Ann's reply, polled last (its previous poll is the oldest). */
  async function honestTenant() {
    const user = mailboxes[nextMailbox++];
    const honest = await tenant(dovecot, 1, user);
    await db.inbox.update({ where: { id: honest.inboxes[0].id }, data: { imap_last_polled_at: minutesAgo(120) } });
    await deliver(user, rawReply({ from: honest.people.Ann.email, to: USER, subject: "Re: Quick question", inReplyTo: honest.ann.message_id }));
    return honest;
  }

  it("records another organization's reply while a server that sends one byte at a time holds its own poll, and ends that poll at the command timeout", async () => {
    const attacker = await tenant(NOWHERE);
    const honest = await honestTenant();
    const server = await hostile({ dribble: "fetch", messages: [{ uid: 1, raw: replyHeaders(attacker.ann) + "Hi\r\n" }] });
    await db.inbox.update({ where: { id: attacker.inboxes[0].id }, data: { imap_port: server.port } });

    const round = pollReplies({
      organizationIds: [attacker.organizationId, honest.organizationId],
      intervalMs: 0,
      limits: { concurrency: 2, commandTimeoutMs: 8_000, deadlineMs: 30_000 },
    });
    await waitUntil(async () => (await inbound(honest.organizationId)).length === 1, 30_000, "the honest organization's reply");
    // Recorded while the attacker's poll was still held (one connection open, its FETCH unanswered).
    expect(server.connections().open).toBe(1);
    expect(await round).toBe(1);
    expect(server.connections()).toMatchObject({ open: 0, total: 1 });
    expect(await inbound(attacker.organizationId)).toHaveLength(0);
  });

  it.each(["greeting", "login", "search", "fetch"] as const)("bounds a server that answers one byte at a time at its %s", async (phase) => {
    const server = await hostile({
      dribble: phase,
      dribbleMs: 100,
      messages: [{ uid: 1, raw: rawReply({ from: "a@b.c", to: USER, subject: "x", inReplyTo: "<x@y>" }) }],
    });
    const attacker = await tenant(server);
    const polling = pollInbox(asImapInbox(attacker.inboxes[0]), { limits: { commandTimeoutMs: 1_000, deadlineMs: 60_000 } });
    await expect(polling).rejects.toBeInstanceOf(PollLimitError);
    await expect(polling).rejects.toThrow(/took longer than 1000 ms/);
    await waitUntil(() => server.connections().open === 0, 10_000, "the connection to close");
  });

  it("ends a poll at its deadline when each answer comes just within the command timeout", async () => {
    const attacker = await tenant(NOWHERE);
    // 500 messages: ten batches, each a FETCH of headers and one of messages, 300 ms each, past the deadline.
    const messages = Array.from({ length: 500 }, (_, i) => ({ uid: i + 1, raw: rawReply({ from: "a@b.c", to: USER, subject: "x", inReplyTo: `<${i}@y>` }) }));
    const server = await hostile({ delayMs: 300, messages });
    const polling = pollInbox({ ...asImapInbox(attacker.inboxes[0]), imap_port: server.port }, { limits: { commandTimeoutMs: 2_000, deadlineMs: 3_000 } });
    await expect(polling).rejects.toThrow(/deadline \(3000 ms\)/);
    await waitUntil(() => server.connections().open === 0, 10_000, "the connection to close");
    // Messages handled before the deadline stay handled; the next poll continues after them.
    const row = await db.inbox.findUniqueOrThrow({ where: { id: attacker.inboxes[0].id } });
    expect(row.imap_last_uid ?? 0).toBeLessThan(500);
  });

  it("cuts off a server that floods a poll with answers nobody asked for at the poll's byte cap", async () => {
    const server = await hostile({ flood: true });
    const attacker = await tenant(server);
    const polling = pollInbox(asImapInbox(attacker.inboxes[0]), {
      limits: { commandTimeoutMs: 60_000, deadlineMs: 60_000, pollMaxBytes: 1 * MB, messageMaxBytes: 256 * 1024 },
    });
    await expect(polling).rejects.toThrow(/sent more than 1048576 bytes in one poll/);
    await waitUntil(() => server.connections().open === 0, 10_000, "the connection to close");
    expect(server.bytesWritten()).toBeLessThan(64 * MB);
  });

  it("gives one organization at most IMAP_ORGANIZATION_POLLS polls at a time, so its slow inboxes cannot take every slot", async () => {
    const server = await hostile({ dribble: "greeting" });
    const attacker = await tenant(server, 4);
    const honest = await honestTenant();
    const limits = { concurrency: 3, organizationPolls: 2, commandTimeoutMs: 8_000, deadlineMs: 30_000 };
    const organizationIds = [attacker.organizationId, honest.organizationId];
    // Three rounds at once, as three workers would run them: the third finds the attacker at its two polls.
    const rounds = [1, 2, 3].map(() => pollReplies({ organizationIds, intervalMs: 0, limits }));
    // The attacker's two connections may open after the honest reply is recorded on a loaded machine
    // (its rounds claim first, the sockets come later): wait for both, then check it never had a third.
    await waitUntil(
      async () => (await inbound(honest.organizationId)).length === 1 && server.connections().open === 2,
      30_000,
      "the honest organization's reply beside the attacker's two polls",
    );
    expect(server.connections()).toMatchObject({ open: 2, total: 2 });
    expect((await Promise.all(rounds)).reduce((a, b) => a + b)).toBe(1);
    expect(server.connections()).toMatchObject({ total: 2, mostOpen: 2 });
    // Its polls over, the organization's next inboxes are due.
    await pollReplies({ organizationIds: [attacker.organizationId], intervalMs: 0, limits: { ...limits, commandTimeoutMs: 500 } });
    expect(server.connections().total).toBe(3);
  });

  it("gives an organization a second poll only when no organization without one has an inbox due", async () => {
    const server = await hostile({ dribble: "greeting" });
    const attacker = await tenant(server, 2);
    const honest = await honestTenant();
    // One lane a round, as a worker's lane claims: the attacker's inboxes were never polled, so one of them goes first.
    const lane = (intervalMs = 0) =>
      pollReplies({
        organizationIds: [attacker.organizationId, honest.organizationId],
        intervalMs,
        limits: { concurrency: 1, organizationPolls: 2, commandTimeoutMs: 8_000, deadlineMs: 30_000 },
      });
    const first = lane();
    await waitUntil(() => server.connections().open === 1, 10_000, "the attacker's first poll");
    // The next lane goes to the honest organization, though the attacker's other inbox is due and was polled longer ago.
    expect(await lane()).toBe(1);
    expect(server.connections().total).toBe(1);
    // The honest inbox just polled is not due within a minute: the lane is the attacker's second.
    const third = lane(60_000);
    await waitUntil(() => server.connections().open === 2, 10_000, "the attacker's second poll");
    expect(await Promise.all([first, third])).toEqual([0, 0]);
  });

  it("reads at most the per-message cap of a huge message, skips it when the server sends it anyway, and reads the next", async () => {
    const attacker = await tenant(NOWHERE);
    const server = await hostile({
      messages: [
        { uid: 1, headers: replyHeaders(attacker.ann), bodyBytes: 64 * MB },
        // A newsletter: not a reply, so its body is never asked for.
        { uid: 2, headers: rawReply({ from: "news@shop.example", to: USER, subject: "Sale", body: "" }), bodyBytes: 8 * MB },
        { uid: 3, raw: rawReply({ from: attacker.people.Bob.email, to: USER, subject: "Re: Quick question", inReplyTo: attacker.bob.message_id }) },
      ],
    });
    await db.inbox.update({ where: { id: attacker.inboxes[0].id }, data: { imap_port: server.port } });
    const organizationIds = [attacker.organizationId];
    await pollReplies({ organizationIds, intervalMs: 0 });
    expect(server.bytesWritten()).toBeLessThan(8 * MB);
    expect((await db.inbox.findUniqueOrThrow({ where: { id: attacker.inboxes[0].id } })).imap_last_uid).toBe(1);

    expect(await pollReplies({ organizationIds, intervalMs: 0 })).toBe(1);
    expect(server.bytesWritten()).toBeLessThan(8 * MB);
    expect((await db.inbox.findUniqueOrThrow({ where: { id: attacker.inboxes[0].id } })).imap_last_uid).toBe(3);
    expect((await inbound(attacker.organizationId)).map((e) => e.parent_email_id)).toEqual([attacker.bob.id]);
    expect(server.commands.filter((c) => /^UID FETCH 2 .*BODY\.PEEK\[\]/i.test(c))).toEqual([]);
  });

  it("records a gigabyte reply from a server that sends what is asked: its headers and the start of its text", async () => {
    const attacker = await tenant(NOWHERE);
    const server = await hostile({ honourPartial: true, messages: [{ uid: 1, headers: replyHeaders(attacker.ann), bodyBytes: 1024 * MB }] });
    await db.inbox.update({ where: { id: attacker.inboxes[0].id }, data: { imap_port: server.port } });
    expect(await pollReplies({ organizationIds: [attacker.organizationId], intervalMs: 0, limits: { messageMaxBytes: 256 * 1024 } })).toBe(1);
    expect(server.bytesWritten()).toBeLessThan(2 * MB);
    const [reply] = await inbound(attacker.organizationId);
    expect(reply).toMatchObject({ parent_email_id: attacker.ann.id, from_email: attacker.people.Ann.email, subject: "Re: Quick question" });
    expect(reply.text_content!.length).toBeGreaterThan(200_000);
    expect(reply.text_content!.length).toBeLessThan(256 * 1024);
    expect((await db.inbox.findUniqueOrThrow({ where: { id: attacker.inboxes[0].id } })).imap_last_uid).toBe(1);
  });

  it("stops a poll at its byte cap and continues in the next", async () => {
    const attacker = await tenant(NOWHERE);
    const messages = Array.from({ length: 10 }, (_, i) => ({
      uid: i + 1,
      headers: rawReply({ from: attacker.people.Ann.email, to: USER, subject: "Re: Quick question", inReplyTo: attacker.ann.message_id, body: "" }),
      bodyBytes: 200 * 1024,
    }));
    const server = await hostile({ honourPartial: true, messages });
    await db.inbox.update({ where: { id: attacker.inboxes[0].id }, data: { imap_port: server.port } });
    const options = { organizationIds: [attacker.organizationId], intervalMs: 0, limits: { pollMaxBytes: 700 * 1024, messageMaxBytes: 256 * 1024 } };
    const perPoll: number[] = [];
    let before = 0;
    while (perPoll.reduce((a, b) => a + b, 0) < 10 && perPoll.length < 20) {
      perPoll.push(await pollReplies(options));
      expect(server.bytesWritten() - before).toBeLessThan(700 * 1024 + 256 * 1024 + 64 * 1024);
      before = server.bytesWritten();
    }
    expect(perPoll[0]).toBeGreaterThan(0);
    expect(perPoll[0]).toBeLessThan(10);
    expect(perPoll.reduce((a, b) => a + b, 0)).toBe(10);
    expect((await db.inbox.findUniqueOrThrow({ where: { id: attacker.inboxes[0].id } })).imap_last_uid).toBe(10);
  });

  it("keeps a report's machine-readable parts and a reply's start when a real server's message passes the cap", async () => {
    const user = mailboxes[nextMailbox++];
    const honest = await tenant(dovecot, 1, user);
    const big = "y".repeat(76) + "\r\n";
    const dsn = [
      `From: MAILER-DAEMON@mx.example.net`,
      `To: ${USER}`,
      `Subject: Undelivered Mail Returned to Sender`,
      `Message-ID: <${randomUUID()}@mx.example.net>`,
      `MIME-Version: 1.0`,
      `Content-Type: multipart/report; report-type=delivery-status; boundary="b1"`,
      ``,
      `--b1`,
      `Content-Type: text/plain`,
      ``,
      `Your message could not be delivered.`,
      `--b1`,
      `Content-Type: message/delivery-status`,
      ``,
      `Reporting-MTA: dns; mx.example.net`,
      ``,
      `Final-Recipient: rfc822; ${honest.people.Ann.email}`,
      `Action: failed`,
      `Status: 5.1.1`,
      ``,
      `--b1`,
      `Content-Type: message/rfc822`,
      ``,
      `Message-ID: ${honest.ann.message_id}`,
      `From: ${USER}`,
      `Subject: Quick question`,
      ``,
      big.repeat(40_000),
      `--b1--`,
      ``,
    ].join("\r\n");
    await deliver(
      user,
      dsn,
      rawReply({
        from: honest.people.Bob.email,
        to: USER,
        subject: "Re: Quick question",
        inReplyTo: honest.bob.message_id,
        body: `Yes!\r\n${big.repeat(40_000)}`,
      }),
    );
    expect(await pollReplies({ organizationIds: [honest.organizationId], intervalMs: 0 })).toBe(1);
    const [reply] = await inbound(honest.organizationId);
    expect(reply).toMatchObject({ parent_email_id: honest.bob.id });
    expect(reply.text_content).toMatch(/^Yes!/);
    const [report] = await db.feedbackReport.findMany({ where: { organization_id: honest.organizationId, source: "imap" } });
    expect(report.raw!.length).toBeLessThanOrEqual(256 * 1024);
    while ((await processFeedbackReports({ organizationId: honest.organizationId })) > 0);
    expect(await db.email.findUniqueOrThrow({ where: { id: honest.ann.id } })).toMatchObject({ status: "bounced", bounce_status: "5.1.1" });
    expect((await db.inbox.findUniqueOrThrow({ where: { id: honest.inboxes[0].id } })).imap_last_uid).toBe(2);
  });
});
