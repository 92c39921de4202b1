import { beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { recordRawReply } from "@/lib/replies/record-reply";
import { createTestOrg } from "@/lib/testing/api";
import { addContacts, addInbox, addSegment, addSentFirstEmail, addSequencedBroadcast, minutesAgo, rawReply } from "@/lib/testing/sequence-fixtures";
import { dispatchSequenceSteps, SEQUENCE_EXIT_PREFIX, sequenceHasPendingWork } from "./dispatch";

const emailsAt = (broadcastId: string, position: number) =>
  db.email.findMany({ where: { broadcast_id: broadcastId, sequence_position: position }, orderBy: { to_email: "asc" } });

const rowFor = async (broadcastId: string, position: number, contactId: string) =>
  db.email.findFirst({ where: { broadcast_id: broadcastId, sequence_position: position, contact_id: contactId } });

describe("sequence step dispatch", () => {
  let organizationId: string;
  let inboxId: string;

  beforeEach(async () => {
    organizationId = (await createTestOrg()).organizationId;
    inboxId = (await addInbox(organizationId)).id;
  });

  it("sends a two-step sales sequence to the right people, with a reply and an unsubscribe in between", async () => {
    const people = await addContacts(organizationId, ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]);
    const all = Object.values(people).map((c) => c.id);
    const audience = await addSegment(organizationId, "Audience", all);
    const customers = await addSegment(organizationId, "Customers", [people.Dan.id]);
    const required = await addSegment(
      organizationId,
      "Still prospects",
      all.filter((id) => id !== people.Eve.id),
    );
    const broadcast = await addSequencedBroadcast({
      organizationId,
      segmentId: audience,
      inboxId,
      subject: "Quick question, Ann",
      exitConditions: { exit_if_in_segment_ids: [customers], exit_if_not_in_segment_ids: [required] },
      steps: [{ delay_minutes: 60, subject: "ignored in sales mode" }, { delay_minutes: 120 }],
    });
    const [step1, step2] = broadcast.steps;
    const first: Record<string, Awaited<ReturnType<typeof addSentFirstEmail>>> = {};
    for (const name of ["Ann", "Bob", "Cat", "Dan", "Eve"]) first[name] = await addSentFirstEmail(broadcast, people[name], 90);
    // Fay's first email went out only 30 minutes ago: not due for step 1 yet.
    first.Fay = await addSentFirstEmail(broadcast, people.Fay, 30);

    // Ann replies to the first email before step 1 falls due.
    const inbox = { id: inboxId, organization_id: organizationId };
    const reply = await recordRawReply(
      inbox,
      rawReply({ from: people.Ann.email, to: "sam@sales.example.com", subject: "Re: Quick question, Ann", inReplyTo: first.Ann.message_id }),
    );
    expect(reply.result).toBe("stored");

    expect(await dispatchSequenceSteps({ organizationId })).toBe(5);

    // Bob and Cat are still in: a threaded reply to their first email, queued, same inbox.
    for (const name of ["Bob", "Cat"]) {
      const followUp = (await rowFor(broadcast.id, 1, people[name].id))!;
      expect(followUp).toMatchObject({
        status: "queued",
        step_id: step1.id,
        subject: "Re: Quick question, Ann",
        to_email: people[name].email,
        from_email: "sam@sales.example.com",
        from_name: "Sam",
        inbox_id: inboxId,
        thread_id: first[name].thread_id,
        parent_email_id: first[name].id,
        in_reply_to: first[name].message_id,
        references: [first[name].message_id],
        direction: "outbound",
      });
      expect(followUp.message_id).toBe(`<${followUp.id}@sales.example.com>`);
      expect(followUp.message_id).not.toBe(first[name].message_id);
    }
    // The others left, each for their reason, and the decision is kept as a cancelled row.
    const left = { Ann: "replied", Dan: "in an exit segment", Eve: "not in a required segment" };
    for (const [name, reason] of Object.entries(left)) {
      const row = (await rowFor(broadcast.id, 1, people[name].id))!;
      expect(row.status, name).toBe("cancelled");
      expect(row.last_error).toBe(`${SEQUENCE_EXIT_PREFIX}${reason}`);
      expect(row.thread_id).toBeNull();
    }
    expect(await rowFor(broadcast.id, 1, people.Fay.id)).toBeNull();
    let b = await db.broadcast.findUniqueOrThrow({ where: { id: broadcast.id } });
    expect(b.total_recipients).toBe(6 + 2);
    expect(b.replied_count).toBe(1);

    // Running again changes nothing: nothing new is due.
    expect(await dispatchSequenceSteps({ organizationId })).toBe(0);
    expect(await sequenceHasPendingWork(broadcast.id)).toBe(true);

    // Time passes: Bob's and Cat's follow-ups go out; Fay's first email is now due for step 1.
    await db.email.updateMany({
      where: { broadcast_id: broadcast.id, sequence_position: 1, status: "queued" },
      data: { status: "sent", sent_at: minutesAgo(150) },
    });
    await db.email.update({ where: { id: first.Fay.id }, data: { sent_at: minutesAgo(61) } });
    // Cat unsubscribes before step 2.
    await db.contact.update({ where: { id: people.Cat.id }, data: { subscribed: false, unsubscribed_at: new Date() } });

    expect(await dispatchSequenceSteps({ organizationId })).toBe(3);

    const bobStep2 = (await rowFor(broadcast.id, 2, people.Bob.id))!;
    const bobStep1 = (await rowFor(broadcast.id, 1, people.Bob.id))!;
    expect(bobStep2).toMatchObject({
      status: "queued",
      step_id: step2.id,
      subject: "Re: Quick question, Ann",
      thread_id: first.Bob.thread_id,
      parent_email_id: bobStep1.id,
      in_reply_to: bobStep1.message_id,
      references: [first.Bob.message_id, bobStep1.message_id],
      inbox_id: inboxId,
    });
    expect(await rowFor(broadcast.id, 2, people.Cat.id)).toMatchObject({ status: "cancelled", last_error: `${SEQUENCE_EXIT_PREFIX}unsubscribed` });
    expect(await rowFor(broadcast.id, 1, people.Fay.id)).toMatchObject({ status: "queued", in_reply_to: first.Fay.message_id });
    // Nobody who left gets a later step.
    for (const name of ["Ann", "Dan", "Eve"]) expect(await rowFor(broadcast.id, 2, people[name].id)).toBeNull();

    // Step 1 has reached everyone it can; step 2 waits for Fay's follow-up.
    const steps = await db.sequenceStep.findMany({ where: { broadcast_id: broadcast.id }, orderBy: { position: "asc" } });
    expect(steps[0].dispatched_at).toBeInstanceOf(Date);
    expect(steps[1].dispatched_at).toBeNull();

    // Bob replies to step 1 while step 2 waits in the queue: it is cancelled at once.
    await recordRawReply(
      inbox,
      rawReply({
        from: people.Bob.email,
        to: "sam@sales.example.com",
        subject: "Re: Quick question, Ann",
        inReplyTo: bobStep1.message_id,
        references: [first.Bob.message_id, bobStep1.message_id],
      }),
    );
    expect(await rowFor(broadcast.id, 2, people.Bob.id)).toMatchObject({ status: "cancelled", last_error: `${SEQUENCE_EXIT_PREFIX}replied` });
    b = await db.broadcast.findUniqueOrThrow({ where: { id: broadcast.id } });
    expect(b.replied_count).toBe(2);
    expect(b.total_recipients).toBe(6 + 2 + 2 - 1);

    // Fay's step 1 bounces: she never gets step 2, and the sequence is done.
    await db.email.updateMany({
      where: { broadcast_id: broadcast.id, sequence_position: 1, contact_id: people.Fay.id },
      data: { status: "bounced", bounced_at: new Date() },
    });
    expect(await dispatchSequenceSteps({ organizationId })).toBe(0);
    expect(await rowFor(broadcast.id, 2, people.Fay.id)).toBeNull();
    expect(await sequenceHasPendingWork(broadcast.id)).toBe(false);
    expect((await emailsAt(broadcast.id, 2)).map((e) => e.status).sort()).toEqual(["cancelled", "cancelled"]);
  });

  it("sends marketing steps as fresh standalone emails with the step's subject", async () => {
    const people = await addContacts(organizationId, ["Gus", "Hal"]);
    const audience = await addSegment(organizationId, "Audience", [people.Gus.id, people.Hal.id]);
    const broadcast = await addSequencedBroadcast({
      organizationId,
      segmentId: audience,
      inboxId,
      mode: "marketing",
      steps: [{ delay_minutes: 10, subject: "Did you see our {{first_name|new}} offer?" }, { delay_minutes: 10 }],
    });
    const gus = await addSentFirstEmail(broadcast, people.Gus, 20);
    const hal = await addSentFirstEmail(broadcast, people.Hal, 20);
    // Hal is suppressed meanwhile (a complaint elsewhere, say).
    await db.suppression.create({ data: { organization_id: organizationId, email: people.Hal.email, reason: "complaint" } });

    expect(await dispatchSequenceSteps({ organizationId })).toBe(2);

    const step = (await rowFor(broadcast.id, 1, people.Gus.id))!;
    expect(step).toMatchObject({
      status: "queued",
      subject: "Did you see our {{first_name|new}} offer?",
      parent_email_id: null,
      in_reply_to: null,
      references: [],
      inbox_id: inboxId,
      from_email: "sam@sales.example.com",
    });
    expect(step.thread_id).not.toBeNull();
    expect(step.thread_id).not.toBe(gus.thread_id);
    const thread = await db.thread.findUniqueOrThrow({ where: { id: step.thread_id! } });
    expect(thread).toMatchObject({ organization_id: organizationId, contact_id: people.Gus.id, broadcast_id: broadcast.id, inbox_id: inboxId });
    expect(await rowFor(broadcast.id, 1, people.Hal.id)).toMatchObject({ status: "cancelled", last_error: `${SEQUENCE_EXIT_PREFIX}suppressed` });
    expect(hal.thread_id).not.toBeNull();

    // A step without a subject of its own takes the broadcast's.
    await db.email.update({ where: { id: step.id }, data: { status: "sent", sent_at: minutesAgo(11) } });
    await dispatchSequenceSteps({ organizationId });
    expect((await rowFor(broadcast.id, 2, people.Gus.id))!.subject).toBe("Quick question");
    expect(await sequenceHasPendingWork(broadcast.id)).toBe(false);
  });

  it("leaves other broadcasts alone: drafts, cancelled ones, and those of other organizations", async () => {
    const people = await addContacts(organizationId, ["Ida"]);
    const audience = await addSegment(organizationId, "Audience", [people.Ida.id]);
    const broadcast = await addSequencedBroadcast({ organizationId, segmentId: audience, inboxId, steps: [{ delay_minutes: 0 }] });
    await addSentFirstEmail(broadcast, people.Ida, 5);
    await db.broadcast.update({ where: { id: broadcast.id }, data: { status: "cancelled" } });
    expect(await dispatchSequenceSteps({ organizationId })).toBe(0);

    await db.broadcast.update({ where: { id: broadcast.id }, data: { status: "sending" } });
    const elsewhere = (await createTestOrg()).organizationId;
    expect(await dispatchSequenceSteps({ organizationId: elsewhere })).toBe(0);
    expect(await rowFor(broadcast.id, 1, people.Ida.id)).toBeNull();

    // A broadcast that was marked sent goes back to sending when a follow-up falls due.
    await db.broadcast.update({ where: { id: broadcast.id }, data: { status: "sent", completed_at: new Date() } });
    expect(await dispatchSequenceSteps({ organizationId })).toBe(1);
    expect(await db.broadcast.findUniqueOrThrow({ where: { id: broadcast.id } })).toMatchObject({ status: "sending", completed_at: null });
  });

  it("keeps step 1 open while the first emails are still being created in chunks", async () => {
    const people = await addContacts(organizationId, ["Jo", "Kim"]);
    const audience = await addSegment(organizationId, "Audience", [people.Jo.id, people.Kim.id]);
    const broadcast = await addSequencedBroadcast({ organizationId, segmentId: audience, inboxId, steps: [{ delay_minutes: 0 }], fannedOut: false });
    await addSentFirstEmail(broadcast, people.Jo, 5);
    expect(await dispatchSequenceSteps({ organizationId })).toBe(1);
    expect(await sequenceHasPendingWork(broadcast.id)).toBe(true);

    // Kim's first email comes with the last chunk; only then can step 1 be done.
    await addSentFirstEmail(broadcast, people.Kim, 5);
    await db.broadcast.update({ where: { id: broadcast.id }, data: { fanned_out_at: new Date() } });
    expect(await dispatchSequenceSteps({ organizationId })).toBe(1);
    expect(await rowFor(broadcast.id, 1, people.Kim.id)).toMatchObject({ status: "queued" });
    await db.email.updateMany({ where: { broadcast_id: broadcast.id, sequence_position: 1 }, data: { status: "sent", sent_at: new Date() } });
    await dispatchSequenceSteps({ organizationId });
    expect(await sequenceHasPendingWork(broadcast.id)).toBe(false);
  });

  it("never creates a follow-up twice when dispatchers run at the same time", async () => {
    const names = Array.from({ length: 40 }, (_, i) => `P${i}`);
    const people = await addContacts(organizationId, names);
    const audience = await addSegment(
      organizationId,
      "Audience",
      Object.values(people).map((c) => c.id),
    );
    const broadcast = await addSequencedBroadcast({ organizationId, segmentId: audience, inboxId, steps: [{ delay_minutes: 1 }] });
    for (const name of names) await addSentFirstEmail(broadcast, people[name], 2);

    const results = await Promise.all(Array.from({ length: 4 }, () => dispatchSequenceSteps({ organizationId, batchSize: 15 })));
    let total = results.reduce((a, b) => a + b, 0);
    while (total < names.length) {
      const more = await dispatchSequenceSteps({ organizationId, batchSize: 15 });
      expect(more).toBeGreaterThan(0);
      total += more;
    }
    expect(total).toBe(names.length);
    expect(await emailsAt(broadcast.id, 1)).toHaveLength(names.length);
    expect((await db.broadcast.findUniqueOrThrow({ where: { id: broadcast.id } })).total_recipients).toBe(names.length * 2);
    expect(await sequenceHasPendingWork(broadcast.id)).toBe(false);
  });
});
