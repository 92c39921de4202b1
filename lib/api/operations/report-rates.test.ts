import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { broadcastReport, organizationOverview } from "@/lib/schemas/reports";
import { createTestOrg } from "@/lib/testing/api";
import { addTracking } from "@/lib/tracking/add-tracking";
import { recordClick } from "@/lib/tracking/record-click";
import { recordOpen } from "@/lib/tracking/record-open";
import { signClickToken, signOpenToken } from "@/lib/tracking/token";

// Honest numbers (issue 28): each rate is a fraction of the emails that could show it, and a rate
// nothing could measure is null ("not reported", "not tracked"), never 0 %.
const PERSON = { userAgent: "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Thunderbird/128.3.0", ip: "203.0.113.7" };
const APPLE_PROXY = { userAgent: "Mozilla/5.0", ip: "17.58.0.1" };
const GMAIL_PROXY = { userAgent: "Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)", ip: "66.249.84.1" };
const LINK = "https://example.com/offer";
const HTML = `<html><body><p><a href="${LINK}">Offer</a></p></body></html>`;
const SENT = new Date("2026-02-02T10:00:00.000Z");

/** What the engine noted when it sent an email; null: sent before the note existed (or never accepted). */
type Noted = { dsn_requested: boolean | null; opens_tracked: boolean | null; clicks_tracked: boolean | null };
type Fields = Partial<Noted> & { inbox?: boolean; step?: boolean; refused?: boolean; delivered?: boolean };

async function broadcastWith(name: string) {
  const org = await createTestOrg(name);
  const organization_id = org.organizationId;
  const inbox = await db.inbox.create({ data: { organization_id, name: "Ana", from_email: "ana@example.com", smtp_host: "127.0.0.1", smtp_port: 2525 } });
  const broadcast = await db.broadcast.create({
    data: { organization_id, name, subject: "News", from_email: "news@example.com", status: "sent", started_at: SENT, html_content: HTML },
  });
  const step = await db.sequenceStep.create({
    data: { organization_id, broadcast_id: broadcast.id, position: 1, delay_minutes: 60, html_content: HTML, track_opens: false, track_clicks: false },
  });
  async function email(fields: Fields) {
    const id = randomUUID();
    const noted = fields.refused ? { dsn_requested: null, opens_tracked: null, clicks_tracked: null } : {};
    await db.email.create({
      data: {
        id,
        organization_id,
        message_id: `<${id}@example.com>`,
        from_email: "news@example.com",
        to_email: `${id}@example.net`,
        subject: "News",
        html_content: addTracking(HTML, id).html,
        broadcast_id: broadcast.id,
        sequence_position: fields.step ? 1 : 0,
        step_id: fields.step ? step.id : null,
        inbox_id: fields.inbox ? inbox.id : null,
        status: fields.refused ? "bounced" : "sent",
        sent_at: fields.refused ? null : SENT,
        bounced_at: fields.refused ? SENT : null,
        delivered_at: fields.delivered ? SENT : null,
        dsn_requested: fields.dsn_requested ?? null,
        opens_tracked: fields.opens_tracked ?? null,
        clicks_tracked: fields.clicks_tracked ?? null,
        ...noted,
      },
    });
    return id;
  }
  const report = async () => {
    const answer = await org.owner.api.get(`/v1/broadcasts/${broadcast.id}/report`);
    expect(answer.status).toBe(200);
    return broadcastReport.parse(answer.body);
  };
  return { org, email, report };
}

const tracked = { opens_tracked: true, clicks_tracked: true };
const later = (minutes: number) => new Date(SENT.getTime() + minutes * 60_000);

describe("the rates of a broadcast's report", () => {
  it("are fractions of the emails that could show each: delivery of those that asked a relay for a report, opens and clicks of those accepted with the pixel or a tracked link", async () => {
    const { email, report } = await broadcastWith("Mixed paths");
    // Through the relay, a delivery report asked: delivered, a person opens and clicks.
    const reported = await email({ dsn_requested: true, ...tracked, delivered: true });
    // Through the relay, a report asked and not come yet; only Apple's privacy proxy loads the pixel.
    const prefetched = await email({ dsn_requested: true, ...tracked });
    // Through a relay that offers no DSN; opened in Gmail, through its image proxy (a person's open).
    const gmail = await email({ dsn_requested: false, ...tracked });
    // Through an inbox: no delivery report can come.
    await email({ inbox: true, dsn_requested: false, ...tracked });
    // Refused at the door: neither delivered, opened nor clicked.
    await email({ refused: true });
    // Sent before any of this was noted: relay mail could report delivery, an inbox's could not; both counted as tracked.
    await email({});
    await email({ inbox: true });
    // The follow-up, through the inbox with tracking off: it shows nothing.
    await email({ step: true, inbox: true, dsn_requested: false, opens_tracked: false, clicks_tracked: false });

    await recordOpen(signOpenToken(reported), PERSON, later(5));
    await recordClick(signClickToken(reported, LINK), PERSON, later(6));
    await recordOpen(signOpenToken(prefetched), APPLE_PROXY, later(1));
    await recordOpen(signOpenToken(gmail), GMAIL_PROXY, later(30));

    const { totals, rates, steps } = await report();
    expect(totals).toMatchObject({
      sent: 8,
      delivered: 1,
      delivery_reportable: 3,
      open_tracked: 6,
      click_tracked: 6,
      unique_opened: 2,
      unique_clicked: 1,
      machine_opens: 1,
      bounced: 1,
    });
    expect(rates).toMatchObject({ delivery: 0.333333, open: 0.333333, click: 0.166667, bounce: 0.125 });
    const [first, followUp] = steps;
    expect(first.rates).toMatchObject({ delivery: 0.333333, open: 0.333333, click: 0.166667 });
    // Nothing of the follow-up could be measured: not reported, not tracked; never 0 %.
    expect(followUp.totals).toMatchObject({ sent: 1, delivery_reportable: 0, open_tracked: 0, click_tracked: 0 });
    expect(followUp.rates).toMatchObject({ delivery: null, open: null, click: null, bounce: 0 });
  });

  it("are null, not 0 %, for a broadcast sent through inboxes without tracking: nothing could be reported or tracked", async () => {
    const { email, report } = await broadcastWith("Untracked");
    for (let i = 0; i < 3; i++) await email({ inbox: true, dsn_requested: false, opens_tracked: false, clicks_tracked: false });
    const { totals, rates } = await report();
    expect(totals).toMatchObject({ sent: 3, delivery_reportable: 0, open_tracked: 0, click_tracked: 0 });
    expect(rates).toMatchObject({ delivery: null, open: null, click: null, bounce: 0, reply: 0 });
  });

  it("count an open or click that was recorded, whatever was noted: no rate passes 100 %", async () => {
    const { email, report } = await broadcastWith("Noted wrong");
    const id = await email({ dsn_requested: false, opens_tracked: false, clicks_tracked: false, delivered: true });
    await recordOpen(signOpenToken(id), PERSON, later(5));
    await recordClick(signClickToken(id, LINK), PERSON, later(6));
    const { totals, rates } = await report();
    expect(totals).toMatchObject({ delivery_reportable: 1, open_tracked: 1, click_tracked: 1 });
    expect(rates).toMatchObject({ delivery: 1, open: 1, click: 1 });
  });
});

describe("the rates of the overview and the broadcasts' average", () => {
  it("are null where nothing of the period could be reported or tracked", async () => {
    const { org, email } = await broadcastWith("Inbox only");
    await db.broadcast.updateMany({ where: { organization_id: org.organizationId }, data: { started_at: new Date() } });
    await db.email.deleteMany({ where: { organization_id: org.organizationId } });
    for (let i = 0; i < 2; i++) await email({ inbox: true, dsn_requested: false, opens_tracked: false, clicks_tracked: false });
    // Sent now, for the overview's last 30 days.
    await db.email.updateMany({ where: { organization_id: org.organizationId }, data: { sent_at: new Date(), created_at: new Date() } });

    const overview = organizationOverview.parse((await org.owner.api.get("/v1/reports/overview")).body);
    expect(overview.totals).toMatchObject({ sent: 2, delivery_reportable: 0, open_tracked: 0, click_tracked: 0 });
    expect(overview.rates).toEqual({ delivery: null, open: null, click: null, bounce: 0, complaint: 0 });
    const average = (await org.owner.api.get("/v1/reports/broadcast-average")).body;
    expect(average).toMatchObject({ sent: 2, rates: { delivery: null, open: null, click: null } });
  });
});
