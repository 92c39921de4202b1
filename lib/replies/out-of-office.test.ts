import { ImapFlow } from "imapflow";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sealSecret } from "@/lib/crypto/secret-box";
import { db } from "@/lib/db";
import { placeWindowedEmails, releaseWaitingBroadcastEmails } from "@/lib/sending/windows";
import { dispatchSequenceSteps } from "@/lib/sequences/dispatch";
import { createTestOrg } from "@/lib/testing/api";
import { dovecotAvailable, startDovecot, type Dovecot } from "@/lib/testing/dovecot";
import { manualClock } from "@/lib/testing/manual-clock";
import { addContacts, addInbox, addSegment, addSentFirstEmail, addSequencedBroadcast, rawReply } from "@/lib/testing/sequence-fixtures";
import { pollReplies } from "./poll-replies";

const USER = "rep@sales.example.com";
const PASSWORD = "imap-password";
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const DAY = 86_400_000;

describe.skipIf(!dovecotAvailable())("out-of-office answers read over IMAP (dovecot)", () => {
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

  it("holds the next step until the return date the answer gives, while a real reply still ends the sequence", async () => {
    const org = await createTestOrg();
    const organizationId = org.organizationId;
    const inbox = await addInbox(organizationId, {
      imap: { host: dovecot.host, port: dovecot.port, username: USER, password_encrypted: sealSecret(PASSWORD) },
    });
    const people = await addContacts(organizationId, ["Kim", "Lee", "Max"]);
    await db.contact.update({ where: { id: people.Kim.id }, data: { timezone: "Europe/Berlin" } });
    const broadcast = await addSequencedBroadcast({
      organizationId,
      segmentId: await addSegment(organizationId, "A", [people.Kim.id, people.Lee.id, people.Max.id]),
      inboxId: inbox.id,
      steps: [{ delay_minutes: 60 }],
    });
    const kim = await addSentFirstEmail(broadcast, people.Kim, 10);
    const lee = await addSentFirstEmail(broadcast, people.Lee, 10);
    await addSentFirstEmail(broadcast, people.Max, 10);

    // "back on <a day ten days from now>", as a person writes it.
    const back = new Date(Date.now() + 10 * DAY);
    const backText = `${back.getUTCDate()} ${MONTHS[back.getUTCMonth()]}`;
    const outOfOffice = (to: { email: string; message_id: string }, body: string) =>
      rawReply({
        from: to.email,
        to: USER,
        subject: "Automatic reply: Quick question",
        inReplyTo: to.message_id,
        references: [to.message_id],
        headers: ["Auto-Submitted: auto-replied", "X-Auto-Response-Suppress: All"],
        body,
      });
    await deliver(
      outOfOffice({ email: people.Kim.email, message_id: kim.message_id }, `Thank you for your message. I am out of the office and back on ${backText}.`),
      outOfOffice({ email: people.Lee.email, message_id: lee.message_id }, "I am travelling with limited access to email."),
    );
    expect(await pollReplies({ organizationIds: [organizationId], intervalMs: 0 })).toBe(0);

    // Kept in the threads, not replies: nobody left the sequence, nothing counted.
    const answers = await db.email.findMany({ where: { organization_id: organizationId, direction: "inbound" } });
    expect(answers.map((a) => a.thread_id).sort()).toEqual([kim.thread_id, lee.thread_id].sort());
    expect((await db.broadcast.findUniqueOrThrow({ where: { id: broadcast.id } })).replied_count).toBe(0);
    expect((await db.email.findUniqueOrThrow({ where: { id: kim.id } })).replied_at).toBeNull();
    // The unified inbox shows both threads as out of office: the same detector as the hold.
    const category = async (threadId: string | null) => (await db.thread.findUniqueOrThrow({ where: { id: threadId! } })).category;
    expect([await category(kim.thread_id), await category(lee.thread_id)]).toEqual(["out_of_office", "out_of_office"]);

    // Kim is back at the start of that day in Berlin; Lee gave no date: a week.
    const kimBack = (await db.contact.findUniqueOrThrow({ where: { id: people.Kim.id } })).away_until!;
    expect(kimBack.toLocaleString("en-GB", { timeZone: "Europe/Berlin", day: "numeric", month: "long", hour: "2-digit", minute: "2-digit" })).toBe(
      `${backText} at 00:00`,
    );
    const leeBack = (await db.contact.findUniqueOrThrow({ where: { id: people.Lee.id } })).away_until!;
    expect(Math.abs(leeBack.getTime() - (Date.now() + 7 * DAY))).toBeLessThan(10 * 60_000);

    // The step falls due: Max gets it; Kim's and Lee's are scheduled until they are back.
    const clock = manualClock(new Date(Date.now() + 2 * 3_600_000));
    expect(await dispatchSequenceSteps({ organizationId, now: clock() })).toBe(3);
    const followUp = (contactId: string) => db.email.findFirstOrThrow({ where: { broadcast_id: broadcast.id, contact_id: contactId, sequence_position: 1 } });
    expect(await followUp(people.Max.id)).toMatchObject({ status: "queued" });
    const kimHeld = await followUp(people.Kim.id);
    expect(kimHeld).toMatchObject({ status: "scheduled", scheduled_at: kimBack });
    const seen = await org.owner.api.get(`/v1/emails/${kimHeld.id}`);
    expect(seen.body).toMatchObject({ status: "scheduled", scheduled_at: kimBack.toISOString() });
    const status = await org.owner.api.get(`/v1/broadcasts/${broadcast.id}/status`);
    expect(status.body.reasons).toContainEqual({
      code: "OUT_OF_OFFICE",
      message: `2 follow-ups are held until the recipient is back from out of office; the first at ${leeBack.toISOString()}.`,
      resumes_at: leeBack.toISOString(),
    });

    // Lee answers for real while held: the sequence ends for Lee, held email and all.
    await deliver(rawReply({ from: people.Lee.email, to: USER, subject: "Re: Quick question", inReplyTo: lee.message_id, body: "Back early. Tell me more." }));
    expect(await pollReplies({ organizationIds: [organizationId], intervalMs: 0 })).toBe(1);
    expect(await followUp(people.Lee.id)).toMatchObject({ status: "cancelled", last_error: "Left the sequence: replied" });
    expect(await category(lee.thread_id)).toBe("interested");

    // Nothing goes before Kim's return; at it, the follow-up is queued for the sender.
    clock.set(new Date(kimBack.getTime() - 60_000));
    expect(await releaseWaitingBroadcastEmails({ organizationId, now: clock() })).toBe(0);
    clock.set(kimBack);
    expect(await releaseWaitingBroadcastEmails({ organizationId, now: clock() })).toBe(1);
    await placeWindowedEmails({ organizationId, now: clock() });
    expect(await followUp(people.Kim.id)).toMatchObject({ status: "queued", scheduled_at: kimBack });
  });
});
