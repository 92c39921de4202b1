import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { recordFeedback } from "@/lib/feedback/record-feedback";
import { createTestOrg, type TestOrg } from "@/lib/testing/api";
import { dispatchEventsOf } from "@/lib/testing/events";
import { manualClock } from "@/lib/testing/manual-clock";
import { recordClick } from "@/lib/tracking/record-click";
import { recordOpen } from "@/lib/tracking/record-open";
import { signClickToken, signOpenToken } from "@/lib/tracking/token";
import { retentionRound, retentionUntilCaughtUp, type RetentionDays } from "./run";
import { timeOrderedFloor } from "./sweep";

const DAY = 86_400_000;
const KEEP_90: RetentionDays = { emailBodies: 90, events: 90, trackingHits: 90 };
const PERSON = {
  userAgent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
  ip: "192.0.2.7",
};
// Apple Mail Privacy Protection: a machine's open (lib/tracking/machine.ts).
const APPLE_PROXY = { userAgent: "Mozilla/5.0", ip: "17.0.0.1" };
const LINKS = ["https://shop.example/spring?utm=x&a=1", "https://shop.example/blog"];
const html = (id: string) =>
  `<p>Hello</p>${LINKS.map((url) => `<a href="https://track.example/t/c/${signClickToken(id, url)}">${url}</a>`).join(" ")}<a href='https://shop.example/plain'>plain</a>`;

let org: TestOrg;
beforeAll(async () => {
  org = await createTestOrg();
});

/** A sent broadcast with a follow-up step: `n` emails at position 0 and `n` at position 1, sent an hour ago (out of the link scanner's window). */
async function sentBroadcast(n: number) {
  const b = await db.broadcast.create({
    data: {
      organization_id: org.organizationId,
      name: "Old news",
      subject: "News",
      from_email: "news@retention.test",
      status: "sent",
      started_at: new Date(Date.now() - 3_600_000),
      completed_at: new Date(),
      total_recipients: n,
      sent_count: 2 * n,
    },
  });
  await db.sequenceStep.create({ data: { organization_id: org.organizationId, broadcast_id: b.id, position: 1, delay_minutes: 60 } });
  const ids: string[] = [];
  for (let i = 0; i < 2 * n; i++) {
    const email = await db.email.create({
      data: {
        organization_id: org.organizationId,
        message_id: `<${i}.${b.id}@retention.test>`,
        from_email: "news@retention.test",
        to_email: `reader${i % n}@example.test`,
        subject: "News",
        text_content: "Hello",
        broadcast_id: b.id,
        sequence_position: i < n ? 0 : 1,
        status: "sent",
        sent_at: new Date(Date.now() - 3_600_000),
        opens_tracked: true,
        clicks_tracked: true,
      },
    });
    await db.email.update({ where: { id: email.id }, data: { html_content: html(email.id) } });
    ids.push(email.id);
  }
  return { id: b.id, emails: ids };
}

const report = async (id: string) => {
  const result = await org.owner.api.get(`/v1/broadcasts/${id}/report`);
  expect(result.status).toBe(200);
  return result.body;
};

describe("retention", () => {
  it("clears old bodies, events and tracking hits, and a broadcast's report and counters read the same after as before", async () => {
    const b = await sentBroadcast(4);
    const [a, c, d, e, f] = b.emails;
    // People open (some twice) and click (one link twice, another once); Apple's proxy opens too.
    for (const id of [a, a, c, e, f]) expect(await recordOpen(signOpenToken(id), PERSON)).toBe(true);
    for (const id of [a, d]) expect(await recordOpen(signOpenToken(id), APPLE_PROXY)).toBe(true);
    for (const [id, url] of [
      [a, LINKS[0]],
      [a, LINKS[0]],
      [c, LINKS[1]],
      [e, LINKS[0]],
      [f, "https://shop.example/plain"],
    ])
      expect(await recordClick(signClickToken(id, url), PERSON)).toBe(url);
    await db.$transaction((tx) =>
      recordFeedback(tx, [{ emailId: c, organizationId: org.organizationId, kind: "delivered", status: "2.0.0", diagnostic: null, source: "smtp" }]),
    );
    // Announced and dispatched, as the worker would have long before: retention leaves announced events alone.
    await dispatchEventsOf(org.organizationId);
    const before = await report(b.id);
    const counters = await db.broadcast.findUniqueOrThrow({ where: { id: b.id } });
    expect(before.totals).toMatchObject({ opened: 5, unique_opened: 4, clicked: 5, unique_clicked: 4, machine_opens: 2, delivered: 1 });

    // A hundred days later, keeping 90. Two workers at once: each batch is one sweep's alone.
    const clock = manualClock(new Date(Date.now() + 100 * DAY));
    const [one, two] = await Promise.all([
      retentionUntilCaughtUp({ clock, days: KEEP_90, organizationId: org.organizationId }),
      retentionUntilCaughtUp({ clock, days: KEEP_90, organizationId: org.organizationId }),
    ]);
    expect(one + two).toBeGreaterThan(0);
    expect(await db.event.count({ where: { organization_id: org.organizationId, broadcast_id: b.id } })).toBe(0);
    const emails = await db.email.findMany({ where: { broadcast_id: b.id }, orderBy: { id: "asc" } });
    expect(emails.every((m) => m.html_content === null && m.text_content === null)).toBe(true);
    expect(emails.every((m) => JSON.stringify(m.opens) === "[]" && JSON.stringify(m.clicked_links) === "[]")).toBe(true);
    expect(emails.find((m) => m.id === a)!.body_links).toContain(signClickToken(a, LINKS[0]));

    expect(await report(b.id)).toEqual(before);
    const after = await db.broadcast.findUniqueOrThrow({ where: { id: b.id } });
    expect(after).toEqual(counters);
    // Caught up: the next round reads nothing.
    expect(await retentionRound({ clock, days: KEEP_90, organizationId: org.organizationId })).toEqual({ scanned: 0, changed: 0 });

    // An old email's tracked links still redirect, and a new open of an email already opened adds
    // to its old ones without counting the email twice.
    expect(await recordClick(signClickToken(a, LINKS[1]), PERSON)).toBe(LINKS[1]);
    expect(await recordClick(signClickToken(a, "https://evil.example/"), PERSON)).toBeNull();
    expect(await recordOpen(signOpenToken(a), PERSON)).toBe(true);
    const later = await report(b.id);
    expect(later.totals).toEqual({ ...before.totals, opened: 6, clicked: 6 });
    expect(later.links).toEqual(
      expect.arrayContaining([
        { url: LINKS[0], clicks: 3, unique_clicks: 2 },
        { url: LINKS[1], clicks: 2, unique_clicks: 2 },
      ]),
    );
    expect(later.timeline.reduce((sum: number, bucket: { opened: number }) => sum + bucket.opened, 0)).toBe(6);
  });

  it("keeps what is still needed: an email still to send, an event not yet dispatched, and opens and clicks while their own setting keeps them", async () => {
    const b = await sentBroadcast(1);
    expect(await recordOpen(signOpenToken(b.emails[0]), PERSON)).toBe(true);
    await dispatchEventsOf(org.organizationId);
    const waiting = await db.email.create({
      data: {
        organization_id: org.organizationId,
        message_id: "<waiting@retention.test>",
        from_email: "news@retention.test",
        to_email: "later@example.test",
        subject: "Later",
        html_content: "<p>Still to go</p>",
        status: "scheduled",
        scheduled_at: new Date(Date.now() + 365 * DAY),
      },
    });
    const announced = await db.event.create({
      data: { organization_id: org.organizationId, name: "purchase", source: "api", occurred_at: new Date() },
    });
    await db.eventOutbox.create({ data: { organization_id: org.organizationId, event_id: announced.id } });
    const custom = await db.event.create({ data: { organization_id: org.organizationId, name: "purchase", source: "api", occurred_at: new Date() } });

    const clock = manualClock(new Date(Date.now() + 100 * DAY));
    await retentionUntilCaughtUp({ clock, days: { emailBodies: 90, events: 90, trackingHits: 0 }, organizationId: org.organizationId });
    expect((await db.email.findUniqueOrThrow({ where: { id: waiting.id } })).html_content).toBe("<p>Still to go</p>");
    expect(await db.event.findUnique({ where: { id: announced.id } })).not.toBeNull();
    expect(await db.event.findUnique({ where: { id: custom.id } })).toBeNull();
    expect(await db.event.count({ where: { email_id: b.emails[0], name: "email.opened" } })).toBe(1);
    expect((await db.email.findUniqueOrThrow({ where: { id: b.emails[0] } })).opens).toHaveLength(1);
    await db.eventOutbox.deleteMany({ where: { event_id: announced.id } });
  });

  it("finds rows by their time-ordered ids: a time's bound sorts above every id made before it and below those made after", async () => {
    const [{ id }] = await db.$queryRaw<{ id: string }[]>`SELECT uuid_v7()::text AS id`;
    const madeAt = parseInt(id.replace(/-/g, "").slice(0, 12), 16);
    expect(Math.abs(madeAt - Date.now())).toBeLessThan(DAY);
    const [order] = await db.$queryRaw<{ below: boolean; above: boolean }[]>`
      SELECT ${id}::uuid < ${timeOrderedFloor(new Date(madeAt + 1))}::uuid AS below, ${id}::uuid >= ${timeOrderedFloor(new Date(madeAt))}::uuid AS above`;
    expect(order).toEqual({ below: true, above: true });
  });
});
