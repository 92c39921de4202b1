import { Prisma } from "@/lib/db";
import { sweepBatch, type SweepBatch, type SweepOptions } from "./sweep";

/** Opens and clicks: reports count them, so their own sweep rolls them up first (tracking-hits.ts). */
const TRACKING_EVENTS = ["email.opened", "email.clicked"];

/**
 * The CTE `gone`: the events of the sweep's window (`win`) older than the cutoff, opens and clicks
 * or all the others, deleted, returning `returning`. An event still announced, which the dispatcher
 * has yet to hand to webhooks and automations (lib/events/outbox.ts), stays until it is.
 */
export function oldEventsGone(cutoff: Date, tracking: boolean, returning: Prisma.Sql): Prisma.Sql {
  const kind = tracking ? Prisma.sql`e.name = ANY(${TRACKING_EVENTS}::text[])` : Prisma.sql`e.name <> ALL(${TRACKING_EVENTS}::text[])`;
  return Prisma.sql`gone AS (
    DELETE FROM events e USING win
    WHERE e.id = win.id AND e.created_at < ${cutoff} AND ${kind}
      AND NOT EXISTS (SELECT 1 FROM event_outbox o WHERE o.organization_id = e.organization_id AND o.event_id = e.id)
    RETURNING ${returning}
  )`;
}

/**
 * One batch of EVENT_RETENTION_DAYS: events older than the cutoff are deleted, but for opens and
 * clicks (TRACKING_RETENTION_DAYS) and any still announced. Counters, reports and webhook
 * deliveries keep their own copies; what goes is the contact's timeline before the cutoff and the
 * filter language's event conditions over it ("purchased at least twice" counts the events kept).
 */
export function deleteOldEvents(options: SweepOptions): Promise<SweepBatch> {
  return sweepBatch("events", "events", options, (cutoff) => ({ ctes: oldEventsGone(cutoff, false, Prisma.sql`e.id`), counted: "gone" }));
}
