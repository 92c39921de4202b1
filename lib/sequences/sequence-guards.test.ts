import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { recordRawReply } from "@/lib/replies/record-reply";
import { startBroadcast } from "@/lib/sending/fan-out";
import { createTestOrg } from "@/lib/testing/api";
import { seedSegment } from "@/lib/testing/sending-fixtures";
import { addInbox, addSegment, addSentFirstEmail, addSequencedBroadcast, rawReply } from "@/lib/testing/sequence-fixtures";
import { dispatchSequenceSteps } from "./dispatch";

const person = (organizationId: string, email: string) =>
  db.contact.create({ data: { organization_id: organizationId, email, first_name: email.split("@")[0] }, select: { id: true, email: true } });

describe("sequence guards", () => {
  it("a reply from someone at a company ends the sequence for colleagues at that domain; one at gmail.com does not", async () => {
    const org = await createTestOrg();
    const organizationId = org.organizationId;
    const inbox = await addInbox(organizationId);
    const tag = organizationId.slice(0, 8);
    const [ann, bob, dan, cat, gina, hank] = await Promise.all(
      [`ann@acme-${tag}.test`, `bob@acme-${tag}.test`, `dan@acme-${tag}.test`, `cat@other-${tag}.test`, `gina-${tag}@gmail.com`, `hank-${tag}@gmail.com`].map(
        (email) => person(organizationId, email),
      ),
    );
    const broadcast = await addSequencedBroadcast({
      organizationId,
      segmentId: await addSegment(organizationId, "Prospects", []),
      inboxId: inbox.id,
      steps: [{ delay_minutes: 0 }],
    });
    const first = new Map<string, Awaited<ReturnType<typeof addSentFirstEmail>>>();
    for (const contact of [ann, bob, dan, cat, gina, hank]) first.set(contact.id, await addSentFirstEmail(broadcast, contact, 30));
    // Dan's first email has not gone yet (waiting for the window, say).
    await db.email.update({
      where: { id: first.get(dan.id)!.id },
      data: { status: "scheduled", sent_at: null, scheduled_at: new Date(Date.now() + 3_600_000) },
    });

    const replyFrom = (contact: { email: string; id: string }, from = contact.email) => {
      const original = first.get(contact.id)!;
      return recordRawReply(inbox, rawReply({ from, to: "sam@sales.example.com", subject: "Re: Quick question", inReplyTo: original.message_id }));
    };
    expect((await replyFrom(ann)).result).toBe("stored");
    expect((await replyFrom(gina)).result).toBe("stored");

    // Dan's waiting first email is cancelled at once; the step then leaves Bob out, and Ann and Gina as repliers.
    expect(await db.email.findUniqueOrThrow({ where: { id: first.get(dan.id)!.id } })).toMatchObject({
      status: "cancelled",
      last_error: "Left the sequence: a colleague replied",
    });
    await dispatchSequenceSteps({ organizationId });
    const steps = await db.email.findMany({
      where: { broadcast_id: broadcast.id, sequence_position: 1 },
      select: { contact_id: true, status: true, last_error: true },
    });
    const outcome = (contact: { id: string }) => steps.find((s) => s.contact_id === contact.id);
    expect(outcome(bob)).toMatchObject({ status: "cancelled", last_error: "Left the sequence: a colleague replied" });
    expect(outcome(ann)).toMatchObject({ status: "cancelled", last_error: "Left the sequence: replied" });
    expect(outcome(gina)).toMatchObject({ status: "cancelled", last_error: "Left the sequence: replied" });
    expect(outcome(cat)).toMatchObject({ status: "queued" });
    expect(outcome(hank)).toMatchObject({ status: "queued" });
    expect(outcome(dan)).toBeUndefined();

    const status = await org.owner.api.get(`/v1/broadcasts/${broadcast.id}/status`);
    expect(status.body.reasons).toContainEqual({
      code: "COMPANY_REPLIED",
      message: "2 recipients left the sequence because someone at their company replied.",
    });
  });

  it("does not stop for a company when the broadcast says so", async () => {
    const organizationId = (await createTestOrg()).organizationId;
    const inbox = await addInbox(organizationId);
    const tag = organizationId.slice(0, 8);
    const [ann, bob] = await Promise.all([`ann@initech-${tag}.test`, `bob@initech-${tag}.test`].map((email) => person(organizationId, email)));
    const broadcast = await addSequencedBroadcast({
      organizationId,
      segmentId: await addSegment(organizationId, "P", []),
      inboxId: inbox.id,
      steps: [{ delay_minutes: 0 }],
    });
    await db.broadcast.update({ where: { id: broadcast.id }, data: { stop_on_company_reply: false } });
    const annFirst = await addSentFirstEmail(broadcast, ann, 30);
    await addSentFirstEmail(broadcast, bob, 30);
    await recordRawReply(inbox, rawReply({ from: ann.email, to: "sam@sales.example.com", subject: "Re: Quick question", inReplyTo: annFirst.message_id }));
    await dispatchSequenceSteps({ organizationId });
    expect(await db.email.findFirstOrThrow({ where: { broadcast_id: broadcast.id, contact_id: bob.id, sequence_position: 1 } })).toMatchObject({
      status: "queued",
    });
  });

  it("leaves out a contact already in another active sales sequence, and says so", async () => {
    const org = await createTestOrg();
    const organizationId = org.organizationId;
    const inbox = await addInbox(organizationId);
    const { segmentId, contacts } = await seedSegment(organizationId, [{ first_name: "Pat" }, { first_name: "Quin" }, { first_name: "Rae" }]);
    const [pat, quin, rae] = contacts;
    // Pat is midway through a running sales sequence; Rae answered hers, so it is over for her.
    const running = await addSequencedBroadcast({
      organizationId,
      segmentId: await addSegment(organizationId, "Old", []),
      inboxId: inbox.id,
      steps: [{ delay_minutes: 60 }],
    });
    await addSentFirstEmail(running, pat, 5);
    const raeFirst = await addSentFirstEmail(running, rae, 5);
    await db.email.update({ where: { id: raeFirst.id }, data: { replied_at: new Date() } });

    const create = async (body: Record<string, unknown>) => {
      const created = await org.owner.api.post("/v1/broadcasts", {
        name: "New",
        subject: "Hi",
        from_email: inbox.from_email,
        inbox_id: inbox.id,
        html_content: "<p>Hi</p>",
        segment_id: segmentId,
        ...body,
      });
      const id = created.body.id as string;
      await org.owner.api.post(`/v1/broadcasts/${id}/steps`, { delay_minutes: 60, text_content: "Bump" });
      expect((await org.owner.api.post(`/v1/broadcasts/${id}/send`, {})).status).toBe(200);
      expect(await startBroadcast(id)).toBe("started");
      return id;
    };
    const sales = await create({ sequence_mode: "sales" });
    const rows = await db.email.findMany({ where: { broadcast_id: sales }, select: { contact_id: true, status: true, last_error: true, thread_id: true } });
    const of = (contact: { id: string }) => rows.find((r) => r.contact_id === contact.id);
    expect(of(pat)).toMatchObject({ status: "cancelled", last_error: "Left out: already in another active sales sequence", thread_id: null });
    expect(of(quin)).toMatchObject({ status: "queued" });
    expect(of(rae)).toMatchObject({ status: "queued" });
    expect((await db.broadcast.findUniqueOrThrow({ where: { id: sales } })).total_recipients).toBe(2);
    const status = await org.owner.api.get(`/v1/broadcasts/${sales}/status`);
    expect(status.body.reasons).toContainEqual({
      code: "IN_OTHER_SEQUENCE",
      message: "1 contact was left out: already in another active sales sequence of the organization.",
    });

    // A marketing sequence is not a sales one: everybody gets it.
    const marketing = await create({ sequence_mode: "marketing" });
    expect(await db.email.count({ where: { broadcast_id: marketing, status: "queued" } })).toBe(3);
  });
});
