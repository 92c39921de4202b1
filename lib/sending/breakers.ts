import type { BroadcastPauseReason } from "@/lib/generated/prisma/enums";
import { errorField, log } from "@/lib/log";
import { engineDb } from "./engine-db";
import { pauseBroadcastIn } from "./pause-broadcast";

/**
 * Circuit breakers. A list full of dead addresses, or a message people report as spam, ruins the
 * sending domain's reputation for every later email; mailbox providers act at a few percent of
 * bounces and at 0.3 % of complaints. So a broadcast pauses itself (`paused_reason` `bounce_rate`
 * or `complaint_rate`) when, over at least BREAKER_MIN_ATTEMPTS attempts, its hard bounces pass the
 * organization's `bounce_pause_threshold` (5 %) of its attempts or its complaints pass
 * `complaint_pause_threshold` (0.3 %) of the emails accepted, counting one complaint per recipient
 * and at least BREAKER_MIN_COMPLAINANTS of them. Attempts are emails a server accepted
 * or refused. A person who resumes it starts the count again from there (breaker_base_*), so the
 * breaker judges the new attempts and may trip again on them, never at once on the old ones.
 *
 * An inbox pauses itself (`paused_reason` `bounce_rate`; rotation and sequences skip it) when its
 * latest INBOX_WINDOW attempts of the last INBOX_WINDOW_DAYS days, at least INBOX_MIN_ATTEMPTS of
 * them since it was last resumed, bounce past the same threshold.
 *
 * Checked after each recorded batch that had a hard bounce (and each batch of delivery reports),
 * for the broadcasts and inboxes in it, from the counters the engine already keeps: no query per
 * email, and the breaker trips within a batch or two of crossing its threshold.
 */
export const BREAKER_MIN_ATTEMPTS = 100;
/**
 * Complaints are rare events that anyone who receives a broadcast can report, unauthenticated: at
 * 0.3 % one complaint passed the line for any broadcast under 334 recipients, so any one receiver
 * could pause it, again after each resume. The complaint breaker judges a rate only once this many
 * different recipients have complained since the broadcast started (or was resumed): the bounce
 * breaker's own floor, 5 % of its 100 attempts. Past that, the threshold decides as before.
 */
const BREAKER_MIN_COMPLAINANTS = 5;
// The same minimum as a broadcast's: an inbox sending one broadcast must not stop it before the
// broadcast's own breaker could judge it (and say why on the broadcast).
const INBOX_MIN_ATTEMPTS = BREAKER_MIN_ATTEMPTS;
const INBOX_WINDOW = 200;
const INBOX_WINDOW_DAYS = 14;

type Tripped = { id: string; organization_id: string; reason: BroadcastPauseReason };

/** Pauses the sending broadcasts among `broadcastIds` whose rates passed their organization's thresholds. Answers those paused. */
export async function tripBroadcastBreakers(broadcastIds: string[]): Promise<string[]> {
  if (broadcastIds.length === 0) return [];
  const client = engineDb();
  const tripped = await client.$queryRaw<Tripped[]>`
    WITH counted AS (
      -- The counters plus what is recorded but not yet folded into them (broadcast-counters.ts).
      SELECT b.id, b.organization_id, b.complained_count - b.breaker_base_complained AS complained,
             b.sent_count - b.breaker_base_sent + coalesce(d.sent, 0) AS accepted,
             b.bounced_count - b.breaker_base_bounced + coalesce(d.bounced, 0) AS bounced,
             o.bounce_pause_threshold, o.complaint_pause_threshold
      FROM broadcasts b
      JOIN organizations o ON o.id = b.organization_id
      LEFT JOIN LATERAL (
        SELECT sum(sent_count)::int AS sent, sum(bounced_count)::int AS bounced FROM broadcast_counter_deltas WHERE broadcast_id = b.id
      ) d ON true
      WHERE b.id = ANY(${broadcastIds}::uuid[]) AND b.status = 'sending'
    ),
    judged AS (
      SELECT *, accepted + bounced AS attempts, bounced > bounce_pause_threshold * (accepted + bounced) AS bouncing FROM counted
      WHERE accepted + bounced >= ${BREAKER_MIN_ATTEMPTS}
    ),
    -- The counter counts complained emails; a recipient who reports several (a sequence's steps)
    -- is one complainant. Read only where the counter alone would trip: the complaints since the
    -- base are the counter's newest ones.
    complainants AS (
      SELECT j.id, (
        SELECT count(DISTINCT lower(btrim(recent.to_email)))::int FROM (
          SELECT e.to_email FROM emails e
          WHERE e.broadcast_id = j.id AND e.organization_id = j.organization_id AND e.complained_at IS NOT NULL
          ORDER BY e.complained_at DESC LIMIT j.complained
        ) recent
      ) AS people
      FROM judged j
      WHERE NOT j.bouncing AND j.complained >= ${BREAKER_MIN_COMPLAINANTS} AND j.complained > j.complaint_pause_threshold * greatest(j.accepted, 1)
    )
    SELECT j.id, j.organization_id, CASE WHEN j.bouncing THEN 'bounce_rate' ELSE 'complaint_rate' END AS reason
    FROM judged j LEFT JOIN complainants c ON c.id = j.id
    WHERE j.bouncing OR (c.people >= ${BREAKER_MIN_COMPLAINANTS} AND c.people > j.complaint_pause_threshold * greatest(j.accepted, 1))`;
  const paused: string[] = [];
  for (const row of tripped) {
    const done = await client.$transaction((tx) => pauseBroadcastIn(tx, row.organization_id, row.id, row.reason));
    if (done) {
      paused.push(row.id);
      log.warn({ organization_id: row.organization_id, broadcast_id: row.id, reason: row.reason }, "circuit breaker: broadcast paused");
    }
  }
  return paused;
}

/** Pauses the inboxes among `inboxIds` whose recent bounce rate passed their organization's threshold. Answers those paused. */
async function tripInboxBreakers(inboxIds: string[]): Promise<string[]> {
  if (inboxIds.length === 0) return [];
  const rows = await engineDb().$queryRaw<{ id: string; organization_id: string }[]>`
    WITH judged AS (
      SELECT i.id, i.organization_id, o.bounce_pause_threshold, recent.attempts, recent.bounced
      FROM inboxes i
      JOIN organizations o ON o.id = i.organization_id
      CROSS JOIN LATERAL (
        SELECT count(*)::int AS attempts, count(*) FILTER (WHERE e.status = 'bounced')::int AS bounced
        FROM (
          SELECT e.status FROM emails e
          WHERE e.organization_id = i.organization_id AND e.inbox_id = i.id
            AND e.status IN ('sent', 'delivered', 'bounced', 'complained')
            AND e.updated_at > greatest(coalesce(i.breaker_since, '-infinity'), now() - make_interval(days => ${INBOX_WINDOW_DAYS}))
          ORDER BY e.updated_at DESC
          LIMIT ${INBOX_WINDOW}
        ) e
      ) recent
      WHERE i.id = ANY(${inboxIds}::uuid[]) AND NOT i.paused
    )
    UPDATE inboxes i SET paused = true, paused_reason = 'bounce_rate', paused_at = now(), updated_at = now()
    FROM judged
    WHERE i.id = judged.id AND i.organization_id = judged.organization_id
      AND judged.attempts >= ${INBOX_MIN_ATTEMPTS} AND judged.bounced > judged.bounce_pause_threshold * judged.attempts
    RETURNING i.id, i.organization_id`;
  for (const row of rows) log.warn({ organization_id: row.organization_id, inbox_id: row.id }, "circuit breaker: inbox paused");
  return rows.map((row) => row.id);
}

/** Both breakers after a recorded batch. A breaker that cannot run now runs at the next batch: never an error for the caller. */
export async function tripBreakers(broadcastIds: string[], inboxIds: string[]): Promise<void> {
  await Promise.all([tripBroadcastBreakers(broadcastIds), tripInboxBreakers(inboxIds)]).catch((error: unknown) =>
    log.error({ err: errorField(error) }, "circuit breaker: the check failed; it runs again with the next batch"),
  );
}

/** After delivery reports were recorded: the breakers of the broadcasts and inboxes of the emails that bounced or drew a complaint. */
export async function tripBreakersForEmails(emails: { id: string; organizationId: string }[]): Promise<void> {
  if (emails.length === 0) return;
  const rows = await engineDb().$queryRaw<{ broadcast_id: string | null; inbox_id: string | null }[]>`
    SELECT DISTINCT e.broadcast_id, e.inbox_id FROM emails e
    JOIN unnest(${emails.map((e) => e.id)}::uuid[], ${emails.map((e) => e.organizationId)}::uuid[]) AS v(id, organization_id)
      ON e.id = v.id AND e.organization_id = v.organization_id`;
  await tripBreakers(
    [...new Set(rows.flatMap((r) => (r.broadcast_id ? [r.broadcast_id] : [])))],
    [...new Set(rows.flatMap((r) => (r.inbox_id ? [r.inbox_id] : [])))],
  );
}
