import { Prisma } from "@/lib/db";
import { recordEventsCtes } from "@/lib/events/sql";
import type { EmailForEvent } from "@/lib/webhooks/email-event-data";
import { recordInboxFailures } from "@/lib/inboxes/inbox-health";
import type { DeliveryResult } from "./deliver";
import { engineDb, recordPool } from "./engine-db";
import { RELEASE_UPDATED, RETURNED_STATUS, stillClaimed } from "./claim-sql";
import { writeSent } from "./record-sent";
import type { Withdrawn } from "./prepare-batch";

/** Waits before attempts 2, 3, …: 1, 5, 15, 60, 240 and 720 minutes; after the last the email fails. */
export const RETRY_DELAYS_MS = [1, 5, 15, 60, 240, 720].map((minutes) => minutes * 60_000);

export type Outcomes = {
  results: DeliveryResult[];
  withdrawn: Withdrawn[];
  /** Emails that could not even be prepared (a broken inbox secret, say): retried like a deferral. */
  broken: { email: { id: string; attempts: number; inbox_id: string | null }; reason: string }[];
  /** Emails given back unsent (their broadcast paused or cancelled, the worker stopping): not an attempt. */
  returned?: { id: string; inbox_id: string | null }[];
};

const claimed = Prisma.raw(stillClaimed("e"));
const release = Prisma.raw(RELEASE_UPDATED);

type Returned = EmailForEvent & { organization_id: string };

// What the events and the broadcasts touched need from each changed row.
const returning = Prisma.raw(
  "e.id, e.organization_id, e.message_id, e.broadcast_id, e.automation_id, e.contact_id, e.thread_id, e.from_email, e.to_email, e.subject, e.tags, e.created_at",
);

// The webhook's `bounce`, as the feedback recorder's hard bounces have it but with the SMTP reply's code.
const bouncedEvents = Prisma.raw(
  recordEventsCtes(
    "bounced_events",
    ["organization_id", "contact_id", "name", "properties", "source", "email_id", "broadcast_id", "automation_id", "occurred_at"],
    `SELECT organization_id, contact_id, 'email.bounced', jsonb_build_object('bounce', jsonb_build_object('type', 'hard', 'code', code, 'message', reason)),
       'sending', id, broadcast_id, automation_id, now() FROM updated`,
  ),
);

const failedEvents = Prisma.raw(
  recordEventsCtes(
    "failed_events",
    ["organization_id", "contact_id", "name", "properties", "source", "email_id", "broadcast_id", "automation_id", "occurred_at"],
    `SELECT organization_id, contact_id, 'email.failed', jsonb_build_object('reason', reason, 'attempts', attempts), 'sending', id, broadcast_id, automation_id, now()
     FROM updated WHERE status = 'failed'`,
  ),
);

async function recordBounced(
  tx: Prisma.TransactionClient,
  results: Extract<DeliveryResult, { kind: "bounced" }>[],
): Promise<(Returned & { code: number; reason: string })[]> {
  if (results.length === 0) return [];
  const rows = JSON.stringify(
    results.map((r) => ({
      id: r.outgoing.email.id,
      code: r.code,
      reason: r.reason,
      enhanced: /\b[45]\.\d{1,3}\.\d{1,3}\b/.exec(r.reason)?.[0] ?? null,
      subject: r.outgoing.rendered.subject,
      html_content: r.outgoing.rendered.html,
      text_content: r.outgoing.rendered.text,
      headers: r.outgoing.headers,
    })),
  );
  return tx.$queryRaw`WITH v AS (
       SELECT * FROM jsonb_to_recordset(${rows}::jsonb)
         AS v(id uuid, code int, reason text, enhanced text, subject text, html_content text, text_content text, headers jsonb)
     ),
     updated AS (
       UPDATE emails e SET status = 'bounced', bounced_at = now(), last_error = v.code || ' ' || v.reason,
         bounce_type = 'hard', bounce_status = v.enhanced, bounce_diagnostic = v.code || ' ' || v.reason,
         subject = v.subject, html_content = v.html_content, text_content = v.text_content, headers = v.headers,
         next_attempt_at = NULL, attempts = e.attempts + 1, updated_at = now()
       FROM v WHERE e.id = v.id AND ${claimed}
       RETURNING ${returning}, v.code, v.reason
     ),
     released AS (${release}),
     ${bouncedEvents},
     suppressed AS (
       INSERT INTO suppressions (organization_id, email, reason, email_id)
       SELECT DISTINCT ON (organization_id, lower(trim(to_email))) organization_id, lower(trim(to_email)), 'hard_bounce'::"SuppressionReason", id FROM updated
       ON CONFLICT (organization_id, email) DO NOTHING
     ),
     counters AS (
       INSERT INTO broadcast_counter_deltas (broadcast_id, bounced_count)
       SELECT broadcast_id, count(*)::int FROM updated WHERE broadcast_id IS NOT NULL GROUP BY broadcast_id
     )
     SELECT * FROM updated`;
}

/**
 * Temporary failures go back to the queue after their backoff; the last allowed attempt fails for
 * good. `attempt` is the number of the attempt that failed (the email's finished attempts + 1).
 */
async function recordDeferred(tx: Prisma.TransactionClient, deferred: { id: string; attempt: number; reason: string }[], delays: number[]) {
  if (deferred.length === 0) return;
  const rows = JSON.stringify(deferred.map((d) => ({ id: d.id, reason: d.reason, delay_ms: d.attempt <= delays.length ? delays[d.attempt - 1] : null })));
  await tx.$executeRaw`WITH v AS (SELECT * FROM jsonb_to_recordset(${rows}::jsonb) AS v(id uuid, reason text, delay_ms int)),
     updated AS (
       UPDATE emails e SET
         status = CASE WHEN v.delay_ms IS NULL THEN 'failed'::"EmailStatus" ELSE 'queued'::"EmailStatus" END,
         next_attempt_at = CASE WHEN v.delay_ms IS NULL THEN NULL ELSE now() + v.delay_ms * interval '1 millisecond' END,
         last_error = v.reason, attempts = e.attempts + 1, updated_at = now()
       FROM v WHERE e.id = v.id AND ${claimed}
       RETURNING e.id, e.organization_id, e.contact_id, e.broadcast_id, e.automation_id, e.status, e.attempts, v.reason
     ),
     released AS (${release}),
     ${failedEvents}
     SELECT 1`;
}

async function recordWithdrawn(tx: Prisma.TransactionClient, withdrawn: Withdrawn[]) {
  if (withdrawn.length === 0) return;
  const rows = JSON.stringify(withdrawn.map((w) => ({ id: w.email.id, reason: w.reason })));
  await tx.$executeRaw`WITH updated AS (
       UPDATE emails e SET status = 'cancelled', last_error = v.reason, updated_at = now()
       FROM jsonb_to_recordset(${rows}::jsonb) AS v(id uuid, reason text)
       WHERE e.id = v.id AND ${claimed}
       RETURNING e.id
     )
     ${release}`;
}

/**
 * Emails given back unsent: their claims end, and they are due again (or held while their
 * broadcast is paused, or cancelled with it); the inbox's daily allowance they took at the claim is
 * handed back too. An attempt counts only once it has an outcome.
 */
async function recordReturned(tx: Prisma.TransactionClient, returned: { id: string; inbox_id: string | null }[]) {
  if (returned.length === 0) return;
  const ids = returned.map((r) => r.id);
  const rows = await tx.$queryRawUnsafe<{ inbox_id: string | null; n: number }[]>(
    `WITH updated AS MATERIALIZED (
       -- The emails locked before their claims, in the order every recorder takes them (leases.ts).
       SELECT e.id, e.inbox_id FROM emails e WHERE e.id = ANY($1::uuid[]) AND ${stillClaimed("e")} FOR NO KEY UPDATE OF e
     ),
     released AS (${RELEASE_UPDATED}),
     changed AS (
       UPDATE emails SET status = ${RETURNED_STATUS}, updated_at = now(),
         last_error = CASE WHEN ${RETURNED_STATUS} = 'cancelled' THEN 'The broadcast was cancelled' ELSE last_error END
       FROM updated WHERE emails.id = updated.id AND emails.status IN ('queued', 'scheduled') AND emails.status <> ${RETURNED_STATUS}
     )
     SELECT inbox_id, count(*)::int AS n FROM updated WHERE inbox_id IS NOT NULL GROUP BY inbox_id`,
    ids,
  );
  if (rows.length === 0) return;
  await tx.$executeRaw`
    UPDATE inboxes i SET daily_sent_count = GREATEST(i.daily_sent_count - v.n, 0)
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS v(inbox_id uuid, n int)
    WHERE i.id = v.inbox_id AND i.daily_sent_date = (now() AT TIME ZONE 'UTC')::date`;
}

/**
 * An inbox whose server refused the connection or the login shows it, and one that keeps failing
 * turns `error` (inbox-health.ts; one that sent again is cleared by record-sent.ts). A deleted
 * inbox is simply not there, and `updated_at` (which versions the inbox's SMTP settings) stays as it is.
 */
async function recordInboxHealth(tx: Prisma.TransactionClient, failing: Map<string, string>) {
  await recordInboxFailures(
    tx,
    [...failing].map(([id, reason]) => ({ id, reason })),
  );
}

/**
 * Writes a batch's outcomes: the accepted emails in one statement (record-sent.ts), the rest in one
 * transaction — each email's status and timestamps (only while its claim exists, which ends with
 * it, so a late duplicate never counts twice), its events, the broadcast counters (as deltas, see
 * broadcast-counters.ts), suppressions. Answers the broadcasts touched.
 */
export async function recordOutcomes({ results, withdrawn, broken, returned = [] }: Outcomes, delays = RETRY_DELAYS_MS): Promise<string[]> {
  const sent = results.filter((r): r is Extract<DeliveryResult, { kind: "sent" }> => r.kind === "sent");
  const bounced = results.filter((r): r is Extract<DeliveryResult, { kind: "bounced" }> => r.kind === "bounced");
  const deferred = results.filter((r): r is Extract<DeliveryResult, { kind: "deferred" }> => r.kind === "deferred");

  const failing = new Map<string, string>();
  for (const d of deferred) if (d.inboxProblem && d.outgoing.inbox) failing.set(d.outgoing.inbox.id, d.reason);
  for (const b of broken) if (b.email.inbox_id) failing.set(b.email.inbox_id, b.reason);

  // Accepted emails, the bulk of every batch, in one statement of their own (record-sent.ts).
  const touched = new Set(
    await writeSent(
      recordPool(),
      sent.map((r) => ({
        id: r.outgoing.email.id,
        sent_at: r.acceptedAt.toISOString(),
        provider_message_id: r.response,
        subject: r.outgoing.rendered.subject,
        html_content: r.outgoing.rendered.html,
        text_content: r.outgoing.rendered.text,
        headers: r.outgoing.headers,
        dsn_requested: r.dsn,
        opens_tracked: r.outgoing.tracked.opens,
        clicks_tracked: r.outgoing.tracked.clicks,
      })),
    ),
  );
  if (bounced.length + deferred.length + broken.length + withdrawn.length + returned.length === 0) return [...touched];

  return engineDb().$transaction(
    async (tx) => {
      const bouncedRows = await recordBounced(tx, bounced);
      await recordDeferred(
        tx,
        [
          ...deferred.map((d) => ({ id: d.outgoing.email.id, attempt: d.outgoing.email.attempts + 1, reason: d.reason })),
          ...broken.map((b) => ({ id: b.email.id, attempt: b.email.attempts + 1, reason: b.reason })),
        ],
        delays,
      );
      await recordWithdrawn(tx, withdrawn);
      await recordReturned(tx, returned);
      await recordInboxHealth(tx, failing);
      for (const id of [
        ...bouncedRows.map((r) => r.broadcast_id),
        ...deferred.map((d) => d.outgoing.email.broadcast_id),
        ...withdrawn.map((w) => w.email.broadcast_id),
      ]) {
        if (id) touched.add(id);
      }
      return [...touched];
    },
    { timeout: 60_000, maxWait: 30_000 },
  );
}
