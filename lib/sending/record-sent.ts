import type pg from "pg";
import { recordEventsCtes } from "@/lib/events/sql";
import { RELEASE_UPDATED, stillClaimed } from "./claim-sql";

/**
 * Everything that follows an accepted email, in one statement (so one transaction and one round
 * trip, prepared once per connection): the email becomes `sent` (only while this worker's claim
 * exists, which ends with it: a late duplicate never counts twice), its `email.sent` event and the
 * event's announcement (lib/events: webhooks and other consumers take it from there), the
 * broadcast's counter delta, the thread's last message, the inbox's error cleared. This is most of
 * what the engine writes; a Prisma transaction of six statements cost more CPU than the SMTP
 * conversation it records. `rows` is the statement giving the emails as `v` (id, sent_at,
 * provider_message_id, subject, html_content, text_content, headers, dsn_requested, opens_tracked,
 * clicks_tracked); `answer` what it answers from `updated`, the emails it recorded.
 */
export const recordSentSql = (rows: string, answer = "SELECT DISTINCT broadcast_id FROM updated WHERE broadcast_id IS NOT NULL") => `
  WITH v AS MATERIALIZED (${rows}),
  updated AS (
    UPDATE emails e SET status = 'sent', sent_at = v.sent_at, provider_message_id = v.provider_message_id,
      subject = v.subject, html_content = v.html_content, text_content = v.text_content, headers = v.headers, dsn_requested = v.dsn_requested,
      opens_tracked = v.opens_tracked, clicks_tracked = v.clicks_tracked,
      last_error = NULL, next_attempt_at = NULL, attempts = e.attempts + 1, updated_at = now()
    FROM v WHERE e.id = v.id AND ${stillClaimed("e")}
    RETURNING e.id, e.organization_id, e.message_id, e.broadcast_id, e.automation_id, e.contact_id, e.thread_id, e.inbox_id, e.from_email,
      e.to_email, e.subject, e.tags, e.created_at, e.sent_at, e.provider_message_id
  ),
  released AS (${RELEASE_UPDATED}),
  ${recordEventsCtes(
    "sent_events",
    ["organization_id", "contact_id", "name", "source", "email_id", "broadcast_id", "automation_id", "occurred_at"],
    "SELECT organization_id, contact_id, 'email.sent', 'sending', id, broadcast_id, automation_id, sent_at FROM updated",
  )},
  counters AS (
    INSERT INTO broadcast_counter_deltas (broadcast_id, sent_count)
    SELECT broadcast_id, count(*)::int FROM updated WHERE broadcast_id IS NOT NULL GROUP BY broadcast_id
  ),
  touched_threads AS (
    UPDATE threads t SET last_message_at = u.sent_at, updated_at = now() FROM updated u
    -- Only a thread the email joined (a sequence's follow-up): a broadcast's or transactional email's
    -- own thread was written in the same transaction (so at the same now()) and already says when;
    -- rewriting it cost a non-HOT update of threads per email.
    WHERE t.id = u.thread_id AND t.created_at < u.created_at
  ),
  recovered AS (
    -- A send ends a run of sending failures (inbox-health.ts); a polling failure is the poller's to clear.
    UPDATE inboxes i SET last_error = NULL, failure_count = 0
    WHERE i.id IN (SELECT DISTINCT inbox_id FROM updated WHERE inbox_id IS NOT NULL) AND i.last_error IS NOT NULL
      AND NOT starts_with(i.last_error, 'Reading replies failed: ')
  )
  ${answer}`;

/** $1: the accepted emails as JSON. */
const RECORD_SENT = recordSentSql(`
  SELECT * FROM jsonb_to_recordset($1::jsonb)
    AS v(id uuid, sent_at timestamptz, provider_message_id text, subject text, html_content text, text_content text, headers jsonb, dsn_requested boolean,
      opens_tracked boolean, clicks_tracked boolean)`);

/** One accepted email: the email as sent, when, and what the server answered. */
export type SentRow = {
  id: string;
  sent_at: string;
  provider_message_id: string;
  subject: string;
  html_content: string | null;
  text_content: string | null;
  headers: Record<string, string>;
  /** A delivery report was asked of a server that offers them (the report's delivery rate counts only these). */
  dsn_requested: boolean;
  /** Whether the HTML sent carries the open pixel, and click redirects (track-outgoing.ts). */
  opens_tracked: boolean;
  clicks_tracked: boolean;
};

/** Records accepted emails; answers the broadcasts they belong to. */
export async function writeSent(pool: pg.Pool, rows: SentRow[]): Promise<string[]> {
  if (rows.length === 0) return [];
  const { rows: touched } = await pool.query<{ broadcast_id: string }>({
    name: "engine-record-sent",
    text: RECORD_SENT,
    values: [JSON.stringify(rows)],
  });
  return touched.map((row) => row.broadcast_id);
}
