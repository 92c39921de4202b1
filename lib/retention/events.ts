import { scopedTo, sweepBatch, type SweepBatch, type SweepOptions } from "./sweep";

/** Opens and clicks: reports count them, so their own sweep rolls them up first (tracking-hits.ts). */
export const TRACKING_EVENTS = ["email.opened", "email.clicked"];

/**
 * One batch of EVENT_RETENTION_DAYS: events older than the cutoff are deleted, but for opens and
 * clicks (TRACKING_RETENTION_DAYS) and any still announced, which the dispatcher has yet to hand to
 * webhooks and automations (lib/events/outbox.ts). Counters, reports and webhook deliveries keep
 * their own copies; what goes is the contact's timeline before the cutoff and the filter language's
 * event conditions over it ("purchased at least twice" counts the events kept).
 */
export function deleteOldEvents(options: SweepOptions): Promise<SweepBatch> {
  return sweepBatch("events", options, async (tx, { after, below, cutoff, limit }) => {
    const [row] = await tx.$queryRaw<{ scanned: number; last: string | null; changed: number }[]>`
      WITH win AS (
        SELECT e.id FROM events e WHERE e.id > ${after}::uuid AND e.id < ${below}::uuid ${scopedTo("e", options.organizationId)}
        ORDER BY e.id LIMIT ${limit}
      ),
      gone AS (
        DELETE FROM events e USING win
        WHERE e.id = win.id AND e.created_at < ${cutoff} AND e.name <> ALL(${TRACKING_EVENTS}::text[])
          AND NOT EXISTS (SELECT 1 FROM event_outbox o WHERE o.organization_id = e.organization_id AND o.event_id = e.id)
        RETURNING e.id
      )
      SELECT (SELECT count(*)::int FROM win) AS scanned, (SELECT id::text FROM win ORDER BY id DESC LIMIT 1) AS last,
        (SELECT count(*)::int FROM gone) AS changed`;
    return row;
  });
}
