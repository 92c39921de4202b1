import { Prisma } from "@/lib/db";
import { sweepBatch, type SweepBatch, type SweepOptions } from "./sweep";

// An href, double- or single-quoted, as the click check reads links (lib/tracking/record-click.ts).
const HREF = `href\\s*=\\s*(?:"([^"]*)"|'([^']*)')`;

/**
 * One batch of EMAIL_BODY_RETENTION_DAYS: the HTML and text of emails older than the cutoff are
 * cleared, their rows kept (reports, counters, the recipient's history count them). What stays of
 * the HTML is its links (`body_links`), so a click on an old email still redirects: the click check
 * finds the link there (lib/tracking/tracked-email.ts). An email still to be sent keeps its body.
 * The update touches no indexed column, so PostgreSQL can write it in place (a HOT update).
 */
export function clearEmailBodies(options: SweepOptions): Promise<SweepBatch> {
  return sweepBatch("email-bodies", "emails", options, (cutoff) => ({
    counted: "cleared",
    ctes: Prisma.sql`
      cleared AS (
        UPDATE emails e SET html_content = NULL, text_content = NULL,
          body_links = CASE WHEN e.html_content IS NULL THEN e.body_links ELSE coalesce((
            SELECT string_agg(DISTINCT '<a href="' || replace(coalesce(m[1], m[2]), '"', '&quot;') || '"></a>', '')
            FROM regexp_matches(e.html_content, ${HREF}, 'gi') AS m), '') END
        FROM win
        WHERE e.id = win.id AND e.created_at < ${cutoff} AND e.status NOT IN ('queued', 'scheduled', 'sending')
          AND (e.html_content IS NOT NULL OR e.text_content IS NOT NULL)
        RETURNING e.id
      )`,
  }));
}
