import type { Broadcast } from "@/lib/generated/prisma/client";
import { db, Prisma } from "@/lib/db";
import { exitReasonSql, readExitConditions, type ExitScope } from "./exit-reason";
import { recipientEmail } from "@/lib/sending/audience";
import { memberOfAllCondition, memberOfAnyCondition } from "@/lib/audience/membership";
import { UNPLACED } from "@/lib/sending/windows";
import { pacedAt } from "@/lib/domain/sending-speeds";

export type DispatchOptions = {
  /** Most follow-ups one statement creates; the worker loop comes back at once for the rest. */
  batchSize?: number;
  /** Only this organization's broadcasts (tests share one database). */
  organizationId?: string;
  /** The caller's clock (tests control it); the system's when not given. */
  now?: Date;
};

type SequencedBroadcast = Pick<
  Broadcast,
  "id" | "organization_id" | "subject" | "topic_id" | "sequence_mode" | "sequence_exit_conditions" | "sending_window" | "sending_speed"
> & {
  status: "sending" | "sent";
};

type PendingStep = {
  id: string;
  position: number;
  delay_minutes: number;
  delay_business_days: number | null;
  subject: string | null;
  template_id: string | null;
  template_subject: string | null;
};

/** The row of step `position` for the recipient of the previous email `p` (a per-row probe, see recipientEmail). */
const followUpOf = (position: number) => recipientEmail(Prisma.sql`p.broadcast_id`, position, Prisma.sql`p.contact_id`);

/** Prefix for `last_error` of the cancelled row that records a recipient leaving the sequence. */
export const SEQUENCE_EXIT_PREFIX = "Left the sequence: ";

/**
 * Creates step `position`'s email for every recipient whose previous email went out at least the
 * step's delay ago and who has none for this step yet. A recipient still in the sequence gets a
 * `queued` email; one who left it gets a `cancelled` row saying why, so the decision made when the
 * step fell due is kept (and the unique key stops it being made twice).
 *
 * `sales`: a reply in the previous email's thread — `Re:` subject, In-Reply-To and References,
 * same inbox and sender. `marketing`: a fresh email in a thread of its own, with the step's subject.
 * The rendered content comes from the step at send time (`step_id`).
 *
 * Time: a business-day step's candidates are those whose previous email went out its number of
 * days ago (less an hour for a clock change; never later than the exact business-day time,
 * lib/domain/sending-window.ts), and its emails wait, unplaced, for lib/sending/windows.ts to hold
 * them to that exact time and the broadcast's window, as emails under a window do. A recipient
 * away (an out-of-office answer, lib/replies/auto-reply.ts) gets the step `scheduled` until their
 * return.
 */
async function dispatchStep(tx: Prisma.TransactionClient, b: SequencedBroadcast, step: PendingStep, batchSize: number, now: Date) {
  const sales = b.sequence_mode === "sales";
  const conditions = readExitConditions(b.sequence_exit_conditions);
  const scope: ExitScope = {
    organizationId: b.organization_id,
    broadcastId: b.id,
    topicId: b.topic_id,
    inExitSegment: await memberOfAnyCondition(tx, b.organization_id, conditions.exitIfIn),
    inRequiredSegments: await memberOfAllCondition(tx, b.organization_id, conditions.exitIfNotIn),
  };
  const marketingSubject = step.subject || step.template_subject || b.subject;
  const delay = step.delay_business_days
    ? Prisma.sql`make_interval(hours => ${step.delay_business_days * 24 - 1})`
    : Prisma.sql`make_interval(mins => ${step.delay_minutes})`;
  const windowEnds = b.sending_window || step.delay_business_days ? UNPLACED : Prisma.sql`NULL::timestamptz`;
  const [counts] = await tx.$queryRaw<{ queued: number; left: number }[]>`
    WITH due AS (
      SELECT p.* FROM emails p
      WHERE p.broadcast_id = ${b.id}::uuid AND p.sequence_position = ${step.position - 1} AND p.contact_id IS NOT NULL
        AND p.sent_at IS NOT NULL AND p.sent_at <= ${now}::timestamptz - ${delay}
        AND NOT EXISTS (${followUpOf(step.position)})
      ORDER BY p.sent_at
      LIMIT ${batchSize}
    ),
    judged AS (
      SELECT p.id AS parent_id, p.contact_id, p.to_email, p.from_email, p.from_name, p.reply_to, p.inbox_id, p.tags,
        p.thread_id AS parent_thread_id, p.message_id AS parent_message_id, p."references" AS parent_references,
        CASE WHEN p.subject ~* '^re:' THEN p.subject ELSE 'Re: ' || p.subject END AS reply_subject,
        uuid_v7() AS email_id, uuid_v7() AS fresh_thread_id,
        ${exitReasonSql(scope)} AS exit_reason,
        CASE WHEN c.away_until > ${now}::timestamptz THEN c.away_until END AS away_until
      FROM due p JOIN contacts c ON c.id = p.contact_id
    ),
    planned AS (
      SELECT j.*,
        CASE WHEN ${sales}::boolean THEN j.reply_subject ELSE ${marketingSubject}::text END AS subject,
        CASE WHEN j.exit_reason IS NOT NULL THEN NULL
             WHEN ${sales}::boolean AND j.parent_thread_id IS NOT NULL THEN j.parent_thread_id
             ELSE j.fresh_thread_id END AS thread_id
      FROM judged j
    ),
    new_threads AS (
      INSERT INTO threads (id, organization_id, subject, contact_id, inbox_id, broadcast_id)
      SELECT thread_id, ${b.organization_id}::uuid, subject, contact_id, inbox_id, ${b.id}::uuid
      FROM planned WHERE thread_id = fresh_thread_id
    ),
    inserted AS (
      INSERT INTO emails (id, organization_id, message_id, from_email, from_name, to_email, reply_to, subject, template_id,
        broadcast_id, step_id, sequence_position, contact_id, inbox_id, thread_id, parent_email_id, in_reply_to, "references",
        tags, status, last_error, scheduled_at, next_attempt_at, window_ends_at, paced)
      SELECT email_id, ${b.organization_id}::uuid, '<' || email_id || '@' || split_part(from_email, '@', 2) || '>',
        from_email, from_name, to_email, reply_to, subject, ${step.template_id}::uuid,
        ${b.id}::uuid, ${step.id}::uuid, ${step.position}, contact_id, inbox_id, thread_id,
        CASE WHEN ${sales}::boolean THEN parent_id END,
        CASE WHEN ${sales}::boolean THEN parent_message_id END,
        CASE WHEN ${sales}::boolean THEN parent_references || parent_message_id ELSE '{}'::text[] END,
        tags,
        CASE WHEN exit_reason IS NOT NULL THEN 'cancelled' WHEN away_until IS NOT NULL THEN 'scheduled' ELSE 'queued' END::"EmailStatus",
        CASE WHEN exit_reason IS NULL THEN NULL ELSE ${SEQUENCE_EXIT_PREFIX} || exit_reason END,
        CASE WHEN exit_reason IS NULL THEN away_until END,
        CASE WHEN exit_reason IS NULL THEN away_until END,
        -- Held ones are placed when released: their window, or a business day, comes after the return.
        CASE WHEN exit_reason IS NOT NULL THEN NULL WHEN away_until IS NOT NULL THEN ${UNPLACED} ELSE ${windowEnds} END,
        ${pacedAt(b.sending_speed)}::boolean
      FROM planned
      ON CONFLICT (broadcast_id, sequence_position, contact_id) DO NOTHING
      RETURNING status
    )
    SELECT count(*) FILTER (WHERE status IN ('queued', 'scheduled'))::int AS queued, count(*) FILTER (WHERE status = 'cancelled')::int AS left
    FROM inserted`;

  if (counts.queued > 0) {
    // The broadcast counts every email it will send, follow-ups included, so sent_count never
    // passes total_recipients; a broadcast that had finished sends again.
    await tx.$executeRaw`
      UPDATE broadcasts
      SET total_recipients = total_recipients + ${counts.queued},
          -- A pause or cancel committed since this dispatch began stays as it is.
          status = CASE WHEN status IN ('sending', 'sent') THEN 'sending'::"BroadcastStatus" ELSE status END,
          completed_at = CASE WHEN status = 'sent' THEN NULL ELSE completed_at END,
          updated_at = now()
      WHERE id = ${b.id}::uuid`;
  }
  return counts.queued + counts.left;
}

/**
 * Marks the step dispatched once nobody can get it any more: the step before it is dispatched
 * (or is the first email, created in full when the broadcast started), and every recipient's
 * previous email has finished — not sent (bounced, failed, cancelled) or sent and already
 * answered by a row for this step.
 */
async function markDispatchedWhenDone(tx: Prisma.TransactionClient, broadcastId: string, step: PendingStep) {
  await tx.$executeRaw`
    UPDATE sequence_steps s SET dispatched_at = now(), updated_at = now()
    WHERE s.id = ${step.id}::uuid AND s.dispatched_at IS NULL
      AND ((${step.position} = 1 AND EXISTS (
            -- The first emails are created in chunks: until the last chunk, more recipients may come.
            SELECT 1 FROM broadcasts b WHERE b.id = ${broadcastId}::uuid AND b.fanned_out_at IS NOT NULL))
        OR EXISTS (
        SELECT 1 FROM sequence_steps q
        WHERE q.broadcast_id = ${broadcastId}::uuid AND q.position = ${step.position - 1} AND q.dispatched_at IS NOT NULL))
      AND NOT EXISTS (
        SELECT 1 FROM emails p
        WHERE p.broadcast_id = ${broadcastId}::uuid AND p.sequence_position = ${step.position - 1} AND p.contact_id IS NOT NULL
          AND (p.status IN ('queued', 'scheduled', 'sending')
               OR (p.sent_at IS NOT NULL AND NOT EXISTS (${followUpOf(step.position)}))))`;
}

async function dispatchBroadcast(broadcastId: string, batchSize: number, now: Date): Promise<number> {
  return db.$transaction(
    async (tx) => {
      // One dispatcher per broadcast at a time; another worker skips it rather than waits.
      const [{ locked }] = await tx.$queryRaw<{ locked: boolean }[]>`
        SELECT pg_try_advisory_xact_lock(hashtextextended('sequence-dispatch:' || ${broadcastId}, 0)) AS locked`;
      if (!locked) return 0;
      const [b] = await tx.$queryRaw<SequencedBroadcast[]>`
        SELECT id, organization_id, status::text AS status, subject, topic_id, sequence_mode::text AS sequence_mode, sequence_exit_conditions, sending_window,
          sending_speed::text AS sending_speed
        FROM broadcasts WHERE id = ${broadcastId}::uuid AND status IN ('sending', 'sent')`;
      if (!b) return 0;
      const steps = await tx.$queryRaw<PendingStep[]>`
        SELECT s.id, s.position, s.delay_minutes, s.delay_business_days, s.subject, s.template_id, t.subject AS template_subject
        FROM sequence_steps s LEFT JOIN templates t ON t.id = s.template_id
        WHERE s.broadcast_id = ${broadcastId}::uuid AND s.dispatched_at IS NULL
        ORDER BY s.position`;
      let created = 0;
      for (const step of steps) {
        created += await dispatchStep(tx, b, step, batchSize, now);
        await markDispatchedWhenDone(tx, b.id, step);
      }
      return created;
    },
    { timeout: 120_000, maxWait: 30_000 },
  );
}

/**
 * The periodic sequence task: for every sending (or sent) broadcast with steps not yet
 * dispatched, creates the follow-ups that have fallen due. Answers how many rows it created.
 */
export async function dispatchSequenceSteps(options: DispatchOptions = {}): Promise<number> {
  const orgFilter = options.organizationId ? Prisma.sql`AND b.organization_id = ${options.organizationId}::uuid` : Prisma.empty;
  const broadcasts = await db.$queryRaw<{ id: string }[]>`
    SELECT b.id FROM broadcasts b
    WHERE b.status IN ('sending', 'sent') ${orgFilter}
      AND EXISTS (SELECT 1 FROM sequence_steps s WHERE s.broadcast_id = b.id AND s.dispatched_at IS NULL)`;
  let created = 0;
  for (const { id } of broadcasts) created += await dispatchBroadcast(id, options.batchSize ?? 2000, options.now ?? new Date());
  return created;
}

/**
 * Whether some recipient may still get a follow-up: a step is not dispatched yet. The sending
 * engine keeps a broadcast `sending` while this holds (its emails already queued are its own).
 */
export async function sequenceHasPendingWork(broadcastId: string, client: Prisma.TransactionClient | typeof db = db): Promise<boolean> {
  const [row] = await client.$queryRaw<{ pending: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM sequence_steps WHERE broadcast_id = ${broadcastId}::uuid AND dispatched_at IS NULL) AS pending`;
  return row.pending;
}
