import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { broadcastRecipient, broadcastReport, type BroadcastReport } from "@/lib/schemas/reports";
import { segment as segmentRecord } from "@/lib/schemas/segments";
import { createTestOrg, expectError, randomId, type TestOrg } from "@/lib/testing/api";
import { addTracking } from "@/lib/tracking/add-tracking";
import { recordClick } from "@/lib/tracking/record-click";
import { recordOpen } from "@/lib/tracking/record-open";
import { signClickToken, signOpenToken } from "@/lib/tracking/token";

const PERSON = { userAgent: "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Thunderbird/128.3.0", ip: "203.0.113.7" };
const CHROME = {
  userAgent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  ip: "198.51.100.9",
};
const APPLE_PROXY = { userAgent: "Mozilla/5.0", ip: "17.58.0.1" };
const PREFETCHER = { userAgent: "Barracuda Sentinel (EE)", ip: "66.249.84.1" };

const [A, B, C] = ["https://example.com/a", "https://example.com/b", "https://example.com/c"];
const HTML = `<html><body><p><a href="${A}">a</a> <a href="${B}">b</a> <a href="${C}">c</a></p></body></html>`;

// The broadcast started at 09:15 on 10 January; every event below is at a fixed offset from it.
const T0 = new Date("2026-01-10T09:15:00.000Z");
const HOUR = 3_600_000;
const at = (ms: number) => new Date(T0.getTime() + ms);

type Fixture = {
  org: TestOrg;
  broadcastId: string;
  stepId: string;
  contacts: { id: string; email: string }[];
  emails: Record<string, string>;
  inboxes: { id: string; name: string }[];
};

/**
 * Five recipients of a first email and a follow-up step to two of them:
 * - e1: delivered; a person opens it twice and clicks A twice and B once (B after 100 hours)
 * - e2: delivered and complained about; a person opens it after 80 hours and clicks C
 * - e3: unsubscribed; only Apple's privacy proxy loads its pixel
 * - e4: a security gateway's prefetch, then a person, open it; a scanner follows A, B and C within 2 s of delivery
 * - e5: bounced at the door (never accepted)
 * - s1, s2: the follow-up to the first two, sent after 26 hours; a person opens s1
 * - e1 and s2 are answered; e1–e3 and s1 went out from the inbox "Ana", e4 and s2 from "Ben", e5 through the relay
 */
async function seedReport(): Promise<Fixture> {
  const org = await createTestOrg("Reporting org");
  const organization_id = org.organizationId;
  const contacts: { id: string; email: string }[] = [];
  for (const name of ["Ada", "Bo", "Cy", "Di", "Ed"]) {
    contacts.push(
      await db.contact.create({
        data: { organization_id, email: `${name.toLowerCase()}-${randomUUID().slice(0, 6)}@example.net`, first_name: name, last_name: "Reader" },
      }),
    );
  }
  const broadcast = await db.broadcast.create({
    data: { organization_id, name: "January news", subject: "News", from_email: "news@example.com", status: "sent", started_at: T0, html_content: HTML },
  });
  const inboxes: { id: string; name: string }[] = [];
  for (const name of ["Ana", "Ben"]) {
    inboxes.push(
      await db.inbox.create({
        data: { organization_id, name, from_email: `${name.toLowerCase()}@example.com`, smtp_host: "127.0.0.1", smtp_port: 2525 },
        select: { id: true, name: true },
      }),
    );
  }
  const step = await db.sequenceStep.create({
    data: { organization_id, broadcast_id: broadcast.id, position: 1, delay_minutes: 26 * 60, text_content: "Again" },
  });

  const emails: Record<string, string> = {};
  async function email(
    key: string,
    contactIndex: number,
    fields: {
      position?: number;
      sent_at?: Date | null;
      bounced_at?: Date;
      delivered_at?: Date;
      complained_at?: Date;
      unsubscribed_at?: Date;
      replied_at?: Date;
      inbox?: number;
    },
  ) {
    const id = randomUUID();
    const contact = contacts[contactIndex];
    await db.email.create({
      data: {
        id,
        organization_id,
        message_id: `<${id}@example.com>`,
        from_email: "news@example.com",
        to_email: contact.email,
        subject: "News",
        html_content: addTracking(HTML, id).html,
        broadcast_id: broadcast.id,
        contact_id: contact.id,
        sequence_position: fields.position ?? 0,
        step_id: fields.position ? step.id : null,
        status: fields.bounced_at ? "bounced" : "sent",
        sent_at: fields.sent_at === undefined ? at(60_000) : fields.sent_at,
        // Relay mail, which asks for delivery reports: delivery is a rate of all of it that was accepted (the
        // engine notes it when the relay accepts an email; one refused at the door has no note).
        dsn_requested: fields.sent_at === null ? null : true,
        bounced_at: fields.bounced_at,
        delivered_at: fields.delivered_at,
        complained_at: fields.complained_at,
        unsubscribed_at: fields.unsubscribed_at,
        replied_at: fields.replied_at,
        inbox_id: fields.inbox === undefined ? null : inboxes[fields.inbox].id,
      },
    });
    emails[key] = id;
    return id;
  }
  await email("e1", 0, { delivered_at: at(2 * 60_000), replied_at: at(HOUR), inbox: 0 });
  await email("e2", 1, { delivered_at: at(2 * 60_000), complained_at: at(81 * HOUR), inbox: 0 });
  await email("e3", 2, { unsubscribed_at: at(4 * HOUR), inbox: 0 });
  await email("e4", 3, { inbox: 1 });
  await email("e5", 4, { sent_at: null, bounced_at: at(2 * 60_000) });
  await email("s1", 0, { position: 1, sent_at: at(26 * HOUR), inbox: 0 });
  await email("s2", 1, { position: 1, sent_at: at(26 * HOUR), replied_at: at(30 * HOUR), inbox: 1 });

  const open = (key: string, visitor: typeof PERSON, when: Date) => recordOpen(signOpenToken(emails[key]), visitor, when);
  const click = (key: string, url: string, visitor: typeof PERSON, when: Date) => recordClick(signClickToken(emails[key], url), visitor, when);
  await open("e1", PERSON, at(30 * 60_000));
  await open("e1", PERSON, at(2 * HOUR));
  await click("e1", A, PERSON, at(31 * 60_000));
  await click("e1", A, PERSON, at(3 * HOUR));
  await click("e1", B, PERSON, at(100 * HOUR));
  await open("e2", PERSON, at(80 * HOUR));
  await click("e2", C, CHROME, at(81 * HOUR));
  await open("e3", APPLE_PROXY, at(61_000));
  await open("e4", PREFETCHER, at(62_000));
  await open("e4", PERSON, at(5 * HOUR));
  await click("e4", A, CHROME, at(60_500));
  await click("e4", B, CHROME, at(61_000));
  await click("e4", C, CHROME, at(61_500));
  await open("s1", PERSON, at(27 * HOUR));
  return { org, broadcastId: broadcast.id, stepId: step.id, contacts, emails, inboxes };
}

let fixture: Fixture;
let report: BroadcastReport;

beforeAll(async () => {
  fixture = await seedReport();
  const answer = await fixture.org.owner.api.get(`/v1/broadcasts/${fixture.broadcastId}/report`);
  expect(answer.status).toBe(200);
  report = broadcastReport.parse(answer.body);
});

describe("GET /v1/broadcasts/{id}/report", () => {
  it("counts every open and click by people, unique ones per email, and machines' apart", () => {
    expect(report.totals).toEqual({
      recipients: 5,
      sent: 7,
      delivered: 2,
      delivery_reportable: 6,
      // Sent before tracking was noted on each email (null): counted as tracked, as reports did then; e5 was refused at the door.
      open_tracked: 6,
      click_tracked: 6,
      opened: 5,
      unique_opened: 4,
      clicked: 4,
      unique_clicked: 2,
      bounced: 1,
      complained: 1,
      unsubscribed: 1,
      machine_opens: 2,
      machine_clicks: 3,
      replied: 2,
    });
  });

  it("computes each rate from unique counts, machines left out, out of the emails that could show it", () => {
    const r = (n: number, of: number) => Math.round((n / of) * 1e6) / 1e6;
    // Delivery, opens and clicks: of the 6 emails accepted (e5 was refused at the door: it could be neither delivered, opened nor clicked).
    expect(report.rates).toEqual({
      delivery: r(2, 6),
      open: r(4, 6),
      click: r(2, 6),
      bounce: r(1, 7),
      complaint: r(1, 7),
      unsubscribe: r(1, 7),
      reply: r(2, 7),
    });
  });

  it("lists people's clicks per link, most clicked first", () => {
    expect(report.links).toEqual([
      { url: A, clicks: 2, unique_clicks: 1 },
      { url: B, clicks: 1, unique_clicks: 1 },
      { url: C, clicks: 1, unique_clicks: 1 },
    ]);
  });

  it("buckets the timeline hourly for 72 hours from the starting hour, then daily, adding up to the totals", () => {
    const hour = (h: number) => new Date(Date.UTC(2026, 0, 10, 9) + h * HOUR).toISOString();
    // 72 hourly buckets, then a day from hour 72 (the open after 80 hours) and one from hour 96 (the click after 100).
    expect(report.timeline).toHaveLength(74);
    expect(report.timeline[0]).toEqual({ at: hour(0), sent: 5, opened: 1, clicked: 1 });
    expect(report.timeline[26]).toEqual({ at: hour(26), sent: 2, opened: 0, clicked: 0 });
    expect(report.timeline[72]).toEqual({ at: hour(72), sent: 0, opened: 1, clicked: 1 });
    expect(report.timeline[73]).toEqual({ at: hour(96), sent: 0, opened: 0, clicked: 1 });
    const sum = (key: "sent" | "opened" | "clicked") => report.timeline.reduce((total, bucket) => total + bucket[key], 0);
    expect([sum("sent"), sum("opened"), sum("clicked")]).toEqual([report.totals.sent, report.totals.opened, report.totals.clicked]);
    expect(report.timeline.filter((b) => b.sent + b.opened + b.clicked > 0).map((b) => b.at)).toEqual([
      hour(0),
      hour(2),
      hour(3),
      hour(5),
      hour(26),
      hour(27),
      hour(72),
      hour(96),
    ]);
  });

  it("gives the funnel of the sequence: the first email, then each step", () => {
    expect(report.steps.map((s) => [s.step_id, s.position])).toEqual([
      [null, 0],
      [fixture.stepId, 1],
    ]);
    const [first, followUp] = report.steps;
    expect(first.totals).toMatchObject({
      recipients: 5,
      sent: 5,
      opened: 4,
      unique_opened: 3,
      clicked: 4,
      unique_clicked: 2,
      bounced: 1,
      machine_opens: 2,
      machine_clicks: 3,
      open_tracked: 4,
    });
    expect(first.rates).toMatchObject({ open: 0.75, click: 0.5, bounce: 0.2, reply: 0.2 });
    expect(followUp.totals).toMatchObject({
      recipients: 2,
      sent: 2,
      opened: 1,
      unique_opened: 1,
      clicked: 0,
      unique_clicked: 0,
      bounced: 0,
      machine_opens: 0,
      replied: 1,
    });
    expect(followUp.rates).toMatchObject({ open: 0.5, click: 0, reply: 0.5 });
  });

  it("gives the replies per sending inbox, most sent first, relay emails in no row", () => {
    const [ana, ben] = fixture.inboxes;
    expect(report.inboxes).toEqual([
      { inbox_id: ana.id, name: "Ana", sent: 4, replied: 1, reply_rate: 0.25 },
      { inbox_id: ben.id, name: "Ben", sent: 2, replied: 1, reply_rate: 0.5 },
    ]);
  });

  it("answers an empty report for a draft, with its one (empty) step", async () => {
    const draft = await db.broadcast.create({
      data: { organization_id: fixture.org.organizationId, name: "Draft", subject: "S", from_email: "news@example.com" },
    });
    const answer = await fixture.org.owner.api.get(`/v1/broadcasts/${draft.id}/report`);
    expect(answer.status).toBe(200);
    const empty = broadcastReport.parse(answer.body);
    expect(empty.totals.sent).toBe(0);
    // Nothing sent, nothing measured: no rate says 0 %.
    expect(empty.rates).toMatchObject({ delivery: null, open: null, click: null });
    expect(empty.timeline).toEqual([]);
    expect(empty.links).toEqual([]);
    expect(empty.steps).toHaveLength(1);
    expect(empty.variants).toEqual([]);
  });

  it("answers 404 for another organization's broadcast, and 400 for a malformed id", async () => {
    const stranger = await createTestOrg("Stranger");
    expectError(await stranger.owner.api.get(`/v1/broadcasts/${fixture.broadcastId}/report`), 404, "NOT_FOUND");
    expectError(await stranger.owner.api.get(`/v1/broadcasts/${fixture.broadcastId}/recipients?event=opened`), 404, "NOT_FOUND");
    expectError(await stranger.owner.api.post(`/v1/broadcasts/${fixture.broadcastId}/recipients/segment`, { event: "opened" }), 404, "NOT_FOUND");
    expect(await db.segment.count({ where: { organization_id: stranger.organizationId } })).toBe(0);
    expectError(await fixture.org.owner.api.get(`/v1/broadcasts/${randomId()}/report`), 404, "NOT_FOUND");
    expectError(await fixture.org.owner.api.get(`/v1/broadcasts/not-a-uuid/report`), 400, "VALIDATION_ERROR");
  });
});

describe("opens and clicks recorded in email_events before they were events", () => {
  it("count once the migration has folded them into events, with or without their broadcast", async () => {
    const org = await createTestOrg();
    const broadcast = await db.broadcast.create({
      data: { organization_id: org.organizationId, name: "Old", subject: "S", from_email: "n@example.com", status: "sent", started_at: T0 },
    });
    const email = await db.email.create({
      data: {
        organization_id: org.organizationId,
        message_id: `<${randomUUID()}@x>`,
        from_email: "n@example.com",
        to_email: "r@example.net",
        subject: "S",
        broadcast_id: broadcast.id,
        status: "sent",
        sent_at: T0,
        opened_at: at(HOUR),
      },
    });
    const report = async () => broadcastReport.parse((await org.owner.api.get(`/v1/broadcasts/${broadcast.id}/report`)).body);
    expect((await report()).totals).toMatchObject({ opened: 0, clicked: 0 });

    const dir = readdirSync("prisma/migrations").find((name) => name.endsWith("_fold_email_events"))!;
    const fold = readFileSync(path.join("prisma/migrations", dir, "migration.sql"), "utf8").match(/INSERT INTO "events"[\s\S]*?;/)![0];
    const client = new pg.Client({ connectionString: env.databaseUrl });
    await client.connect();
    try {
      await client.query("BEGIN");
      // The table as the old code wrote it (it is gone now): an open without its broadcast (before
      // machines were told apart), a person's click with it, a proxy's open.
      await client.query(`CREATE TEMP TABLE email_events (id uuid PRIMARY KEY DEFAULT uuid_v7(), organization_id uuid NOT NULL, email_id uuid NOT NULL,
        type text NOT NULL, data jsonb NOT NULL DEFAULT '{}', broadcast_id uuid, machine boolean NOT NULL DEFAULT false, created_at timestamptz(3) NOT NULL) ON COMMIT DROP`);
      await client.query(
        `INSERT INTO email_events (organization_id, email_id, type, data, broadcast_id, machine, created_at) VALUES
          ($1, $2, 'opened', '{"user_agent": "Mozilla/5.0"}', NULL, false, $4),
          ($1, $2, 'clicked', jsonb_build_object('url', $6::text), $3, false, $5),
          ($1, $2, 'opened', '{"machine": "apple_privacy_proxy"}', $3, true, $5)`,
        [org.organizationId, email.id, broadcast.id, at(HOUR), at(2 * HOUR), A],
      );
      // Scoped to this test's email, so that it never meets rows other tests are writing.
      await client.query(fold.replace(/;$/, ` WHERE ev."email_id" = '${email.id}'::uuid;`));
      await client.query("COMMIT");
    } finally {
      await client.end();
    }
    expect((await report()).totals).toMatchObject({ opened: 1, unique_opened: 1, clicked: 1, unique_clicked: 1, machine_opens: 1, machine_clicks: 0 });
    expect((await report()).links).toEqual([{ url: A, clicks: 1, unique_clicks: 1 }]);
    const events = await db.event.findMany({ where: { email_id: email.id }, orderBy: { occurred_at: "asc" } });
    expect(events.map((e) => [e.name, e.source, e.broadcast_id])).toEqual([
      ["email.opened", "tracking", broadcast.id],
      ["email.clicked", "tracking", broadcast.id],
      ["email.opened", "tracking", broadcast.id],
    ]);
    expect(events[0].properties).toMatchObject({ first_open: true, machine: false });
    expect(events[1].properties).toMatchObject({ link: A, machine: false });
  });
});

describe("GET /v1/broadcasts/{id}/recipients", () => {
  const list = async (query: string) => {
    const answer = await fixture.org.owner.api.get(`/v1/broadcasts/${fixture.broadcastId}/recipients?${query}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    for (const item of answer.body.data) broadcastRecipient.parse(item);
    return answer.body as { object: "list"; has_more: boolean; data: { id: string; email: string; first_name: string; position: number; at: string }[] };
  };
  const ids = (page: { data: { id: string }[] }) => page.data.map((r) => r.id);

  it("lists the people who opened, latest first, never a proxy-only recipient, with their contacts", async () => {
    const { e1, e2, e4, s1 } = fixture.emails;
    const opened = await list("event=opened");
    expect(ids(opened)).toEqual([e2, s1, e4, e1]);
    expect(opened.has_more).toBe(false);
    expect(opened.data[0]).toMatchObject({
      email: fixture.contacts[1].email,
      first_name: "Bo",
      last_name: "Reader",
      position: 0,
      at: at(80 * HOUR).toISOString(),
    });
    expect(opened.data[2].at).toBe(at(5 * HOUR).toISOString());
    expect(ids(await list("event=opened&position=0"))).toEqual([e2, e4, e1]);
    expect(ids(await list("event=opened&position=1"))).toEqual([s1]);
  });

  it("lists clickers (not the scanner), bounces, unsubscribes and complaints", async () => {
    const { e1, e2, e3, e5 } = fixture.emails;
    expect(ids(await list("event=clicked"))).toEqual([e2, e1]);
    expect(ids(await list("event=bounced"))).toEqual([e5]);
    expect(ids(await list("event=unsubscribed"))).toEqual([e3]);
    expect(ids(await list("event=complained"))).toEqual([e2]);
    expect((await list("event=sent")).data).toHaveLength(6);
  });

  it("pages with after and before over the same order", async () => {
    const { e1, e2, e4, s1 } = fixture.emails;
    const first = await list("event=opened&limit=2");
    expect(ids(first)).toEqual([e2, s1]);
    expect(first.has_more).toBe(true);
    const second = await list(`event=opened&limit=2&after=${s1}`);
    expect(ids(second)).toEqual([e4, e1]);
    expect(second.has_more).toBe(false);
    const back = await list(`event=opened&limit=2&before=${e4}`);
    expect(ids(back)).toEqual([e2, s1]);
  });

  it("refuses an unknown event (400) and a cursor that is not an item of the list (422)", async () => {
    expectError(await fixture.org.owner.api.get(`/v1/broadcasts/${fixture.broadcastId}/recipients?event=read`), 400, "VALIDATION_ERROR");
    expectError(await fixture.org.owner.api.get(`/v1/broadcasts/${fixture.broadcastId}/recipients`), 400, "VALIDATION_ERROR");
    const notOpened = await fixture.org.owner.api.get(`/v1/broadcasts/${fixture.broadcastId}/recipients?event=opened&after=${fixture.emails.e3}`);
    expect(notOpened.status).toBe(422);
    expect(notOpened.body).toMatchObject({ name: "validation_error", statusCode: 422 });
  });
});

describe("POST /v1/broadcasts/{id}/recipients/segment", () => {
  const members = async (segmentId: string) => {
    const answer = await fixture.org.owner.api.get(`/v1/contacts?segment_id=${segmentId}`);
    return (answer.body.contacts as { email: string }[]).map((c) => c.email).sort();
  };

  it("saves the openers as a new segment, each contact once, named after the broadcast", async () => {
    const saved = await fixture.org.owner.api.post(`/v1/broadcasts/${fixture.broadcastId}/recipients/segment`, { event: "opened" });
    expect(saved.status).toBe(201);
    const segment = segmentRecord.parse(saved.body);
    expect(segment).toMatchObject({ name: "January news: openers", contacts_count: 3, organization_id: fixture.org.organizationId });
    expect(await members(segment.id)).toEqual([fixture.contacts[0].email, fixture.contacts[1].email, fixture.contacts[3].email].sort());
  });

  it("takes a name and a step, and leaves out recipients whose contact is gone", async () => {
    const saved = await fixture.org.owner.api.post(`/v1/broadcasts/${fixture.broadcastId}/recipients/segment`, {
      event: "opened",
      position: 1,
      name: "Read the follow-up",
    });
    expect(saved.body).toMatchObject({ name: "Read the follow-up", contacts_count: 1 });
    expect(await members(saved.body.id)).toEqual([fixture.contacts[0].email]);

    const bounced = await fixture.org.owner.api.post(`/v1/broadcasts/${fixture.broadcastId}/recipients/segment`, { event: "bounced" });
    expect(bounced.body).toMatchObject({ name: "January news: bounced", contacts_count: 1 });
    expectError(await fixture.org.owner.api.post(`/v1/broadcasts/${fixture.broadcastId}/recipients/segment`, { event: "nope" }), 400, "VALIDATION_ERROR");
    expectError(
      await fixture.org.owner.api.post(`/v1/broadcasts/${fixture.broadcastId}/recipients/segment`, { event: "opened", name: "" }),
      400,
      "VALIDATION_ERROR",
    );
  });
});
