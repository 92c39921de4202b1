import { recordEventsCtes } from "@/lib/events/sql";
import { replyExitsCtes } from "@/lib/sequences/reply-exits";
import { replyRunExitsCtes } from "@/lib/automations/leave";

/** One reply of a batch as the statement takes it, matched to the email it answers and judged by the rules. */
export type ReplyRow = {
  position: number;
  message_id: string;
  from_email: string;
  from_name: string | null;
  to_email: string;
  reply_to: string | null;
  subject: string;
  html_content: string | null;
  text_content: string | null;
  in_reply_to: string | null;
  references: string[];
  sent_at: string | null;
  attachments: { filename: string | null; content_type: string; size: number }[];
  headers: Record<string, string | null>;
  /** The email answered, and what its thread (made now if it has none) and the replies' rows copy of it. */
  original_id: string;
  original_subject: string;
  original_inbox_id: string | null;
  contact_id: string | null;
  broadcast_id: string | null;
  automation_id: string | null;
  automation_run_id: string | null;
  thread_id: string | null;
  category: string;
  /** An out-of-office answer's return (auto-reply.ts), when its sender's follow-ups wait. */
  hold_until: string | null;
  /** The sender's company, when their reply stops the broadcast there (not a free-mail domain). */
  stop_domain: string | null;
};

/**
 * Records a batch of replies in one statement: $1 the organization, $2 the inbox, $3 when they
 * were received, $4 the replies (ReplyRow[] as JSON, ascending position), $5 the inbox's new mark
 * (or null), $6 $3 as the events write it, $7 the emails answered (ids: the planner then reads them by
 * key, whatever it guesses of the organization's emails). Each reply is stored once: one already stored (read
 * again after a crash, or by a concurrent poll) is skipped by the unique index and does nothing
 * else, so everything below follows the replies this statement stored (`stored`):
 *
 * - an inbound `received` email in the thread of the email it answers, the thread made when that
 *   email has none; the thread's last message and its category (its last reply's, over what a
 *   person chose: each message is news);
 * - an out-of-office answer (`out_of_office`) is kept in the thread and holds its sender's
 *   follow-ups, nothing more: not a reply;
 * - a reply marks the email answered `replied_at`, counts once per recipient on the broadcast
 *   (`replied_count`: no email of theirs in it was answered before), takes them out of the sequence,
 *   stops it at their company (lib/sequences/reply-exits.ts), ends their sales automation run
 *   (lib/automations/leave.ts), and records `email.replied` with its announcement, naming the
 *   email's automation (lib/events: webhooks and automations take it from there).
 *
 * The statement answers the replies it stored, by position.
 */
export const RECORD_REPLIES = `
  WITH v AS MATERIALIZED (
    SELECT * FROM jsonb_to_recordset($4::jsonb) AS x(position int, message_id text, from_email text, from_name text, to_email text,
      reply_to text, subject text, html_content text, text_content text, in_reply_to text, "references" text[], sent_at timestamptz,
      attachments jsonb, headers jsonb, original_id uuid, original_subject text, original_inbox_id uuid, contact_id uuid, broadcast_id uuid,
      automation_id uuid, automation_run_id uuid, thread_id uuid, category text, hold_until timestamptz, stop_domain text)
  ),
  new_threads AS MATERIALIZED (
    SELECT uuid_v7() AS id, original_id, original_subject, original_inbox_id, contact_id, broadcast_id, automation_id
    FROM (SELECT DISTINCT ON (original_id) * FROM v WHERE thread_id IS NULL ORDER BY original_id, position) firsts
  ),
  m AS MATERIALIZED (
    SELECT v.*, COALESCE(v.thread_id, t.id) AS tid, v.category = 'out_of_office' AS automatic
    FROM v LEFT JOIN new_threads t ON t.original_id = v.original_id
  ),
  inserted AS (
    INSERT INTO emails (organization_id, message_id, direction, status, from_email, from_name, to_email, reply_to, subject, html_content,
      text_content, contact_id, inbox_id, thread_id, parent_email_id, in_reply_to, "references", sent_at, attachments, headers)
    SELECT $1::uuid, message_id, 'inbound', 'received', from_email, from_name, to_email, reply_to, subject, html_content,
      text_content, contact_id, $2::uuid, tid, original_id, in_reply_to, "references", sent_at, attachments, headers
    FROM m ORDER BY position
    ON CONFLICT (organization_id, message_id) WHERE direction = 'inbound' DO NOTHING
    RETURNING id, message_id
  ),
  stored AS MATERIALIZED (SELECT m.*, i.id AS email_id FROM m JOIN inserted i ON i.message_id = m.message_id),
  last_replies AS (SELECT DISTINCT ON (tid) tid, category FROM stored ORDER BY tid, position DESC),
  threads_made AS (
    INSERT INTO threads (id, organization_id, subject, contact_id, inbox_id, broadcast_id, automation_id, last_message_at, category)
    SELECT t.id, $1::uuid, t.original_subject, t.contact_id, t.original_inbox_id, t.broadcast_id, t.automation_id, $3::timestamptz,
      l.category::"ThreadCategory"
    FROM new_threads t JOIN last_replies l ON l.tid = t.id
  ),
  threads_touched AS (
    UPDATE threads t SET last_message_at = $3::timestamptz, category = l.category::"ThreadCategory", updated_at = now()
    FROM last_replies l WHERE t.id = l.tid AND t.organization_id = $1::uuid
  ),
  answered AS (
    UPDATE emails e SET thread_id = COALESCE(e.thread_id, a.tid), replied_at = CASE WHEN a.replied THEN COALESCE(e.replied_at, $3::timestamptz) ELSE e.replied_at END,
      updated_at = now()
    FROM (SELECT original_id, (array_agg(tid))[1] AS tid, bool_or(NOT automatic) AS replied FROM stored GROUP BY original_id) a
    WHERE e.id = a.original_id AND e.id = ANY($7::uuid[]) AND e.organization_id = $1::uuid AND (e.thread_id IS NULL OR (a.replied AND e.replied_at IS NULL))
  ),
  repliers AS (
    SELECT DISTINCT broadcast_id, contact_id FROM stored WHERE NOT automatic AND broadcast_id IS NOT NULL AND contact_id IS NOT NULL
  ),
  first_replies AS (
    SELECT r.broadcast_id, count(*)::int AS replied FROM repliers r
    WHERE NOT EXISTS (SELECT 1 FROM emails e WHERE e.broadcast_id = r.broadcast_id AND e.contact_id = r.contact_id AND e.organization_id = $1::uuid
      AND e.replied_at IS NOT NULL)
    GROUP BY r.broadcast_id
  ),
  company_replies AS (SELECT DISTINCT broadcast_id, stop_domain AS domain FROM stored WHERE NOT automatic AND broadcast_id IS NOT NULL AND stop_domain IS NOT NULL),
  away AS (
    SELECT contact_id, max(hold_until) AS until, (array_agg(hold_until ORDER BY position DESC))[1] AS latest FROM stored
    WHERE automatic AND contact_id IS NOT NULL AND hold_until IS NOT NULL GROUP BY contact_id
  ),
  run_repliers AS (SELECT DISTINCT automation_run_id AS run_id FROM stored WHERE NOT automatic AND automation_run_id IS NOT NULL),
  ${replyExitsCtes("$1::uuid")},
  ${replyRunExitsCtes("$1::uuid")},
  counted AS (
    UPDATE broadcasts b SET replied_count = b.replied_count + c.replied, total_recipients = GREATEST(b.total_recipients - c.cancelled, 0), updated_at = now()
    FROM (
      SELECT broadcast_id, sum(replied)::int AS replied, sum(cancelled)::int AS cancelled FROM (
        SELECT broadcast_id, replied, 0 AS cancelled FROM first_replies
        UNION ALL SELECT broadcast_id, 0, count(*)::int FROM exits WHERE broadcast_id IS NOT NULL GROUP BY broadcast_id
      ) changes GROUP BY broadcast_id
    ) c
    WHERE b.id = c.broadcast_id AND b.organization_id = $1::uuid
  ),
  ${recordEventsCtes(
    "reply_events",
    ["organization_id", "contact_id", "name", "properties", "source", "email_id", "broadcast_id", "automation_id", "occurred_at"],
    `SELECT $1::uuid, contact_id, 'email.replied',
       jsonb_build_object('reply', jsonb_build_object('email_id', email_id, 'from', from_email, 'subject', subject, 'message_id', message_id, 'received_at', $6::text)),
       'replies', original_id, broadcast_id, automation_id, $3::timestamptz
     FROM stored WHERE NOT automatic ORDER BY position`,
  )},
  marked AS (UPDATE inboxes SET imap_last_uid = $5::int WHERE $5::int IS NOT NULL AND id = $2::uuid AND organization_id = $1::uuid)
  SELECT position, email_id, tid AS thread_id FROM stored ORDER BY position`;
