import type { OrgContext } from "@/lib/domain/context";
import { db } from "@/lib/db";
import { pool } from "@/lib/db/pool";
import type { BroadcastAverage, OrganizationOverview } from "@/lib/schemas/reports";
import { ratesOf } from "./broadcast-report";
import { denominatorSql } from "@/lib/domain/report-denominators";
import { collectWarnings } from "./organization-warnings";

const DAY_MS = 86_400_000;
const OVERVIEW_DAYS = 30;
const AVERAGE_DAYS = 90;
const MAX_SENDING = 20;

// The emails sent (or bounced) in the period, per UTC day, and what became of them. opened_at and
// clicked_at are people's (lib/tracking), so no event is read. The created_at bound lets the
// (organization_id, created_at) index find them: an email is sent within days of being created,
// and one kept back longer than the slack is left out.
const CREATED_SLACK_DAYS = 60;
const COUNTS = denominatorSql("");
const DAILY_SQL = `
SELECT to_char(date_trunc('day', coalesce(sent_at, bounced_at), 'UTC') AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS date,
       count(*) AS sent,
       count(*) FILTER (WHERE delivered_at IS NOT NULL) AS delivered,
       count(*) FILTER (WHERE ${COUNTS.delivery}) AS delivery_reportable,
       count(*) FILTER (WHERE opened_at IS NOT NULL) AS opened,
       count(*) FILTER (WHERE ${COUNTS.opens}) AS open_tracked,
       count(*) FILTER (WHERE ${COUNTS.clicks}) AS click_tracked,
       count(*) FILTER (WHERE clicked_at IS NOT NULL) AS clicked,
       count(*) FILTER (WHERE bounced_at IS NOT NULL) AS bounced,
       count(*) FILTER (WHERE complained_at IS NOT NULL) AS complained
FROM emails
WHERE organization_id = $1 AND direction = 'outbound'
  AND created_at >= $2::timestamptz - interval '${CREATED_SLACK_DAYS} days'
  AND coalesce(sent_at, bounced_at) >= $2::timestamptz
GROUP BY 1`;

const FIELDS = ["sent", "delivered", "opened", "clicked", "bounced", "complained"] as const;
/** What the rates are fractions of (report-denominators.ts): in the totals, not in each day. */
const DENOMINATORS = ["delivery_reportable", "open_tracked", "click_tracked"] as const;
type DailyRow = Record<(typeof FIELDS)[number] | (typeof DENOMINATORS)[number], string> & { date: string };

/** GET /v1/reports/overview: the last 30 days of sending, the broadcasts sending now, and what needs attention. */
export async function getOrganizationOverview(ctx: OrgContext, now = new Date()): Promise<OrganizationOverview> {
  const from = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS - (OVERVIEW_DAYS - 1) * DAY_MS);
  const [{ rows }, sending] = await Promise.all([
    pool.query<DailyRow>({ name: "organization-overview-daily", text: DAILY_SQL, values: [ctx.organizationId, from] }),
    db.broadcast.findMany({
      where: { organization_id: ctx.organizationId, status: "sending" },
      select: { id: true, name: true, status: true, total_recipients: true, sent_count: true, started_at: true },
      orderBy: [{ started_at: "desc" }, { id: "desc" }],
      take: MAX_SENDING,
    }),
  ]);
  const byDate = new Map(rows.map((row) => [row.date, row]));
  const totals = { sent: 0, delivered: 0, delivery_reportable: 0, opened: 0, open_tracked: 0, clicked: 0, click_tracked: 0, bounced: 0, complained: 0 };
  const daily: OrganizationOverview["daily"] = [];
  for (let i = 0; i < OVERVIEW_DAYS; i++) {
    const date = new Date(from.getTime() + i * DAY_MS).toISOString().slice(0, 10);
    const row = byDate.get(date);
    const day = { date, sent: 0, delivered: 0, opened: 0, clicked: 0, bounced: 0, complained: 0 };
    for (const field of FIELDS) {
      day[field] = Number(row?.[field] ?? 0);
      totals[field] += day[field];
    }
    for (const field of DENOMINATORS) totals[field] += Number(row?.[field] ?? 0);
    daily.push(day);
  }
  const all = ratesOf({ ...totals, unique_opened: totals.opened, unique_clicked: totals.clicked, unsubscribed: 0 });
  const rates = { delivery: all.delivery, open: all.open, click: all.click, bounce: all.bounce, complaint: all.complaint };
  const warnings = await collectWarnings(ctx, totals);
  return {
    from: from.toISOString(),
    to: now.toISOString(),
    totals,
    rates,
    daily,
    sending: sending.map((b) => ({ ...b, started_at: b.started_at?.toISOString() ?? null })),
    warnings,
  };
}

const EMAIL_COUNTS = denominatorSql("e.");
// The pooled rates of the broadcasts started in the period: each email of them counts once, so a
// large broadcast weighs as much as its recipients.
const AVERAGE_SQL = `
SELECT count(DISTINCT b.id) AS broadcasts,
       count(e.id) FILTER (WHERE coalesce(e.sent_at, e.bounced_at) IS NOT NULL) AS sent,
       count(e.id) FILTER (WHERE e.delivered_at IS NOT NULL) AS delivered,
       count(e.id) FILTER (WHERE ${EMAIL_COUNTS.delivery}) AS delivery_reportable,
       count(e.id) FILTER (WHERE ${EMAIL_COUNTS.opens}) AS open_tracked,
       count(e.id) FILTER (WHERE ${EMAIL_COUNTS.clicks}) AS click_tracked,
       count(e.id) FILTER (WHERE e.opened_at IS NOT NULL) AS unique_opened,
       count(e.id) FILTER (WHERE e.clicked_at IS NOT NULL) AS unique_clicked,
       count(e.id) FILTER (WHERE e.bounced_at IS NOT NULL) AS bounced,
       count(e.id) FILTER (WHERE e.complained_at IS NOT NULL) AS complained,
       count(e.id) FILTER (WHERE e.unsubscribed_at IS NOT NULL) AS unsubscribed
FROM broadcasts b
LEFT JOIN emails e ON e.broadcast_id = b.id AND e.organization_id = $1
WHERE b.organization_id = $1 AND b.started_at >= $2`;

/** GET /v1/reports/broadcast-average: the organization's rates over its broadcasts of the last 90 days. */
export async function getBroadcastAverage(ctx: OrgContext, now = new Date()): Promise<BroadcastAverage> {
  const since = new Date(now.getTime() - AVERAGE_DAYS * DAY_MS);
  const { rows } = await pool.query<Record<string, string>>({ name: "broadcast-average", text: AVERAGE_SQL, values: [ctx.organizationId, since] });
  const n = (key: string) => Number(rows[0]?.[key] ?? 0);
  const totals = {
    sent: n("sent"),
    delivered: n("delivered"),
    delivery_reportable: n("delivery_reportable"),
    open_tracked: n("open_tracked"),
    click_tracked: n("click_tracked"),
    unique_opened: n("unique_opened"),
    unique_clicked: n("unique_clicked"),
    bounced: n("bounced"),
    complained: n("complained"),
    unsubscribed: n("unsubscribed"),
  };
  return { days: AVERAGE_DAYS, broadcasts: n("broadcasts"), sent: totals.sent, rates: ratesOf(totals) };
}
