import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { broadcastAverage, organizationOverview } from "@/lib/schemas/reports";
import { createTestOrg, type TestOrg } from "@/lib/testing/api";

const DAY = 86_400_000;
// A minute past the start of today (UTC): a test that runs across midnight still finds each email on its day.
const BASE = Math.floor(Date.now() / DAY) * DAY + 60_000;
const daysAgo = (days: number) => new Date(BASE - days * DAY);

type Outcome = {
  sent_at?: Date | null;
  bounced_at?: Date;
  delivered_at?: Date;
  opened_at?: Date;
  clicked_at?: Date;
  complained_at?: Date;
  unsubscribed_at?: Date;
  /** Sent through the relay, which asks for delivery reports (the default here); false: through an inbox. */
  dsn_requested?: boolean;
};

/** `count` emails of the organization (of a broadcast when given), created and sent at `sentAt`, with the outcome given. */
async function addEmails(organizationId: string, count: number, sentAt: Date, outcome: Outcome = {}, broadcastId?: string) {
  await db.email.createMany({
    data: Array.from({ length: count }, () => ({
      organization_id: organizationId,
      message_id: `<${randomUUID()}@example.com>`,
      from_email: "news@example.com",
      to_email: `${randomUUID()}@example.net`,
      subject: "Hi",
      status: outcome.bounced_at ? ("bounced" as const) : ("sent" as const),
      broadcast_id: broadcastId,
      created_at: sentAt,
      sent_at: outcome.sent_at === undefined ? (outcome.bounced_at ? null : sentAt) : outcome.sent_at,
      dsn_requested: true,
      ...outcome,
    })),
  });
}

const overviewOf = async (org: TestOrg) => {
  const answer = await org.owner.api.get("/v1/reports/overview");
  expect(answer.status).toBe(200);
  return organizationOverview.parse(answer.body);
};

describe("GET /v1/reports/overview", () => {
  it("sums the last 30 days per UTC day, with rates, and leaves older mail and other organizations out", async () => {
    const org = await createTestOrg();
    const other = await createTestOrg();
    await addEmails(org.organizationId, 6, daysAgo(2), { delivered_at: daysAgo(2) });
    await addEmails(org.organizationId, 2, daysAgo(2), { delivered_at: daysAgo(2), opened_at: daysAgo(1), clicked_at: daysAgo(1) });
    await addEmails(org.organizationId, 1, daysAgo(10), { bounced_at: daysAgo(10) });
    await addEmails(org.organizationId, 1, daysAgo(10), { complained_at: daysAgo(9), opened_at: daysAgo(10) });
    await addEmails(org.organizationId, 5, daysAgo(45), { opened_at: daysAgo(44) });
    await addEmails(other.organizationId, 7, daysAgo(1));
    // Not sent yet: not counted.
    await db.email.create({
      data: { organization_id: org.organizationId, message_id: "<q@x>", from_email: "a@example.com", to_email: "b@example.net", subject: "Q" },
    });

    const overview = await overviewOf(org);
    expect(overview.totals).toEqual({
      sent: 10,
      delivered: 8,
      delivery_reportable: 10,
      opened: 3,
      // The email refused at the door could be neither opened nor clicked.
      open_tracked: 9,
      clicked: 2,
      click_tracked: 9,
      bounced: 1,
      complained: 1,
    });
    expect(overview.rates).toEqual({ delivery: 0.8, open: 0.333333, click: 0.222222, bounce: 0.1, complaint: 0.1 });
    expect(overview.daily).toHaveLength(30);
    expect(overview.daily.at(-1)!.date >= new Date(BASE).toISOString().slice(0, 10)).toBe(true);
    const day = (ago: number) => overview.daily.find((d) => d.date === daysAgo(ago).toISOString().slice(0, 10))!;
    expect(day(2)).toMatchObject({ sent: 8, delivered: 8, opened: 2, clicked: 2 });
    expect(day(10)).toMatchObject({ sent: 2, bounced: 1, complained: 1, opened: 1 });
    expect(overview.daily.reduce((sum, d) => sum + d.sent, 0)).toBe(10);
  });

  it("lists the broadcasts sending now", async () => {
    const org = await createTestOrg();
    const sending = await db.broadcast.create({
      data: {
        organization_id: org.organizationId,
        name: "Going out",
        subject: "S",
        from_email: "n@example.com",
        status: "sending",
        total_recipients: 100,
        sent_count: 40,
        started_at: daysAgo(0),
      },
    });
    await db.broadcast.create({ data: { organization_id: org.organizationId, name: "Done", subject: "S", from_email: "n@example.com", status: "sent" } });
    const overview = await overviewOf(org);
    expect(overview.sending).toEqual([
      { id: sending.id, name: "Going out", status: "sending", total_recipients: 100, sent_count: 40, started_at: sending.started_at!.toISOString() },
    ]);
  });

  it("warns about unverified domains, paused, failing and unproven inboxes, most severe first", async () => {
    const org = await createTestOrg();
    const organization_id = org.organizationId;
    await db.domain.create({ data: { organization_id, name: "broken.example", status: "failed", verification_token: "t" } });
    await db.domain.create({ data: { organization_id, name: "new.example", status: "pending", verification_token: "t" } });
    await db.domain.create({ data: { organization_id, name: "good.example", status: "verified", verification_token: "t" } });
    const inbox = { organization_id, from_email: "s@example.com", smtp_host: "127.0.0.1", smtp_port: 2525, sender_confirmed_at: new Date() };
    await db.inbox.create({ data: { ...inbox, name: "Paused inbox", paused: true } });
    await db.inbox.create({ data: { ...inbox, name: "Broken inbox", last_error: "535 Authentication failed", last_error_at: new Date() } });
    await db.inbox.create({ data: { ...inbox, name: "Healthy inbox" } });
    await db.inbox.create({ data: { ...inbox, name: "Proven by its domain", from_email: "news@good.example", sender_confirmed_at: null } });
    await db.inbox.create({ data: { ...inbox, name: "Unproven inbox", from_email: "sales@elsewhere.example", sender_confirmed_at: null } });

    const { warnings } = await overviewOf(org);
    expect(warnings.map((w) => [w.severity, w.code, w.resource.name])).toEqual([
      ["critical", "DOMAIN_FAILING", "broken.example"],
      ["critical", "INBOX_FAILING", "Broken inbox <s@example.com>"],
      ["warning", "DOMAIN_PENDING", "new.example"],
      ["warning", "INBOX_PAUSED", "Paused inbox <s@example.com>"],
      ["warning", "INBOX_UNVERIFIED", "Unproven inbox <sales@elsewhere.example>"],
    ]);
    expect(warnings[1].message).toContain("535 Authentication failed");
    // Another organization sees none of it.
    expect((await overviewOf(await createTestOrg())).warnings).toEqual([]);
  });

  it("warns as the complaint rate nears 0.3 % and alarms past it; bounces near or past 5 %", async () => {
    const near = await createTestOrg();
    await addEmails(near.organizationId, 399, daysAgo(3));
    await addEmails(near.organizationId, 1, daysAgo(3), { complained_at: daysAgo(2) });
    expect((await overviewOf(near)).warnings).toEqual([expect.objectContaining({ code: "COMPLAINT_RATE", severity: "warning" })]);
    expect((await overviewOf(near)).warnings[0].message).toContain("0.25 %");

    const over = await createTestOrg();
    await addEmails(over.organizationId, 280, daysAgo(3));
    await addEmails(over.organizationId, 1, daysAgo(3), { complained_at: daysAgo(2) });
    await addEmails(over.organizationId, 19, daysAgo(3), { bounced_at: daysAgo(3) });
    expect((await overviewOf(over)).warnings.map((w) => [w.code, w.severity])).toEqual([
      ["COMPLAINT_RATE", "critical"],
      ["BOUNCE_RATE", "critical"],
    ]);

    const fine = await createTestOrg();
    await addEmails(fine.organizationId, 1000, daysAgo(3));
    await addEmails(fine.organizationId, 1, daysAgo(3), { complained_at: daysAgo(2) });
    expect((await overviewOf(fine)).warnings).toEqual([]);
  });
});

describe("GET /v1/reports/broadcast-average", () => {
  it("pools the emails of the broadcasts started in the last 90 days", async () => {
    const org = await createTestOrg();
    const broadcast = (name: string, started: Date | null) =>
      db.broadcast.create({
        data: { organization_id: org.organizationId, name, subject: "S", from_email: "n@example.com", status: "sent", started_at: started },
      });
    const recent = await broadcast("Recent", daysAgo(5));
    const older = await broadcast("Older", daysAgo(80));
    const tooOld = await broadcast("Too old", daysAgo(120));
    await broadcast("Draft", null);
    await addEmails(org.organizationId, 8, daysAgo(5), { opened_at: daysAgo(5) }, recent.id);
    await addEmails(org.organizationId, 2, daysAgo(5), { bounced_at: daysAgo(5) }, recent.id);
    await addEmails(org.organizationId, 10, daysAgo(80), {}, older.id);
    await addEmails(org.organizationId, 10, daysAgo(80), { clicked_at: daysAgo(80), opened_at: daysAgo(80) }, tooOld.id);

    const answer = await org.owner.api.get("/v1/reports/broadcast-average");
    expect(answer.status).toBe(200);
    const average = broadcastAverage.parse(answer.body);
    expect(average).toMatchObject({ days: 90, broadcasts: 2, sent: 20 });
    // Opens and clicks of the 18 accepted (2 were refused at the door), bounces of the 20 sent.
    expect(average.rates).toMatchObject({ open: 0.444444, click: 0, bounce: 0.1 });
  });
});
