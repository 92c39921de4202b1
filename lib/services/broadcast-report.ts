import type { OrgContext } from "@/lib/domain/context";
import { notFound } from "@/lib/domain/errors";
import { pool } from "@/lib/db/pool";
import type { BroadcastReport, ReportRates, ReportTotals } from "@/lib/schemas/reports";
import { denominatorSql } from "@/lib/domain/report-denominators";
import type { VariantTally } from "@/lib/domain/ab-test";

/** Hourly buckets over the first 72 hours, then 24-hour ones; the last daily bucket holds anything later. */
const HOURLY_BUCKETS = 72;
const DAILY_BUCKETS = 365;
const MAX_LINKS = 100;
export const REPORT_WORK_MEM = "64MB";

// One statement, so every figure comes from the same snapshot. Opens and clicks were classified
// when recorded (events.machine), so nothing here inspects a user agent: the broadcast's
// emails come from the emails' broadcast index, its engagement from the partial index on
// events (broadcast_id, occurred_at) of opens and clicks, each read once, and from the rollups of
// those retention deleted (TRACKING_RETENTION_DAYS), so a report reads the same before and after.
const COUNTS = denominatorSql("");

export const REPORT_SQL = `
WITH b AS (
  SELECT id, started_at, created_at, variants, ab_winner_index FROM broadcasts WHERE id = $1 AND organization_id = $2
),
em AS MATERIALIZED (
  SELECT id, sequence_position AS position, variant_index, coalesce(sent_at, bounced_at) AS handed_at,
         delivered_at, bounced_at, complained_at, unsubscribed_at, replied_at, inbox_id,
         ${COUNTS.delivery} AS delivery_reportable, ${COUNTS.opens} AS open_tracked, ${COUNTS.clicks} AS click_tracked
  FROM emails WHERE broadcast_id = $1 AND organization_id = $2
),
ev AS MATERIALIZED (
  SELECT email_id, CASE name WHEN 'email.opened' THEN 'opened' ELSE 'clicked' END AS type, machine,
         occurred_at AS created_at, properties->>'link' AS url
  FROM events
  WHERE broadcast_id = $1 AND organization_id = $2 AND name IN ('email.opened', 'email.clicked')
),
-- What the opens and clicks whose events retention deleted counted (lib/retention/tracking-hits.ts).
rolled AS MATERIALIZED (
  SELECT email_id, opens, clicks, machine_opens, machine_clicks, links
  FROM email_engagement_rollups WHERE broadcast_id = $1 AND organization_id = $2
),
per_email AS (
  SELECT coalesce(x.email_id, r.email_id) AS email_id,
         coalesce(x.opens, 0) + coalesce(r.opens, 0) AS opens,
         coalesce(x.clicks, 0) + coalesce(r.clicks, 0) AS clicks,
         coalesce(x.machine_opens, 0) + coalesce(r.machine_opens, 0) AS machine_opens,
         coalesce(x.machine_clicks, 0) + coalesce(r.machine_clicks, 0) AS machine_clicks
  FROM (
    SELECT email_id,
           count(*) FILTER (WHERE type = 'opened' AND NOT machine) AS opens,
           count(*) FILTER (WHERE type = 'clicked' AND NOT machine) AS clicks,
           count(*) FILTER (WHERE type = 'opened' AND machine) AS machine_opens,
           count(*) FILTER (WHERE type = 'clicked' AND machine) AS machine_clicks
    FROM ev GROUP BY email_id
  ) x FULL JOIN rolled r ON r.email_id = x.email_id
),
funnel AS (
  SELECT em.position,
         count(*) AS recipients,
         count(*) FILTER (WHERE em.handed_at IS NOT NULL) AS sent,
         count(*) FILTER (WHERE em.delivered_at IS NOT NULL) AS delivered,
         count(*) FILTER (WHERE em.handed_at IS NOT NULL AND em.delivery_reportable) AS delivery_reportable,
         count(*) FILTER (WHERE em.open_tracked) AS open_tracked,
         count(*) FILTER (WHERE em.click_tracked) AS click_tracked,
         coalesce(sum(p.opens), 0) AS opened,
         count(*) FILTER (WHERE p.opens > 0) AS unique_opened,
         coalesce(sum(p.clicks), 0) AS clicked,
         count(*) FILTER (WHERE p.clicks > 0) AS unique_clicked,
         count(*) FILTER (WHERE em.bounced_at IS NOT NULL) AS bounced,
         count(*) FILTER (WHERE em.complained_at IS NOT NULL) AS complained,
         count(*) FILTER (WHERE em.unsubscribed_at IS NOT NULL) AS unsubscribed,
         coalesce(sum(p.machine_opens), 0) AS machine_opens,
         coalesce(sum(p.machine_clicks), 0) AS machine_clicks,
         count(*) FILTER (WHERE em.replied_at IS NOT NULL) AS replied
  FROM em LEFT JOIN per_email p ON p.email_id = em.id
  GROUP BY ROLLUP (em.position)
),
-- An A/B test's variants, compared on their test share only (the rest got the winner).
ab AS (
  SELECT em.variant_index AS index, count(*) AS recipients,
         count(*) FILTER (WHERE em.open_tracked) AS open_tracked,
         count(*) FILTER (WHERE em.click_tracked) AS click_tracked,
         count(*) FILTER (WHERE p.opens > 0) AS unique_opened,
         count(*) FILTER (WHERE p.clicks > 0) AS unique_clicked
  FROM em LEFT JOIN per_email p ON p.email_id = em.id
  WHERE em.position = 0 AND em.variant_index IS NOT NULL
  GROUP BY em.variant_index
),
anchor AS (
  SELECT date_trunc('hour', coalesce(b.started_at, (SELECT min(handed_at) FROM em), b.created_at), 'UTC') AS t0 FROM b
),
-- Per hour first (cheap), then each hour into its bucket: a handful of rows get the CASE, not every email.
hours AS (
  SELECT date_bin('1 hour', handed_at, a.t0) AS hour, count(*) AS sent, 0 AS opened, 0 AS clicked
  FROM em CROSS JOIN anchor a WHERE handed_at IS NOT NULL GROUP BY 1
  UNION ALL
  SELECT date_bin('1 hour', created_at, a.t0), 0, count(*) FILTER (WHERE type = 'opened'), count(*) FILTER (WHERE type = 'clicked')
  FROM ev CROSS JOIN anchor a WHERE NOT machine GROUP BY 1
  UNION ALL
  SELECT date_bin('1 hour', h.hour, a.t0), 0, h.opens, h.clicks
  FROM broadcast_engagement_hours h CROSS JOIN anchor a WHERE h.broadcast_id = $1 AND h.organization_id = $2
),
buckets AS (
  SELECT CASE
           WHEN h.hour < a.t0 + interval '${HOURLY_BUCKETS} hours' THEN greatest(h.hour, a.t0)
           ELSE least(date_bin('1 day', h.hour, a.t0 + interval '${HOURLY_BUCKETS} hours'),
                      a.t0 + interval '${HOURLY_BUCKETS} hours' + interval '${DAILY_BUCKETS - 1} days')
         END AS bucket,
         h.sent, h.opened, h.clicked
  FROM hours h CROSS JOIN anchor a
)
SELECT
  (SELECT count(*) FROM b) AS found,
  (SELECT variants FROM b) AS variants,
  (SELECT ab_winner_index FROM b) AS winner,
  (SELECT coalesce(json_agg(ab), '[]') FROM ab) AS ab,
  (SELECT t0 FROM anchor) AS t0,
  (SELECT coalesce(json_agg(f), '[]') FROM funnel f) AS funnel,
  (SELECT coalesce(json_agg(json_build_object('at', bucket, 'sent', sent, 'opened', opened, 'clicked', clicked) ORDER BY bucket), '[]')
     FROM (SELECT bucket, sum(sent) AS sent, sum(opened) AS opened, sum(clicked) AS clicked FROM buckets GROUP BY bucket) t) AS timeline,
  (SELECT coalesce(json_agg(l ORDER BY l.clicks DESC, l.url), '[]')
     FROM (SELECT url, sum(n) AS clicks, count(DISTINCT email_id) AS unique_clicks
           FROM (SELECT url, email_id, 1 AS n FROM ev WHERE type = 'clicked' AND NOT machine AND url IS NOT NULL
                 UNION ALL SELECT l.key, r.email_id, l.value::int FROM rolled r CROSS JOIN jsonb_each_text(r.links) l) c
           GROUP BY url ORDER BY sum(n) DESC, url LIMIT ${MAX_LINKS}) l) AS links,
  (SELECT coalesce(json_agg(json_build_object('id', id, 'position', position) ORDER BY position), '[]')
     FROM sequence_steps WHERE broadcast_id = $1 AND organization_id = $2) AS steps,
  (SELECT coalesce(json_agg(json_build_object('inbox_id', x.inbox_id, 'name', i.name, 'sent', x.sent, 'replied', x.replied)
       ORDER BY x.sent DESC, i.name), '[]')
     FROM (SELECT inbox_id, count(*) FILTER (WHERE handed_at IS NOT NULL) AS sent, count(*) FILTER (WHERE replied_at IS NOT NULL) AS replied
           FROM em WHERE inbox_id IS NOT NULL GROUP BY inbox_id) x
     JOIN inboxes i ON i.id = x.inbox_id AND i.organization_id = $2) AS inboxes`;

type FunnelRow = Record<keyof ReportTotals, number | string> & { position: number | null };
type Row = {
  found: string;
  variants: { subject: string }[] | null;
  winner: number | null;
  ab: Record<keyof VariantTally, number | string>[];
  t0: Date | null;
  funnel: FunnelRow[];
  timeline: { at: string; sent: number; opened: number; clicked: number }[];
  links: { url: string; clicks: number; unique_clicks: number }[];
  steps: { id: string; position: number }[];
  inboxes: { inbox_id: string; name: string; sent: number; replied: number }[];
};

const TOTAL_KEYS = [
  "recipients",
  "sent",
  "delivered",
  "delivery_reportable",
  "open_tracked",
  "click_tracked",
  "opened",
  "unique_opened",
  "clicked",
  "unique_clicked",
  "bounced",
  "complained",
  "unsubscribed",
  "machine_opens",
  "machine_clicks",
  "replied",
] as const satisfies readonly (keyof ReportTotals)[];

const emptyTotals = (): ReportTotals => Object.fromEntries(TOTAL_KEYS.map((key) => [key, 0])) as ReportTotals;

function totalsOf(row: FunnelRow | undefined): ReportTotals {
  const totals = emptyTotals();
  if (row) for (const key of TOTAL_KEYS) totals[key] = Number(row[key]);
  return totals;
}

const share = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1e6) / 1e6 : 0);
/** A rate that could not be measured at all is null ("not reported", "not tracked"), never 0. */
const measured = (part: number, whole: number) => (whole > 0 ? share(part, whole) : null);

/**
 * Each rate is a fraction of the emails that could show it (report-denominators.ts): delivery of
 * those that could report it (mail sent through an inbox never gets a delivery report), people's
 * unique opens and clicks of those accepted with the pixel or a tracked link; bounces, complaints
 * and unsubscribes of `sent`.
 */
export function ratesOf(
  totals: Pick<
    ReportTotals,
    | "sent"
    | "delivered"
    | "delivery_reportable"
    | "open_tracked"
    | "click_tracked"
    | "unique_opened"
    | "unique_clicked"
    | "bounced"
    | "complained"
    | "unsubscribed"
  >,
): ReportRates {
  return {
    delivery: measured(totals.delivered, totals.delivery_reportable),
    open: measured(totals.unique_opened, totals.open_tracked),
    click: measured(totals.unique_clicked, totals.click_tracked),
    bounce: share(totals.bounced, totals.sent),
    complaint: share(totals.complained, totals.sent),
    unsubscribe: share(totals.unsubscribed, totals.sent),
  };
}

/** A broadcast's rates: the shared ones, and replies (a sequence's measure of success). */
const broadcastRatesOf = (totals: ReportTotals) => ({ ...ratesOf(totals), reply: share(totals.replied, totals.sent) });

/** The hourly-then-daily buckets from the start to the last one with anything in it, empty ones included. */
function fillTimeline(t0: Date | null, buckets: Row["timeline"]): BroadcastReport["timeline"] {
  if (!t0 || buckets.length === 0) return [];
  const byTime = new Map(buckets.map((b) => [new Date(b.at).getTime(), b]));
  const last = Math.max(...byTime.keys());
  const timeline: BroadcastReport["timeline"] = [];
  for (let i = 0; i < HOURLY_BUCKETS + DAILY_BUCKETS; i++) {
    const at = t0.getTime() + (i < HOURLY_BUCKETS ? i * 3_600_000 : HOURLY_BUCKETS * 3_600_000 + (i - HOURLY_BUCKETS) * 86_400_000);
    if (at > last) break;
    const bucket = byTime.get(at);
    timeline.push({
      at: new Date(at).toISOString(),
      sent: Number(bucket?.sent ?? 0),
      opened: Number(bucket?.opened ?? 0),
      clicked: Number(bucket?.clicked ?? 0),
    });
  }
  return timeline;
}

/**
 * Runs the statement with room to hash a large broadcast's emails and events in memory (PostgreSQL's
 * default 4 MB spills them to disk, which took a third of the time at 100 000 recipients).
 */
async function readReport(broadcastId: string, organizationId: string): Promise<Row> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN READ ONLY");
    await client.query(`SET LOCAL work_mem = '${REPORT_WORK_MEM}'`);
    const { rows } = await client.query<Row>({ name: "broadcast-report", text: REPORT_SQL, values: [broadcastId, organizationId] });
    await client.query("COMMIT");
    return rows[0];
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** GET /v1/broadcasts/{id}/report: what became of a broadcast's emails, in one SQL statement. */
export async function getBroadcastReport(ctx: OrgContext, broadcastId: string): Promise<BroadcastReport> {
  const row = await readReport(broadcastId, ctx.organizationId);
  if (Number(row.found) === 0) throw notFound("Broadcast");
  const byPosition = new Map(row.funnel.filter((f) => f.position !== null).map((f) => [Number(f.position), f]));
  const all = totalsOf(row.funnel.find((f) => f.position === null));
  // At the top level, recipients are people: those of the first email, not every step's emails.
  const totals = { ...all, recipients: totalsOf(byPosition.get(0)).recipients };
  const positions = [{ id: null, position: 0 }, ...row.steps];
  const steps = positions.map((step) => {
    const stepTotals = totalsOf(byPosition.get(step.position));
    return { step_id: step.id, position: step.position, totals: stepTotals, rates: broadcastRatesOf(stepTotals) };
  });
  return {
    totals,
    rates: broadcastRatesOf(totals),
    links: row.links.map((l) => ({ url: l.url, clicks: Number(l.clicks), unique_clicks: Number(l.unique_clicks) })),
    timeline: fillTimeline(row.t0, row.timeline),
    steps,
    inboxes: row.inboxes.map((i) => ({ ...i, reply_rate: share(Number(i.replied), Number(i.sent)) })),
    variants: variantsOf(row),
  };
}

/**
 * Each A/B variant with its test share's figures (zeros until its emails exist), in variant order;
 * its rates of the emails that could show them, as the report's own and the winner's choice.
 */
function variantsOf(row: Row): BroadcastReport["variants"] {
  const tallies = new Map(row.ab.map((t) => [Number(t.index), t]));
  return (row.variants ?? []).map((variant, index) => {
    const tally = tallies.get(index);
    const figure = (key: keyof VariantTally) => Number(tally?.[key] ?? 0);
    return {
      index,
      subject: variant.subject,
      recipients: figure("recipients"),
      open_tracked: figure("open_tracked"),
      click_tracked: figure("click_tracked"),
      unique_opened: figure("unique_opened"),
      unique_clicked: figure("unique_clicked"),
      open_rate: measured(figure("unique_opened"), figure("open_tracked")),
      click_rate: measured(figure("unique_clicked"), figure("click_tracked")),
      winner: row.winner === index,
    };
  });
}
