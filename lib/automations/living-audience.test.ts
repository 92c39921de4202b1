import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createSender, type Sender } from "@/lib/sending/sender";
import { releaseScheduledEmails } from "@/lib/sending/scheduled-emails";
import { placeWindowedEmails } from "@/lib/sending/windows";
import { handleOpen } from "@/lib/tracking/handlers";
import { createTestOrg, type TestOrg } from "@/lib/testing/api";
import { activeAutomation, engineClock, runsOf, settle } from "@/lib/testing/automation-fixtures";
import { dispatchEventsOf } from "@/lib/testing/events";
import { drain, verifiedDomain } from "@/lib/testing/sending-fixtures";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { sweepDynamicSegments } from "./dynamic-segments";

let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(() => sink.close());

const DAY = 1440;
const FROM = "hello@living.test";
const send = (subject: string) => ({
  type: "send_email",
  subject,
  html_content: `<p>${subject}, {{first_name}}. <a href="https://example.com/offer">Offer</a></p>`,
});
const subjectsTo = (address: string) => sink.messages.filter((m) => m.envelopeTo.includes(address)).map((m) => m.parsed.subject);

/** The contact the API made for an address (POST /v1/events creates one for an unknown email). */
const contactOf = (org: TestOrg, email: string) => db.contact.findFirstOrThrow({ where: { organization_id: org.organizationId, email } });

describe("automations on the living audience (black box: the API in, a real SMTP sink out)", () => {
  let org: TestOrg;
  let sender: Sender;
  beforeEach(async () => {
    org = await createTestOrg();
    await verifiedDomain(org.organizationId, "living.test");
    sender = createSender({ organizationId: org.organizationId, relayUrl: `smtp://${sink.host}:${sink.port}` });
    return () => sender.close();
  });

  const postEvent = async (body: Record<string, unknown>, as: TestOrg = org) => {
    const answer = await as.owner.api.post("/v1/events", body);
    expect(answer.status).toBe(202);
    await dispatchEventsOf(as.organizationId);
  };

  it("signed up → welcome → wait 1 day → opened? → yes: offer / no: reminder, with per-step stats, run history and the contact's timeline", async () => {
    const clock = engineClock();
    const created = await org.owner.api.post("/v1/automations", {
      name: "Onboarding",
      from_email: FROM,
      trigger: { type: "event", event: "signed_up" },
      steps: [send("Welcome"), { type: "wait", minutes: DAY }, { type: "condition", filter: { event: "email.opened", op: "happened" }, yes: [], no: [] }],
    });
    expect(created.status).toBe(201);
    // The condition asks about this automation's own emails: its id is known once it exists.
    const [welcome, wait, opened] = created.body.steps;
    const updated = await org.owner.api.put(`/v1/automations/${created.body.id}`, {
      steps: [
        welcome,
        wait,
        {
          ...opened,
          filter: { event: "email.opened", op: "happened", where: { automation_id: created.body.id } },
          yes: [send("Your offer")],
          no: [send("A reminder")],
        },
      ],
    });
    expect(updated.status).toBe(200);
    const automation = (await org.owner.api.post(`/v1/automations/${created.body.id}/activate`)).body;
    const condition = automation.steps[2];

    // Another organization's event of the same name starts nothing here.
    const other = await createTestOrg();
    await postEvent({ name: "signed_up", email: "stranger@readers.test" }, other);

    await postEvent({ name: "signed_up", email: "ann@readers.test", properties: { plan: "free" } });
    await postEvent({ name: "signed_up", email: "bob@readers.test" });
    const [ann, bob] = [await contactOf(org, "ann@readers.test"), await contactOf(org, "bob@readers.test")];
    await db.contact.updateMany({ where: { id: { in: [ann.id, bob.id] } }, data: { first_name: "Friend" } });
    expect(await settle(org.organizationId, clock)).toBe(2);
    await drain(sender, org.organizationId);
    expect(subjectsTo("ann@readers.test")).toEqual(["Welcome"]);
    expect(subjectsTo("bob@readers.test")).toEqual(["Welcome"]);
    expect(subjectsTo("stranger@readers.test")).toEqual([]);

    // Ann opens her welcome email: the pixel in the message she got, through the tracking endpoint.
    const annWelcome = sink.messages.find((m) => m.envelopeTo.includes("ann@readers.test"))!;
    const pixel = /https?:\/\/[^"\s]+\/t\/o\/([A-Za-z0-9_.-]+)/.exec(String(annWelcome.parsed.html))!;
    await handleOpen(new Request(pixel[0], { headers: { "user-agent": "Mozilla/5.0 (Macintosh) AppleWebKit/605.1.15 Safari/605.1.15" } }), pixel[1]);
    await dispatchEventsOf(org.organizationId);

    // A day later (the test's clock, not a sleep), each takes the branch their engagement says.
    clock.advanceMinutes(DAY - 5);
    expect(await settle(org.organizationId, clock)).toBe(0);
    clock.advanceMinutes(5);
    expect(await settle(org.organizationId, clock)).toBe(2);
    await drain(sender, org.organizationId);
    expect(subjectsTo("ann@readers.test")).toEqual(["Welcome", "Your offer"]);
    expect(subjectsTo("bob@readers.test")).toEqual(["Welcome", "A reminder"]);

    const read = (await org.owner.api.get(`/v1/automations/${automation.id}`)).body;
    expect(read.stats).toEqual({ entered: 2, active: 0, completed: 2, exited: 0 });
    expect(read.steps[0].stats).toEqual({ entered: 2, completed: 2, current: 0, sent: 2, opened: 1, clicked: 0 });
    expect(read.steps[1].stats).toEqual({ entered: 2, completed: 2, current: 0 });
    expect(read.steps[2].stats).toEqual({ entered: 2, completed: 2, current: 0 });
    expect(read.steps[2].yes[0].stats).toEqual({ entered: 1, completed: 1, current: 0, sent: 1, opened: 0, clicked: 0 });
    expect(read.steps[2].no[0].stats).toEqual({ entered: 1, completed: 1, current: 0, sent: 1, opened: 0, clicked: 0 });

    const [annRun] = await runsOf(org, automation.id, ann.id);
    expect(annRun.status).toBe("completed");
    expect(annRun.history.map((h) => [h.step_id, h.outcome])).toEqual([
      [welcome.id, "queued"],
      [wait.id, "waited"],
      [condition.id, "yes"],
      [condition.yes[0].id, "queued"],
    ]);
    const [bobRun] = await runsOf(org, automation.id, bob.id);
    expect(bobRun.history.map((h) => [h.step_id, h.outcome])).toEqual([
      [welcome.id, "queued"],
      [wait.id, "waited"],
      [condition.id, "no"],
      [condition.no[0].id, "queued"],
    ]);

    // The contact's timeline (GET /v1/contacts/{id}/events, the contact page's source) shows the run, once each.
    const timeline = (await org.owner.api.get(`/v1/contacts/${ann.id}/events?limit=100`)).body.data as { name: string; properties: Record<string, unknown> }[];
    const steps = timeline.filter((e) => e.name.startsWith("automation.")).reverse();
    expect(steps.map((e) => [e.name, e.properties.outcome ?? null])).toEqual([
      ["automation.entered", null],
      ["automation.send_email", "queued"],
      ["automation.wait", "waited"],
      ["automation.condition", "yes"],
      ["automation.send_email", "queued"],
      ["automation.completed", null],
    ]);
    expect(steps.every((e) => e.properties.automation === "Onboarding")).toBe(true);
    // The email events carry the automation, so conditions and triggers can name it.
    expect(timeline.filter((e) => e.name === "email.opened")).toHaveLength(1);
    expect(await db.event.count({ where: { organization_id: org.organizationId, name: "email.sent", automation_id: automation.id } })).toBe(4);
  });

  it("a dynamic segment's trigger takes contacts who come to match after activation, each once, from their changes and from the sweep", async () => {
    const clock = engineClock();
    const pro = await org.owner.api.post("/v1/segments", { name: "Pro", filter: { field: "metadata.plan", op: "eq", value: "pro" } });
    expect(pro.status).toBe(201);
    const early = await org.owner.api.post("/v1/contacts", { email: "early@pro.test", metadata: { plan: "pro" } });
    const automation = await activeAutomation(org, {
      name: "Welcome to Pro",
      from_email: FROM,
      trigger: { type: "segment_entered", segment_id: pro.body.id },
      steps: [send("Welcome to Pro")],
    });
    await dispatchEventsOf(org.organizationId);

    // A contact created free, then upgraded through the API: its contact.updated makes it enter.
    const late = await org.owner.api.post("/v1/contacts", { email: "late@pro.test", metadata: { plan: "free" } });
    await dispatchEventsOf(org.organizationId);
    expect(await runsOf(org, automation.id)).toEqual([]);
    expect((await org.owner.api.put(`/v1/contacts/${late.body.id}`, { metadata: { plan: "pro" } })).status).toBe(200);
    await dispatchEventsOf(org.organizationId);
    // A new contact that matches from the start enters too; one from before activation never does.
    const fresh = await org.owner.api.post("/v1/contacts", { email: "fresh@pro.test", metadata: { plan: "pro" } });
    await dispatchEventsOf(org.organizationId);
    expect((await runsOf(org, automation.id)).map((r) => r.contact_id).sort()).toEqual([late.body.id, fresh.body.id].sort());

    // The sweep finds nobody new: an entry happens once, whoever sees it first.
    expect(await sweepDynamicSegments({ organizationId: org.organizationId })).toBe(0);
    expect(await settle(org.organizationId, clock)).toBe(2);
    await drain(sender, org.organizationId);
    expect(subjectsTo("late@pro.test")).toEqual(["Welcome to Pro"]);
    expect(subjectsTo("fresh@pro.test")).toEqual(["Welcome to Pro"]);
    expect(subjectsTo("early@pro.test")).toEqual([]);
    expect(early.status).toBe(201);

    // Leaving the segment and coming back is no second entry with `reentry: never`.
    await org.owner.api.put(`/v1/contacts/${late.body.id}`, { metadata: { plan: "free" } });
    await dispatchEventsOf(org.organizationId);
    await org.owner.api.put(`/v1/contacts/${late.body.id}`, { metadata: { plan: "pro" } });
    await dispatchEventsOf(org.organizationId);
    expect(await runsOf(org, automation.id, late.body.id)).toHaveLength(1);
  });

  it("a time-based dynamic segment is entered by the sweep when time makes a contact match", async () => {
    const lapsed = await org.owner.api.post("/v1/segments", {
      name: "Lapsed buyers",
      filter: {
        all: [
          { event: "purchase", op: "happened" },
          { event: "purchase", op: "not_happened", within_days: 30 },
        ],
      },
    });
    const automation = await activeAutomation(org, {
      name: "Win back",
      from_email: FROM,
      trigger: { type: "segment_entered", segment_id: lapsed.body.id },
      steps: [send("We miss you")],
    });
    await postEvent({ name: "purchase", email: "buyer@shop.test" });
    const buyer = await contactOf(org, "buyer@shop.test");
    // Bought today: not lapsed, whether judged on the event or by the sweep.
    expect(await sweepDynamicSegments({ organizationId: org.organizationId })).toBe(0);
    expect(await runsOf(org, automation.id)).toEqual([]);
    // 31 days on, nothing happened to announce: the sweep sees the contact match and it enters, once.
    const later = new Date(Date.now() + 31 * DAY * 60_000);
    expect(await sweepDynamicSegments({ organizationId: org.organizationId, now: later })).toBe(1);
    expect(await sweepDynamicSegments({ organizationId: org.organizationId, now: later })).toBe(0);
    expect((await runsOf(org, automation.id)).map((r) => r.contact_id)).toEqual([buyer.id]);
  });

  it("waits for its sending window: a send step's email goes at the next opening in the automation's zone", async () => {
    const clock = engineClock();
    // Only the weekday three days from now, 09:00-17:00 UTC: closed today, whatever the time.
    const opensOn = new Date(Date.now() + 3 * DAY * 60_000);
    const weekday = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"][opensOn.getUTCDay()];
    const automation = await activeAutomation(org, {
      name: "Office hours",
      from_email: FROM,
      sending_window: { days: [weekday], start: "09:00", end: "17:00", timezone: "UTC" },
      trigger: { type: "event", event: "asked" },
      steps: [send("Answer")],
    });
    expect(automation.sending_window).toEqual({ days: [weekday], start: "09:00", end: "17:00", timezone: "UTC" });
    await postEvent({ name: "asked", email: "visitor@office.test" });
    await settle(org.organizationId, clock);
    expect(await placeWindowedEmails({ now: clock(), organizationId: org.organizationId })).toBe(1);
    const opening = new Date(Date.UTC(opensOn.getUTCFullYear(), opensOn.getUTCMonth(), opensOn.getUTCDate(), 9));
    const [held] = await db.email.findMany({ where: { automation_id: automation.id } });
    expect(held).toMatchObject({ status: "scheduled", scheduled_at: opening });
    await drain(sender, org.organizationId);
    expect(subjectsTo("visitor@office.test")).toEqual([]);

    // At the opening it is released, and goes.
    clock.set(new Date(opening.getTime() + 60_000));
    expect(await releaseScheduledEmails({ now: clock(), organizationId: org.organizationId })).toBe(1);
    const windowed = createSender({ organizationId: org.organizationId, relayUrl: `smtp://${sink.host}:${sink.port}`, clock });
    try {
      await drain(windowed, org.organizationId);
    } finally {
      windowed.close();
    }
    expect(subjectsTo("visitor@office.test")).toEqual(["Answer"]);
  });
});
