import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createSender, type Sender } from "@/lib/sending/sender";
import { unsubscribeByToken } from "@/lib/sending/unsubscribe";
import { unsubscribeToken } from "@/lib/sending/unsubscribe-token";
import { placeWindowedEmails } from "@/lib/sending/windows";
import { createTestOrg, type TestOrg } from "@/lib/testing/api";
import { activeAutomation, announceEvent, engineClock, runsOf, settle } from "@/lib/testing/automation-fixtures";
import { dispatchEventsOf } from "@/lib/testing/events";
import { drain, seedSegment, verifiedDomain } from "@/lib/testing/sending-fixtures";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";

let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(() => sink.close());

const DAY = 1440;
const FROM = "hello@news.test";
const send = (subject: string, html = `<p>${subject}</p>`) => ({ type: "send_email", subject, html_content: html, from_email: FROM });
const mailTo = (address: string) => sink.messages.filter((m) => m.envelopeTo.includes(address));

describe("the automation engine", () => {
  let org: TestOrg;
  let sender: Sender;
  beforeEach(async () => {
    org = await createTestOrg();
    await verifiedDomain(org.organizationId, "news.test");
    sender = createSender({ organizationId: org.organizationId, relayUrl: `smtp://${sink.host}:${sink.port}` });
    return () => sender.close();
  });

  it("waits for an event or its timeout, branches on which it was, and counts every step", async () => {
    const clock = engineClock();
    const { contacts } = await seedSegment(org.organizationId, [
      { email: "ann@buyers.test", first_name: "Ann" },
      { email: "bob@buyers.test", first_name: "Bob" },
    ]);
    const [ann, bob] = contacts;
    const automation = await activeAutomation(org, {
      name: "Onboarding",
      trigger: { type: "event", event: "signed_up" },
      steps: [
        send("Welcome, {{first_name}}"),
        { type: "wait_for_event", event: "purchased", timeout_minutes: DAY },
        { type: "condition", wait_result: "event", yes: [send("Thanks for buying, {{first_name}}")], no: [send("Still thinking, {{first_name}}?")] },
      ],
    });
    const [welcome, waitStep, condition] = automation.steps;
    await announceEvent(org.organizationId, ann.id, "signed_up");
    await announceEvent(org.organizationId, bob.id, "signed_up");
    expect(await settle(org.organizationId, clock)).toBe(2);
    await drain(sender, org.organizationId);
    expect(mailTo(ann.email).map((m) => m.parsed.subject)).toEqual(["Welcome, Ann"]);
    expect(mailTo(bob.email).map((m) => m.parsed.subject)).toEqual(["Welcome, Bob"]);
    // Marketing mail: the engine's preparation adds the unsubscribe headers to an automation's email.
    expect(mailTo(ann.email)[0].raw.toString()).toContain("List-Unsubscribe-Post: List-Unsubscribe=One-Click");

    // An event before the timeout moves Ann on at once; Bob waits.
    await announceEvent(org.organizationId, ann.id, "purchased");
    await announceEvent(org.organizationId, bob.id, "something_else");
    expect(await settle(org.organizationId, clock)).toBe(1);
    const waiting = (await org.owner.api.get(`/v1/automations/${automation.id}`)).body;
    expect(waiting.stats).toEqual({ entered: 2, active: 1, completed: 1, exited: 0 });
    expect(waiting.steps[1].stats).toEqual({ entered: 2, completed: 1, current: 1 });
    const [bobWaiting] = await runsOf(org, automation.id, bob.id);
    expect(bobWaiting).toMatchObject({ status: "waiting", current_step_id: waitStep.id });

    // A day later, Bob's wait times out and he takes the other branch.
    clock.advanceMinutes(DAY - 1);
    expect(await settle(org.organizationId, clock)).toBe(0);
    clock.advanceMinutes(1);
    expect(await settle(org.organizationId, clock)).toBe(1);
    await drain(sender, org.organizationId);
    expect(mailTo(ann.email).map((m) => m.parsed.subject)).toEqual(["Welcome, Ann", "Thanks for buying, Ann"]);
    expect(mailTo(bob.email).map((m) => m.parsed.subject)).toEqual(["Welcome, Bob", "Still thinking, Bob?"]);

    const done = (await org.owner.api.get(`/v1/automations/${automation.id}`)).body;
    expect(done.stats).toEqual({ entered: 2, active: 0, completed: 2, exited: 0 });
    expect(done.steps[0].stats).toEqual({ entered: 2, completed: 2, current: 0, sent: 2, opened: 0, clicked: 0 });
    expect(done.steps[1].stats).toEqual({ entered: 2, completed: 2, current: 0 });
    expect(done.steps[2].stats).toEqual({ entered: 2, completed: 2, current: 0 });
    expect(done.steps[2].yes[0].stats).toMatchObject({ entered: 1, completed: 1, sent: 1 });
    expect(done.steps[2].no[0].stats).toMatchObject({ entered: 1, completed: 1, sent: 1 });

    const [annRun] = await runsOf(org, automation.id, ann.id);
    expect(annRun.status).toBe("completed");
    expect(annRun.history.map((h) => [h.step_id, h.outcome])).toEqual([
      [welcome.id, "queued"],
      [waitStep.id, "event"],
      [condition.id, "yes"],
      [condition.yes[0].id, "queued"],
    ]);
    const [bobRun] = await runsOf(org, automation.id, bob.id);
    expect(bobRun.history.map((h) => h.outcome)).toEqual(["queued", "timeout", "no", "queued"]);
    expect(bobRun.history[3].step_id).toBe(condition.no[0].id);
  });

  it("waits a number of minutes by the clock, then updates the contact", async () => {
    const clock = engineClock();
    const { contacts } = await seedSegment(org.organizationId, [{ email: "cat@buyers.test", first_name: "Cat", metadata: { plan: "free" } }]);
    const [cat] = contacts;
    const automation = await activeAutomation(org, {
      name: "Tagging",
      trigger: { type: "event", event: "upgraded" },
      steps: [
        { type: "wait", minutes: 60 },
        { type: "update_contact", set: { "metadata.plan": "pro", last_name: "Smith" }, add_tags: ["customer", "pro"], remove_tags: ["trial"] },
      ],
    });
    await db.contact.update({ where: { id: cat.id }, data: { tags: ["trial", "newsletter"] } });
    await announceEvent(org.organizationId, cat.id, "upgraded");
    await settle(org.organizationId, clock);
    expect((await runsOf(org, automation.id))[0]).toMatchObject({ status: "waiting" });
    clock.advanceMinutes(59);
    expect(await settle(org.organizationId, clock)).toBe(0);
    clock.advanceMinutes(1);
    expect(await settle(org.organizationId, clock)).toBe(1);
    const updated = await db.contact.findUniqueOrThrow({ where: { id: cat.id } });
    expect(updated).toMatchObject({ first_name: "Cat", last_name: "Smith", metadata: { plan: "pro" }, tags: ["newsletter", "customer", "pro"] });
    expect((await runsOf(org, automation.id))[0]).toMatchObject({ status: "completed", history: [{ outcome: "waited" }, { outcome: "updated" }] });
    // The change is recorded as the API's would be: one contact.updated naming the fields, the record as its webhooks' data.
    const changes = await db.event.findMany({ where: { contact_id: cat.id, name: "contact.updated", source: "automation" } });
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ automation_id: automation.id, properties: { changed: ["last_name", "metadata", "tags"] } });
    expect(changes[0].payload).toMatchObject({ id: cat.id, last_name: "Smith", metadata: { plan: "pro" }, tags: ["newsletter", "customer", "pro"] });
  });

  it("lets a contact who unsubscribes leave, and sends nothing more", async () => {
    const clock = engineClock();
    const { contacts } = await seedSegment(org.organizationId, [{ email: "dan@buyers.test", first_name: "Dan" }]);
    const [dan] = contacts;
    const automation = await activeAutomation(org, {
      name: "Drip",
      trigger: { type: "event", event: "signed_up" },
      steps: [send("One"), { type: "wait", minutes: DAY }, send("Two")],
    });
    await announceEvent(org.organizationId, dan.id, "signed_up");
    await settle(org.organizationId, clock);
    await drain(sender, org.organizationId);
    const first = await db.email.findFirstOrThrow({ where: { automation_id: automation.id, contact_id: dan.id } });
    expect(await unsubscribeByToken(unsubscribeToken(first.id))).toBe(true);
    // The unsubscription's contact.unsubscribed ends the run as it is dispatched, not a day later.
    await dispatchEventsOf(org.organizationId);
    expect((await runsOf(org, automation.id, dan.id))[0]).toMatchObject({
      status: "exited",
      exit_reason: "unsubscribed",
      current_step_id: automation.steps[1].id,
    });
    clock.advanceMinutes(DAY);
    await settle(org.organizationId, clock);
    await drain(sender, org.organizationId);
    expect(mailTo(dan.email).map((m) => m.parsed.subject)).toEqual(["One"]);
    const [run] = await runsOf(org, automation.id, dan.id);
    expect(run).toMatchObject({ status: "exited", exit_reason: "unsubscribed" });
    expect(run.history.map((h) => h.outcome)).toEqual(["queued", "exited"]);
    // An unsubscribed contact does not enter again either.
    await announceEvent(org.organizationId, dan.id, "signed_up");
    expect(await runsOf(org, automation.id, dan.id)).toHaveLength(1);
  });

  it("enters a contact once with reentry never, again after its run ended with after_exit", async () => {
    const clock = engineClock();
    const { contacts } = await seedSegment(org.organizationId, [{ email: "eve@buyers.test" }]);
    const [eve] = contacts;
    const once = await activeAutomation(org, { name: "Once", trigger: { type: "event", event: "visited" }, steps: [{ type: "wait", minutes: 10 }] });
    const again = await activeAutomation(org, {
      name: "Again",
      reentry: "after_exit",
      trigger: { type: "event", event: "visited" },
      steps: [{ type: "wait", minutes: 10 }],
    });
    await announceEvent(org.organizationId, eve.id, "visited");
    // Still in both: a second event starts nothing (one run in progress per contact).
    await announceEvent(org.organizationId, eve.id, "visited");
    await settle(org.organizationId, clock);
    clock.advanceMinutes(10);
    await settle(org.organizationId, clock);
    await announceEvent(org.organizationId, eve.id, "visited");
    expect((await runsOf(org, once.id)).map((r) => r.status)).toEqual(["completed"]);
    expect((await runsOf(org, again.id)).map((r) => r.status)).toEqual(["active", "completed"]);
  });

  it("holds a paused automation's runs where they are and moves them on activation", async () => {
    const clock = engineClock();
    const { contacts } = await seedSegment(org.organizationId, [{ email: "fay@buyers.test" }]);
    const automation = await activeAutomation(org, {
      name: "Pausable",
      trigger: { type: "event", event: "go" },
      steps: [{ type: "wait", minutes: 5 }, send("After")],
    });
    await announceEvent(org.organizationId, contacts[0].id, "go");
    await settle(org.organizationId, clock);
    await org.owner.api.post(`/v1/automations/${automation.id}/pause`);
    // Paused: no contact enters, and a wait that ends moves nobody.
    const { contacts: late } = await seedSegment(org.organizationId, [{ email: "gus@buyers.test" }]);
    await announceEvent(org.organizationId, late[0].id, "go");
    clock.advanceMinutes(5);
    expect(await settle(org.organizationId, clock)).toBe(0);
    expect(await db.email.count({ where: { automation_id: automation.id } })).toBe(0);
    await org.owner.api.post(`/v1/automations/${automation.id}/activate`);
    expect(await settle(org.organizationId, clock)).toBe(1);
    expect(await db.email.count({ where: { automation_id: automation.id } })).toBe(1);
    expect(await runsOf(org, automation.id)).toHaveLength(1);
  });

  it("never does a step twice for one run, even when a run is put back before it", async () => {
    const clock = engineClock();
    const { contacts } = await seedSegment(org.organizationId, [{ email: "hal@buyers.test" }]);
    const automation = await activeAutomation(org, {
      name: "Once only",
      trigger: { type: "event", event: "go" },
      steps: [send("Only once"), { type: "wait", minutes: 5 }],
    });
    await announceEvent(org.organizationId, contacts[0].id, "go");
    await settle(org.organizationId, clock);
    // As an edit that moved the send step after the run's place would: the run is due at it again.
    await db.automationRun.updateMany({
      where: { automation_id: automation.id },
      data: { status: "active", current_step_id: automation.steps[0].id, next_run_at: new Date(0) },
    });
    await settle(org.organizationId, clock);
    expect(await db.email.count({ where: { automation_id: automation.id } })).toBe(1);
    const [run] = await runsOf(org, automation.id);
    expect(run.history.map((h) => h.outcome)).toEqual(["queued", "waiting"]);
  });

  it("cancels an email held for its sending window when the run meets its exit filter", async () => {
    const clock = engineClock();
    const { contacts } = await seedSegment(org.organizationId, [{ email: "kim@buyers.test" }]);
    const [kim] = contacts;
    // Open only on the weekday three days from now: the first email is held until then.
    const weekday = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"][new Date(Date.now() + 3 * DAY * 60_000).getUTCDay()];
    const automation = await activeAutomation(org, {
      name: "Trial nudges",
      sending_window: { days: [weekday], start: "09:00", end: "17:00", timezone: "UTC" },
      exit_filter: { field: "tags", op: "contains", value: "customer" },
      trigger: { type: "event", event: "trial_started" },
      steps: [send("Nudge"), { type: "wait", minutes: 60 }, send("Second nudge")],
    });
    await announceEvent(org.organizationId, kim.id, "trial_started");
    await settle(org.organizationId, clock);
    expect(await placeWindowedEmails({ now: clock(), organizationId: org.organizationId })).toBe(1);
    const held = await db.email.findFirstOrThrow({ where: { automation_id: automation.id, contact_id: kim.id } });
    expect(held.status).toBe("scheduled");

    // She buys before the window opens: her run leaves at its next step, and the held nudge with it.
    await db.contact.update({ where: { id: kim.id }, data: { tags: ["customer"] } });
    clock.advanceMinutes(60);
    await settle(org.organizationId, clock);
    expect((await runsOf(org, automation.id, kim.id))[0]).toMatchObject({ status: "exited", exit_reason: "exit_filter" });
    expect(await db.email.findUniqueOrThrow({ where: { id: held.id } })).toMatchObject({ status: "cancelled", last_error: "Left the automation: exit_filter" });
  });

  it("archiving ends the runs in progress and cancels their unsent emails", async () => {
    const clock = engineClock();
    const { contacts } = await seedSegment(org.organizationId, [{ email: "ida@buyers.test" }, { email: "jon@buyers.test" }]);
    const automation = await activeAutomation(org, {
      name: "Archived",
      trigger: { type: "event", event: "go" },
      steps: [send("Queued"), { type: "wait", minutes: 5 }],
    });
    for (const contact of contacts) await announceEvent(org.organizationId, contact.id, "go");
    await settle(org.organizationId, clock);
    expect((await org.owner.api.delete(`/v1/automations/${automation.id}`)).body.stats).toEqual({ entered: 2, active: 0, completed: 0, exited: 2 });
    const emails = await db.email.findMany({ where: { automation_id: automation.id } });
    expect(emails.map((e) => e.status)).toEqual(["cancelled", "cancelled"]);
    expect((await runsOf(org, automation.id)).map((r) => r.exit_reason)).toEqual(["archived", "archived"]);
  });
});
