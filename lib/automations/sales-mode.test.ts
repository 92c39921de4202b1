import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { recordRawReply } from "@/lib/replies/record-reply";
import { createSender } from "@/lib/sending/sender";
import { createTestOrg } from "@/lib/testing/api";
import { activeAutomation, announceEvent, engineClock, runsOf, settle } from "@/lib/testing/automation-fixtures";
import { drain, seedSegment, sinkInbox } from "@/lib/testing/sending-fixtures";
import { rawReply } from "@/lib/testing/sequence-fixtures";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";

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

describe("a sales-mode automation", () => {
  it("sends each run's emails from one inbox in rotation, threads the follow-ups, and stops at a reply", async () => {
    const clock = engineClock();
    const org = await createTestOrg();
    const organizationId = org.organizationId;
    const first = await sinkInbox(organizationId, sink, { from_email: "rep-a@acme.test", from_name: "Rep A" });
    const second = await sinkInbox(organizationId, sink, { from_email: "rep-b@acme.test", from_name: "Rep B" });
    const { contacts } = await seedSegment(organizationId, [
      { email: "quinn@prospects.test", first_name: "Quinn" },
      { email: "riley@prospects.test", first_name: "Riley" },
      { email: "sky@prospects.test", first_name: "Sky" },
    ]);
    const [quinn, riley, sky] = contacts;
    const automation = await activeAutomation(org, {
      name: "Evergreen outreach",
      sequence_mode: "sales",
      inbox_ids: [first.id, second.id],
      trigger: { type: "event", event: "demo_requested" },
      steps: [
        { type: "send_email", subject: "Idea for {{first_name}}", html_content: "<p>Hi {{first_name}}</p>" },
        { type: "wait", minutes: 60 },
        { type: "send_email", subject: "ignored: a follow-up replies", html_content: "<p>Following up, {{first_name}}</p>" },
        { type: "wait", minutes: 60 },
        { type: "send_email", subject: "ignored too", html_content: "<p>Last note, {{first_name}}</p>" },
      ],
    });
    // Paced as a broadcast through an inbox is (the inboxes are old: `auto` is `normal`), on a clock 1 000 times faster.
    const sender = createSender({ organizationId, paceScale: 0.001 });
    try {
      for (const contact of contacts) await announceEvent(organizationId, contact.id, "demo_requested");
      await settle(organizationId, clock);
      await drain(sender, organizationId);
      const from = (address: string) => sink.messages.filter((m) => m.envelopeTo.includes(address));
      // Rotation: the n-th run takes inbox_ids[n mod 2].
      const senders = contacts.map((c) => from(c.email)[0].envelopeFrom);
      expect(senders.filter((s) => s === "rep-a@acme.test")).toHaveLength(2);
      expect(senders.filter((s) => s === "rep-b@acme.test")).toHaveLength(1);
      // The paced path took them: each inbox drew its next gap.
      for (const inbox of [first, second]) expect((await db.inbox.findUniqueOrThrow({ where: { id: inbox.id } })).next_send_at).not.toBeNull();

      // Quinn answers the first email: the run ends there.
      const [quinnFirst] = from(quinn.email);
      const reply = await recordRawReply(
        { id: senders[0] === "rep-a@acme.test" ? first.id : second.id, organization_id: organizationId },
        rawReply({ from: quinn.email, to: quinnFirst.envelopeFrom!, subject: `Re: ${quinnFirst.parsed.subject}`, inReplyTo: quinnFirst.parsed.messageId }),
      );
      expect(reply.result).toBe("stored");
      const [quinnRun] = await runsOf(org, automation.id, quinn.id);
      expect(quinnRun).toMatchObject({ status: "exited", exit_reason: "replied" });
      // The unified inbox finds the reply's thread by its automation.
      const threads = await org.owner.api.get(`/v1/threads?automation_id=${automation.id}`);
      expect(threads.body.data.map((t: { contact_id: string }) => t.contact_id)).toEqual([quinn.id]);

      clock.advanceMinutes(60);
      await settle(organizationId, clock);
      await drain(sender, organizationId);
      clock.advanceMinutes(60);
      await settle(organizationId, clock);
      await drain(sender, organizationId);

      expect(from(quinn.email)).toHaveLength(1);
      for (const contact of [riley, sky]) {
        const mail = from(contact.email);
        expect(mail).toHaveLength(3);
        const [one, two, three] = mail;
        expect(new Set(mail.map((m) => m.envelopeFrom)).size).toBe(1);
        expect(one.parsed.subject).toBe(`Idea for ${contact.first_name}`);
        expect(two.parsed.subject).toBe(`Re: Idea for ${contact.first_name}`);
        expect(three.parsed.subject).toBe(`Re: Idea for ${contact.first_name}`);
        expect(two.parsed.text).toContain(`Following up, ${contact.first_name}`);
        expect(header(two, "in-reply-to")).toBe(one.parsed.messageId);
        expect(header(two, "references")).toBe(one.parsed.messageId);
        expect(header(three, "in-reply-to")).toBe(two.parsed.messageId);
        expect(header(three, "references")).toBe(`${one.parsed.messageId} ${two.parsed.messageId}`);
        const rows = await db.email.findMany({ where: { automation_id: automation.id, contact_id: contact.id } });
        expect(new Set(rows.map((r) => r.thread_id)).size).toBe(1);
        expect(new Set(rows.map((r) => r.inbox_id)).size).toBe(1);
      }
      const [rileyRun] = await runsOf(org, automation.id, riley.id);
      expect(rileyRun.status).toBe("completed");
    } finally {
      sender.close();
    }
  });
});

describe("a sales-mode automation and an out-of-office answer", () => {
  it("goes on after an automatic reply, holding the next follow-up until the contact is back", async () => {
    const clock = engineClock();
    const org = await createTestOrg();
    const organizationId = org.organizationId;
    const inbox = await sinkInbox(organizationId, sink, { from_email: "rep-c@acme.test", from_name: "Rep C" });
    const { contacts } = await seedSegment(organizationId, [{ email: "tess@prospects.test", first_name: "Tess" }]);
    const [tess] = contacts;
    const automation = await activeAutomation(org, {
      name: "Outreach with holidays",
      sequence_mode: "sales",
      inbox_ids: [inbox.id],
      trigger: { type: "event", event: "demo_requested" },
      steps: [
        { type: "send_email", subject: "Idea for {{first_name}}", html_content: "<p>Hi {{first_name}}</p>" },
        { type: "wait", minutes: 60 },
        { type: "send_email", subject: "follow-up", html_content: "<p>Following up, {{first_name}}</p>" },
      ],
    });
    const sender = createSender({ organizationId, paceScale: 0.001 });
    try {
      await announceEvent(organizationId, tess.id, "demo_requested");
      await settle(organizationId, clock);
      await drain(sender, organizationId);
      const [first] = sink.messages.filter((m) => m.envelopeTo.includes(tess.email));
      const answer = await recordRawReply(
        { id: inbox.id, organization_id: organizationId },
        rawReply({
          from: tess.email,
          to: first.envelopeFrom!,
          subject: `Automatic reply: ${first.parsed.subject}`,
          inReplyTo: first.parsed.messageId,
          headers: ["Auto-Submitted: auto-replied"],
          body: "I am out of the office with limited access to email.",
        }),
      );
      expect(answer.result).toBe("auto_reply");
      const heldUntil = (answer as { heldUntil: Date }).heldUntil;
      expect(heldUntil.getTime()).toBeGreaterThan(Date.now());

      // Not a reply: the run goes on, and its follow-up is created held until the return.
      clock.advanceMinutes(60);
      await settle(organizationId, clock);
      const [run] = await runsOf(org, automation.id, tess.id);
      expect(run.status).toBe("completed");
      const followUp = await db.email.findFirstOrThrow({
        where: { automation_id: automation.id, contact_id: tess.id, automation_step_id: automation.steps[2].id },
      });
      expect(followUp).toMatchObject({ status: "scheduled", scheduled_at: heldUntil, in_reply_to: first.parsed.messageId });
      await drain(sender, organizationId);
      expect(sink.messages.filter((m) => m.envelopeTo.includes(tess.email))).toHaveLength(1);
    } finally {
      sender.close();
    }
  });
});

describe("a sales-mode automation, an out-of-office answer, then a reply", () => {
  it("ends the run at the reply and cancels the follow-up held for the contact's return", async () => {
    const clock = engineClock();
    const org = await createTestOrg();
    const organizationId = org.organizationId;
    const inbox = await sinkInbox(organizationId, sink, { from_email: "rep-d@acme.test", from_name: "Rep D" });
    const { contacts } = await seedSegment(organizationId, [{ email: "uma@prospects.test", first_name: "Uma" }]);
    const [uma] = contacts;
    const automation = await activeAutomation(org, {
      name: "Outreach, back from holidays",
      sequence_mode: "sales",
      inbox_ids: [inbox.id],
      trigger: { type: "event", event: "demo_requested" },
      steps: [
        { type: "send_email", subject: "Idea for {{first_name}}", html_content: "<p>Hi {{first_name}}</p>" },
        { type: "wait", minutes: 60 },
        { type: "send_email", subject: "follow-up", html_content: "<p>Following up, {{first_name}}</p>" },
        { type: "wait", minutes: 60 },
        { type: "send_email", subject: "last", html_content: "<p>Last note, {{first_name}}</p>" },
      ],
    });
    const sender = createSender({ organizationId, paceScale: 0.001 });
    try {
      await announceEvent(organizationId, uma.id, "demo_requested");
      await settle(organizationId, clock);
      await drain(sender, organizationId);
      const [first] = sink.messages.filter((m) => m.envelopeTo.includes(uma.email));
      const answer = (body: string, headers: string[]) =>
        recordRawReply(
          { id: inbox.id, organization_id: organizationId },
          rawReply({ from: uma.email, to: first.envelopeFrom!, subject: `Re: ${first.parsed.subject}`, inReplyTo: first.parsed.messageId, headers, body }),
        );
      expect((await answer("I am out of the office with limited access to email.", ["Auto-Submitted: auto-replied"])).result).toBe("auto_reply");
      clock.advanceMinutes(60);
      await settle(organizationId, clock);
      const step = automation.steps[2].id;
      const held = await db.email.findFirstOrThrow({ where: { automation_id: automation.id, contact_id: uma.id, automation_step_id: step } });
      expect(held.status).toBe("scheduled");

      // Back early, she answers for real: the run ends, and the follow-up waiting for her return goes nowhere.
      expect((await answer("Thanks, let us talk on Tuesday.", [])).result).toBe("stored");
      const [run] = await runsOf(org, automation.id, uma.id);
      expect(run).toMatchObject({ status: "exited", exit_reason: "replied" });
      expect(await db.email.findUniqueOrThrow({ where: { id: held.id } })).toMatchObject({ status: "cancelled", last_error: "Left the automation: replied" });
      const history = await db.automationRunStep.findMany({ where: { run_id: run.id, organization_id: organizationId } });
      expect(history.find((h) => h.step_id === automation.steps[3].id)?.outcome).toBe("exited");
      const events = await db.event.findMany({ where: { organization_id: organizationId, contact_id: uma.id }, orderBy: { occurred_at: "asc" } });
      expect(events.filter((e) => e.name === "email.replied").map((e) => e.automation_id)).toEqual([automation.id]);
      expect(events.find((e) => e.name === "automation.exited")?.properties).toMatchObject({ automation: automation.name, reason: "replied" });
    } finally {
      sender.close();
    }
  });
});
