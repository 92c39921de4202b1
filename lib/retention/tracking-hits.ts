import { Prisma } from "@/lib/db";
import { oldEventsGone } from "./events";
import { sweepBatch, type SweepBatch, type SweepOptions } from "./sweep";

/**
 * One batch of TRACKING_RETENTION_DAYS: opens and clicks older than the cutoff leave the events
 * table and their visitor (address, browser) leaves their email's `opens` / `clicked_links`.
 * A broadcast's report reads those events (lib/services/broadcast-report.ts), so what they counted
 * is added in the same statement to the rollups it reads beside them: per email, people's and
 * machines' opens and clicks and people's clicks per link (unique opens and clicks, and each link's
 * unique clickers, come out the same); per broadcast and hour, people's opens and clicks (the
 * timeline). The counters on broadcasts and emails (`opened_at`, `clicked_at`) are not touched.
 */
export function rollUpTrackingHits(options: SweepOptions): Promise<SweepBatch> {
  return sweepBatch("tracking-hits", "events", options, (cutoff) => ({
    counted: "gone",
    ctes: Prisma.sql`
      ${oldEventsGone(
        cutoff,
        true,
        Prisma.sql`e.organization_id, e.email_id, e.broadcast_id, e.name = 'email.opened' AS open, e.machine, e.occurred_at,
          e.properties->>'link' AS link`,
      )},
      links AS (
        SELECT email_id, jsonb_object_agg(link, n) AS links
        FROM (SELECT email_id, link, count(*) AS n FROM gone WHERE broadcast_id IS NOT NULL AND NOT open AND NOT machine AND link IS NOT NULL
              GROUP BY 1, 2) l
        GROUP BY 1
      ),
      per_email AS (
        INSERT INTO email_engagement_rollups AS r (email_id, organization_id, broadcast_id, opens, clicks, machine_opens, machine_clicks, links)
        SELECT g.email_id, g.organization_id, g.broadcast_id,
          count(*) FILTER (WHERE open AND NOT machine), count(*) FILTER (WHERE NOT open AND NOT machine),
          count(*) FILTER (WHERE open AND machine), count(*) FILTER (WHERE NOT open AND machine),
          coalesce((SELECT l.links FROM links l WHERE l.email_id = g.email_id), '{}')
        FROM gone g WHERE g.broadcast_id IS NOT NULL AND g.email_id IS NOT NULL
        GROUP BY 1, 2, 3
        ON CONFLICT (email_id) DO UPDATE SET
          opens = r.opens + excluded.opens, clicks = r.clicks + excluded.clicks,
          machine_opens = r.machine_opens + excluded.machine_opens, machine_clicks = r.machine_clicks + excluded.machine_clicks,
          links = (SELECT coalesce(jsonb_object_agg(k, n), '{}') FROM (
                    SELECT key AS k, sum(value::int) AS n FROM (
                      SELECT * FROM jsonb_each_text(r.links) UNION ALL SELECT * FROM jsonb_each_text(excluded.links)) a GROUP BY key) s)
      ),
      per_hour AS (
        INSERT INTO broadcast_engagement_hours AS h (broadcast_id, hour, organization_id, opens, clicks)
        SELECT broadcast_id, date_bin('1 hour', occurred_at, timestamptz 'epoch'), organization_id,
          count(*) FILTER (WHERE open), count(*) FILTER (WHERE NOT open)
        FROM gone WHERE broadcast_id IS NOT NULL AND NOT machine
        GROUP BY 1, 2, 3
        ON CONFLICT (broadcast_id, hour) DO UPDATE SET opens = h.opens + excluded.opens, clicks = h.clicks + excluded.clicks
      ),
      visitors AS (
        UPDATE emails e SET
          opens = (SELECT coalesce(jsonb_agg(x ORDER BY i), '[]') FROM jsonb_array_elements(e.opens) WITH ORDINALITY AS t(x, i)
                   WHERE (x->>'at')::timestamptz >= ${cutoff}),
          clicked_links = (SELECT coalesce(jsonb_agg(x ORDER BY i), '[]') FROM jsonb_array_elements(e.clicked_links) WITH ORDINALITY AS t(x, i)
                           WHERE (x->>'at')::timestamptz >= ${cutoff})
        FROM (SELECT DISTINCT organization_id, email_id FROM gone WHERE email_id IS NOT NULL) g
        WHERE e.id = g.email_id AND e.organization_id = g.organization_id
      )`,
  }));
}
