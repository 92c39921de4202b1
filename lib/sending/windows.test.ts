import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { dispatchSequenceSteps } from "@/lib/sequences/dispatch";
import { createTestOrg } from "@/lib/testing/api";
import { manualClock, nextWeekday } from "@/lib/testing/manual-clock";
import { drain, seedSegment, sinkInbox } from "@/lib/testing/sending-fixtures";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { startBroadcast } from "./fan-out";
import { createSender } from "./sender";
import { placeWindowedEmails, releaseWaitingBroadcastEmails } from "./windows";

let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(() => sink.close());

/** "Mon 09:00" for an instant in a zone, read by Intl directly (not by the code under test). */
const local = (at: Date, timeZone: string) =>
  at.toLocaleString("en-US", { timeZone, weekday: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).replace(",", "");

const office = { days: ["mon", "tue", "wed", "thu", "fri"], start: "09:00", end: "17:00", timezone: "contact" };

describe("sending windows in each recipient's time zone", () => {
  it("a sequence started on a Saturday sends to Tokyo and New York each at its own Monday 09:00, and the business-day follow-up at Tuesday 09:00", async () => {
    const org = await createTestOrg();
    const organizationId = org.organizationId;
    const inbox = await sinkInbox(organizationId, sink);
    const { segmentId, contacts } = await seedSegment(organizationId, [
      { email: `tokyo-${organizationId.slice(0, 8)}@example.test`, first_name: "Aiko" },
      { email: `newyork-${organizationId.slice(0, 8)}@example.test`, first_name: "Nina" },
    ]);
    const [tokyo, newYork] = contacts;
    for (const [contact, timezone] of [
      [tokyo, "asia/tokyo"],
      [newYork, "America/New_York"],
    ] as const) {
      const updated = await org.owner.api.put(`/v1/contacts/${contact.id}`, { timezone });
      expect(updated.status).toBe(200);
    }
    expect((await org.owner.api.get(`/v1/contacts/${tokyo.id}`)).body.timezone).toBe("Asia/Tokyo");

    const created = await org.owner.api.post("/v1/broadcasts", {
      name: "Outbound",
      subject: "Hello {{first_name}}",
      inbox_id: inbox.id,
      html_content: "<p>Hi {{first_name}}</p>",
      segment_id: segmentId,
      sending_speed: "instant",
      sequence_mode: "sales",
      sending_window: office,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ sending_window: office, stop_on_company_reply: true });
    const broadcastId = created.body.id;
    const step = await org.owner.api.post(`/v1/broadcasts/${broadcastId}/steps`, { delay_business_days: 1, html_content: "<p>Following up</p>" });
    expect(step.status).toBe(201);
    expect(step.body).toMatchObject({ delay_minutes: 0, delay_business_days: 1 });
    expect((await org.owner.api.post(`/v1/broadcasts/${broadcastId}/send`, {})).status).toBe(200);
    expect(await startBroadcast(broadcastId)).toBe("started");

    const saturday = nextWeekday(6, 12);
    const clock = manualClock(saturday);
    const sender = createSender({ organizationId, clock });
    const round = async () => {
      await releaseWaitingBroadcastEmails({ now: clock(), organizationId });
      await placeWindowedEmails({ now: clock(), organizationId });
      await drain(sender, organizationId);
    };
    const sentTo = (address: string) => sink.messages.filter((m) => m.envelopeTo.includes(address));
    const rowsOf = (contactId: string) =>
      db.email.findMany({ where: { broadcast_id: broadcastId, contact_id: contactId }, orderBy: { sequence_position: "asc" } });

    try {
      await round();
      expect(sentTo(tokyo.email)).toHaveLength(0);
      expect(sentTo(newYork.email)).toHaveLength(0);
      const [tokyoFirst] = await rowsOf(tokyo.id);
      const [newYorkFirst] = await rowsOf(newYork.id);
      // Waiting, not queued: the sender neither claims nor reads them until their time.
      expect(tokyoFirst).toMatchObject({ status: "scheduled" });
      expect(newYorkFirst).toMatchObject({ status: "scheduled" });
      const tokyoMonday = tokyoFirst.scheduled_at!;
      const newYorkMonday = newYorkFirst.scheduled_at!;
      expect(local(tokyoMonday, "Asia/Tokyo")).toBe("Mon 09:00");
      expect(local(newYorkMonday, "America/New_York")).toBe("Mon 09:00");
      expect(tokyoMonday.getTime()).toBeGreaterThan(saturday.getTime());
      expect(newYorkMonday.getTime() - tokyoMonday.getTime()).toBeGreaterThanOrEqual(13 * 3_600_000);

      const status = await org.owner.api.get(`/v1/broadcasts/${broadcastId}/status`);
      expect(status.body.sending).toBe(false);
      expect(status.body.reasons).toContainEqual({
        code: "WAITING_FOR_WINDOW",
        message: `2 emails wait for the sending window (Mon–Fri 09:00–17:00, each recipient's time zone); the next goes at ${tokyoMonday.toISOString()}.`,
        resumes_at: tokyoMonday.toISOString(),
      });

      clock.set(new Date(tokyoMonday.getTime() - 60_000));
      await round();
      expect(sink.messages.filter((m) => m.envelopeFrom === inbox.from_email)).toHaveLength(0);

      clock.set(tokyoMonday);
      await round();
      expect(sentTo(tokyo.email)).toHaveLength(1);
      expect(sentTo(newYork.email)).toHaveLength(0);

      clock.set(new Date(newYorkMonday.getTime() - 60_000));
      await round();
      expect(sentTo(newYork.email)).toHaveLength(0);
      clock.set(newYorkMonday);
      await round();
      expect(sentTo(newYork.email)).toHaveLength(1);
      expect((await rowsOf(tokyo.id))[0].sent_at).toEqual(tokyoMonday);
      expect((await rowsOf(newYork.id))[0].sent_at).toEqual(newYorkMonday);

      // One business day later, each at Tuesday 09:00 in their zone: dispatched, held to that time, sent.
      for (let minutes = 0; minutes < 30 * 60; minutes += 30) {
        clock.set(new Date(tokyoMonday.getTime() + 20 * 3_600_000 + minutes * 60_000));
        await dispatchSequenceSteps({ organizationId, now: clock() });
        await round();
      }
      const [, tokyoFollowUp] = await rowsOf(tokyo.id);
      const [, newYorkFollowUp] = await rowsOf(newYork.id);
      expect(tokyoFollowUp).toMatchObject({ status: "sent", subject: "Re: Hello Aiko" });
      expect(newYorkFollowUp).toMatchObject({ status: "sent", subject: "Re: Hello Nina" });
      expect(local(tokyoFollowUp.sent_at!, "Asia/Tokyo")).toBe("Tue 09:00");
      expect(local(newYorkFollowUp.sent_at!, "America/New_York")).toBe("Tue 09:00");
      expect(sentTo(tokyo.email)).toHaveLength(2);
      expect(sentTo(newYork.email)).toHaveLength(2);
    } finally {
      await sender.close();
    }
  });

  it("an email whose window closed before it went is not claimed, waits for the next opening, and a resume leaves waiting emails waiting", async () => {
    const org = await createTestOrg();
    const organizationId = org.organizationId;
    const inbox = await sinkInbox(organizationId, sink);
    const { segmentId, contacts } = await seedSegment(organizationId, [{ first_name: "Uma" }]);
    const [uma] = contacts;
    const window = { days: ["mon", "tue", "wed", "thu", "fri"], start: "09:00", end: "17:00", timezone: "UTC" };
    const created = await org.owner.api.post("/v1/broadcasts", {
      name: "Late",
      subject: "Hi",
      inbox_id: inbox.id,
      html_content: "<p>Hi</p>",
      segment_id: segmentId,
      sending_speed: "instant",
      sending_window: window,
    });
    const broadcastId = created.body.id;
    expect((await org.owner.api.post(`/v1/broadcasts/${broadcastId}/send`, {})).status).toBe(200);
    expect(await startBroadcast(broadcastId)).toBe("started");

    // Placed on a Monday a minute before closing (the inbox was busy, say), then the window closes.
    const monday = nextWeekday(1, 16);
    const clock = manualClock(new Date(monday.getTime() + 59 * 60_000));
    const sender = createSender({ organizationId, clock });
    const row = () => db.email.findFirstOrThrow({ where: { broadcast_id: broadcastId, contact_id: uma.id } });
    try {
      expect(await placeWindowedEmails({ now: clock(), organizationId })).toBe(1);
      expect(await row()).toMatchObject({ status: "queued", window_ends_at: new Date(monday.getTime() + 3_600_000) });
      clock.set(new Date(monday.getTime() + 3_600_000));
      expect(await sender.runOnce()).toBe(0);
      expect(await placeWindowedEmails({ now: clock(), organizationId })).toBe(1);
      const tuesday = new Date(monday.getTime() + 17 * 3_600_000);
      expect(await row()).toMatchObject({ status: "scheduled", scheduled_at: tuesday, window_ends_at: new Date(tuesday.getTime() + 8 * 3_600_000) });
      // Placed once: nothing to do until the opening.
      expect(await placeWindowedEmails({ now: clock(), organizationId })).toBe(0);

      // Paused and resumed before Tuesday: it keeps waiting for its opening.
      expect((await org.owner.api.post(`/v1/broadcasts/${broadcastId}/pause`)).status).toBe(200);
      expect((await org.owner.api.post(`/v1/broadcasts/${broadcastId}/resume`)).status).toBe(200);
      expect(await row()).toMatchObject({ status: "scheduled", scheduled_at: tuesday });

      clock.set(tuesday);
      expect(await releaseWaitingBroadcastEmails({ now: clock(), organizationId })).toBe(1);
      await drain(sender, organizationId);
      expect(await row()).toMatchObject({ status: "sent", sent_at: tuesday });
    } finally {
      await sender.close();
    }
  });
});
