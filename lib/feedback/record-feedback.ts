import { Prisma } from "@/lib/db";
import { recordEventsCtes } from "@/lib/events/sql";
import { SEQUENCE_EXIT_PREFIX } from "@/lib/sequences/dispatch";
import type { EmailForEvent } from "@/lib/webhooks/email-event-data";
import type { FeedbackKind } from "./parse-report";

/** One report's meaning for one email of one organization. */
export type FeedbackOutcome = {
  emailId: string;
  organizationId: string;
  kind: FeedbackKind;
  /** Enhanced status code (5.1.1), for DSNs. */
  status: string | null;
  /** The receiving server's words (Diagnostic-Code), or the ARF feedback type. */
  diagnostic: string | null;
  source: "smtp" | "imap";
};

type Row = EmailForEvent & { organization_id: string; kind: string; status: string | null; diagnostic: string | null; source: string };

const returning = Prisma.raw(
  "e.id, e.organization_id, e.message_id, e.broadcast_id, e.automation_id, e.contact_id, e.thread_id, e.from_email, e.to_email, e.subject, e.tags, e.created_at, v.kind, v.status, v.diagnostic, v.source",
);

// Each statement changes an email only on its first report of that kind (the timestamp still
// null), so a report delivered twice, or two reports of the same event, change nothing twice.
// Every statement joins on the organization as well as on the email.
const input = (rows: FeedbackOutcome[]) =>
  JSON.stringify(
    rows.map((r) => ({
      email_id: r.emailId,
      organization_id: r.organizationId,
      kind: r.kind,
      status: r.status,
      diagnostic: r.diagnostic?.slice(0, 1000) ?? null,
      source: r.source,
    })),
  );

const values = (rows: FeedbackOutcome[]) => Prisma.sql`(
  SELECT DISTINCT ON (email_id) * FROM jsonb_to_recordset(${input(rows)}::jsonb)
    AS v(email_id uuid, organization_id uuid, kind text, status text, diagnostic text, source text))`;

/**
 * The CTEs recording each changed email's event, `properties` being what its webhook adds to the
 * email's fields (lib/webhooks/announce.ts): `delivery`, `bounce`, `complaint`.
 */
const events = (name: string, properties: string) =>
  Prisma.raw(
    recordEventsCtes(
      "events",
      ["organization_id", "contact_id", "name", "properties", "source", "email_id", "broadcast_id", "automation_id", "occurred_at"],
      `SELECT organization_id, contact_id, '${name}', ${properties}, 'feedback', id, broadcast_id, automation_id, now() FROM updated`,
    ),
  );
const report = (key: string, type?: "soft" | "hard") =>
  `jsonb_build_object('${key}', jsonb_build_object(${type ? `'type', '${type}', ` : ""}'status', status, 'message', diagnostic, 'source', source))`;

async function recordDelivered(tx: Prisma.TransactionClient, rows: FeedbackOutcome[]): Promise<Row[]> {
  if (rows.length === 0) return [];
  return tx.$queryRaw<Row[]>`WITH v AS ${values(rows)},
    updated AS (
      UPDATE emails e SET delivered_at = now(), status = CASE WHEN e.status = 'sent' THEN 'delivered'::"EmailStatus" ELSE e.status END, updated_at = now()
      FROM v WHERE e.id = v.email_id AND e.organization_id = v.organization_id AND e.direction = 'outbound'
        AND e.sent_at IS NOT NULL AND e.delivered_at IS NULL AND e.bounced_at IS NULL
      RETURNING ${returning}
    ),
    ${events("email.delivered", report("delivery"))},
    counters AS (
      UPDATE broadcasts b SET delivered_count = b.delivered_count + c.n, updated_at = now()
      FROM (SELECT organization_id, broadcast_id, count(*)::int AS n FROM updated WHERE broadcast_id IS NOT NULL GROUP BY 1, 2) c
      WHERE b.id = c.broadcast_id AND b.organization_id = c.organization_id
    ),
    -- A delivery ends a run of soft bounces to the address.
    streaks AS (
      DELETE FROM soft_bounce_streaks s USING updated u WHERE s.organization_id = u.organization_id AND s.email = lower(trim(u.to_email))
    )
    SELECT * FROM updated`;
}

async function recordSoftBounces(tx: Prisma.TransactionClient, rows: FeedbackOutcome[]): Promise<Row[]> {
  if (rows.length === 0) return [];
  return tx.$queryRaw<Row[]>`WITH v AS ${values(rows)},
    updated AS (
      UPDATE emails e SET bounce_type = 'soft', bounce_status = v.status, bounce_diagnostic = v.diagnostic, updated_at = now()
      FROM v WHERE e.id = v.email_id AND e.organization_id = v.organization_id AND e.direction = 'outbound'
        AND e.sent_at IS NOT NULL AND e.bounce_type IS NULL AND e.delivered_at IS NULL
      RETURNING ${returning}
    ),
    ${events("email.bounced", report("bounce", "soft"))},
    counters AS (
      UPDATE broadcasts b SET soft_bounced_count = b.soft_bounced_count + c.n, updated_at = now()
      FROM (SELECT organization_id, broadcast_id, count(*)::int AS n FROM updated WHERE broadcast_id IS NOT NULL GROUP BY 1, 2) c
      WHERE b.id = c.broadcast_id AND b.organization_id = c.organization_id
    ),
    streaks AS (
      INSERT INTO soft_bounce_streaks AS s (organization_id, email, count, last_email_id)
      SELECT organization_id, lower(trim(to_email)), count(*)::int, (array_agg(id))[1] FROM updated GROUP BY 1, 2
      ON CONFLICT (organization_id, email) DO UPDATE SET count = s.count + EXCLUDED.count, last_email_id = EXCLUDED.last_email_id, updated_at = now()
      RETURNING s.organization_id, s.email, s.count, s.last_email_id
    ),
    -- The third soft bounce in a row suppresses the address.
    suppressed AS (
      INSERT INTO suppressions (organization_id, email, reason, email_id)
      SELECT organization_id, email, 'soft_bounce', last_email_id FROM streaks WHERE count >= 3
      ON CONFLICT (organization_id, email) DO NOTHING
    )
    SELECT * FROM updated`;
}

async function recordHardBounces(tx: Prisma.TransactionClient, rows: FeedbackOutcome[]): Promise<Row[]> {
  if (rows.length === 0) return [];
  return tx.$queryRaw<Row[]>`WITH v AS ${values(rows)},
    updated AS (
      UPDATE emails e SET bounced_at = now(), bounce_type = 'hard', bounce_status = v.status, bounce_diagnostic = v.diagnostic,
        status = CASE WHEN e.status IN ('sent', 'delivered') THEN 'bounced'::"EmailStatus" ELSE e.status END, updated_at = now()
      FROM v WHERE e.id = v.email_id AND e.organization_id = v.organization_id AND e.direction = 'outbound'
        AND e.sent_at IS NOT NULL AND e.bounced_at IS NULL
      RETURNING ${returning}
    ),
    ${events("email.bounced", report("bounce", "hard"))},
    counters AS (
      UPDATE broadcasts b SET bounced_count = b.bounced_count + c.n, updated_at = now()
      FROM (SELECT organization_id, broadcast_id, count(*)::int AS n FROM updated WHERE broadcast_id IS NOT NULL GROUP BY 1, 2) c
      WHERE b.id = c.broadcast_id AND b.organization_id = c.organization_id
    ),
    suppressed AS (
      INSERT INTO suppressions AS s (organization_id, email, reason, email_id)
      SELECT DISTINCT ON (organization_id, lower(trim(to_email))) organization_id, lower(trim(to_email)), 'hard_bounce', id FROM updated
      ON CONFLICT (organization_id, email) DO UPDATE SET reason = EXCLUDED.reason, email_id = EXCLUDED.email_id WHERE s.reason = 'soft_bounce'
    ),
    streaks AS (
      DELETE FROM soft_bounce_streaks s USING updated u WHERE s.organization_id = u.organization_id AND s.email = lower(trim(u.to_email))
    )
    SELECT * FROM updated`;
}

type ComplaintRow = Row & { contact_email: string | null; unsubscribed_at: Date | null };

// A complaint unsubscribes the contact: `contact.unsubscribed`, its webhook `data` as it was written before events.
const unsubscribedEvents = Prisma.raw(
  recordEventsCtes(
    "unsubscribed_events",
    ["organization_id", "contact_id", "name", "properties", "source", "email_id", "broadcast_id", "automation_id", "occurred_at", "payload"],
    `SELECT u.organization_id, u.contact_id, 'contact.unsubscribed', '{"reason": "complaint"}'::jsonb, 'feedback', u.id, u.broadcast_id, u.automation_id, x.unsubscribed_at,
       jsonb_build_object('contact_id', u.contact_id, 'email', x.email,
         'unsubscribed_at', to_char(x.unsubscribed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
         'email_id', u.id, 'broadcast_id', u.broadcast_id, 'reason', 'complaint')
     FROM updated u JOIN unsubscribed x ON x.id = u.contact_id`,
  ),
);

async function recordComplaints(tx: Prisma.TransactionClient, rows: FeedbackOutcome[]): Promise<ComplaintRow[]> {
  if (rows.length === 0) return [];
  return tx.$queryRaw<ComplaintRow[]>`WITH v AS ${values(rows)},
    updated AS (
      UPDATE emails e SET complained_at = now(),
        status = CASE WHEN e.status IN ('sent', 'delivered') THEN 'complained'::"EmailStatus" ELSE e.status END, updated_at = now()
      FROM v WHERE e.id = v.email_id AND e.organization_id = v.organization_id AND e.direction = 'outbound'
        AND e.sent_at IS NOT NULL AND e.complained_at IS NULL
      RETURNING ${returning}
    ),
    ${events("email.complained", "jsonb_build_object('complaint', jsonb_build_object('feedback_type', diagnostic, 'source', source))")},
    counters AS (
      UPDATE broadcasts b SET complained_count = b.complained_count + c.n, updated_at = now()
      FROM (SELECT organization_id, broadcast_id, count(*)::int AS n FROM updated WHERE broadcast_id IS NOT NULL GROUP BY 1, 2) c
      WHERE b.id = c.broadcast_id AND b.organization_id = c.organization_id
    ),
    -- A complaint outranks an earlier soft bounce or unsubscription as the reason.
    suppressed AS (
      INSERT INTO suppressions AS s (organization_id, email, reason, email_id)
      SELECT DISTINCT ON (organization_id, lower(trim(to_email))) organization_id, lower(trim(to_email)), 'complaint', id FROM updated
      ON CONFLICT (organization_id, email) DO UPDATE SET reason = EXCLUDED.reason, email_id = EXCLUDED.email_id
        WHERE s.reason IN ('soft_bounce', 'unsubscribe')
    ),
    unsubscribed AS (
      UPDATE contacts c SET subscribed = false, unsubscribed_at = now(), updated_at = now()
      FROM updated u WHERE c.id = u.contact_id AND c.organization_id = u.organization_id AND c.subscribed
      RETURNING c.id, c.email, c.unsubscribed_at
    ),
    ${unsubscribedEvents}
    SELECT u.*, x.email AS contact_email, x.unsubscribed_at FROM updated u LEFT JOIN unsubscribed x ON x.id = u.contact_id`;
}

/**
 * The recipients of hard bounces and complaints leave every sequence of their organization at
 * once: follow-ups still to send to the address (queued, or waiting for a window's opening or an
 * out-of-office return) are cancelled and leave the broadcasts' totals.
 * (Later steps are not created: the dispatcher sees the bounce, the complaint or the suppression.)
 */
async function leaveSequences(tx: Prisma.TransactionClient, rows: Row[], reason: "bounced" | "complained") {
  if (rows.length === 0) return;
  const people = JSON.stringify(rows.map((r) => ({ organization_id: r.organization_id, to_email: r.to_email })));
  await tx.$executeRaw`WITH p AS (SELECT DISTINCT * FROM jsonb_to_recordset(${people}::jsonb) AS p(organization_id uuid, to_email text)),
    cancelled AS (
      UPDATE emails q SET status = 'cancelled', last_error = ${SEQUENCE_EXIT_PREFIX + reason}, next_attempt_at = NULL, updated_at = now()
      FROM p WHERE q.organization_id = p.organization_id AND q.to_email = p.to_email
        AND q.sequence_position > 0 AND q.status IN ('queued', 'scheduled') AND q.direction = 'outbound'
        -- One a worker holds now is in its SMTP conversation: its outcome decides (leases.ts).
        AND NOT EXISTS (SELECT 1 FROM email_claims claim WHERE claim.email_id = q.id)
      RETURNING q.organization_id, q.broadcast_id
    )
    UPDATE broadcasts b SET total_recipients = GREATEST(b.total_recipients - c.n, 0), updated_at = now()
    FROM (SELECT organization_id, broadcast_id, count(*)::int AS n FROM cancelled WHERE broadcast_id IS NOT NULL GROUP BY 1, 2) c
    WHERE b.id = c.broadcast_id AND b.organization_id = c.organization_id`;
}

/**
 * Records a batch of report outcomes in the caller's transaction: timestamps, status, bounce
 * details, events, broadcast counters, soft-bounce streaks, suppressions, unsubscriptions,
 * sequence exits and events (`email.delivered`, `email.bounced`, `email.complained`,
 * `contact.unsubscribed`: lib/events announces them). Answers the ids of the emails it changed.
 */
export async function recordFeedback(tx: Prisma.TransactionClient, outcomes: FeedbackOutcome[]): Promise<Set<string>> {
  const of = (kind: FeedbackKind) => outcomes.filter((o) => o.kind === kind);
  const delivered = await recordDelivered(tx, of("delivered"));
  const soft = await recordSoftBounces(tx, of("soft_bounce"));
  const hard = await recordHardBounces(tx, of("hard_bounce"));
  const complained = await recordComplaints(tx, of("complaint"));
  await leaveSequences(tx, hard, "bounced");
  await leaveSequences(tx, complained, "complained");
  return new Set([...delivered, ...soft, ...hard, ...complained].map((r) => r.id));
}
