import type { Broadcast } from "@/lib/generated/prisma/client";
import { db, Prisma } from "@/lib/db";
import { env } from "@/lib/env";
import { domainOf } from "@/lib/domain/addresses";
import { isInboxProven, verifiedDomainNames } from "@/lib/senders/proof";
import { recipientEmail } from "./audience";
import { reachableCondition, resendOfBroadcast } from "@/lib/audience/reachable";
import { segmentMembersChunkSql } from "@/lib/audience/membership";
import { keepQueueStatisticsCurrent, keepStatisticsCurrent } from "@/lib/db/statistics";
import { inOtherActiveSalesSequence, LEFT_OUT_IN_OTHER_SEQUENCE } from "./other-sequences";
import { UNPLACED } from "./windows";
import { pacedAt } from "@/lib/domain/sending-speeds";
import { queueEmailCancellation } from "./cancel-emails";
import { ensureQueueSchema, queueBroadcastStart } from "./queue";
import { abColumns, abPhase, hasContent, noSplit, splitOf, type AbPhase, type AbState, type Split } from "./ab-split";
import { decideAt } from "./ab-decision";

// The columns the fan-out reads, typed by the model: a migration that changes one breaks the compile.
export type FanningBroadcast = Pick<
  Broadcast,
  | "id"
  | "organization_id"
  | "status"
  | "scheduled_at"
  | "fanned_out_at"
  | "subject"
  | "from_email"
  | "from_name"
  | "reply_to"
  | "template_id"
  | "html_content"
  | "text_content"
  | "segment_id"
  | "topic_id"
  | "inbox_id"
  | "inbox_ids"
  | "sending_speed"
  | "tags"
  | "sequence_mode"
  | "sending_window"
  | "resend_of_id"
  | "resend_audience"
>;

export type StartOutcome = "started" | "failed" | "skipped";

/** `now`: the clock the A/B test's wait is measured by (a test's own; the real one by default). */
export type FanOutOptions = { now?: Date };

// A job can run a moment before its time; a broadcast moved further out waits for its new job.
const EARLY_TOLERANCE_MS = 5_000;
// The first chunk is small so the first emails leave at once; later ones are large for throughput.
// In between each is twice the one before: a chunk is written while the one before goes out, and
// writing is faster than sending, so a doubled chunk is ready before its predecessor has gone. A
// jump from 200 straight to 5 000 left the queue empty for about a second after the first 200
// (5 000 rows took 1.4 s to write on a loaded machine, the 200 went out in 0.3).
const FIRST_CHUNK = 200;
const CHUNK = 5_000;
/**
 * How many new emails a fan-out writes between looks at whether the table's statistics went stale.
 * Each ANALYZE of emails samples 30 000 rows (about a second at a few hundred thousand): every
 * 20 000 emails it took a tenth of the database's time during a broadcast; the statements that run
 * meanwhile name their emails by id or use the sending-queue indexes, whatever the statistics say.
 */
const STATISTICS_EVERY = 100_000;
const NIL_UUID = "00000000-0000-0000-0000-000000000000";

const broadcastColumns = Prisma.sql`id, organization_id, status::text AS status, scheduled_at, fanned_out_at, subject, from_email,
  from_name, reply_to, template_id, html_content, text_content, segment_id, topic_id, inbox_id, inbox_ids::text[] AS inbox_ids,
  sending_speed::text AS sending_speed, tags,
  sequence_mode::text AS sequence_mode, sending_window, resend_of_id, resend_audience::text AS resend_audience`;

async function lockBroadcastRow(tx: Prisma.TransactionClient, broadcastId: string): Promise<(FanningBroadcast & AbState) | undefined> {
  const [row] = await tx.$queryRaw<
    (FanningBroadcast & AbState)[]
  >`SELECT ${broadcastColumns}, ${abColumns} FROM broadcasts WHERE id = ${broadcastId}::uuid FOR UPDATE`;
  return row;
}

/**
 * The fan-out's own lock: one fan-out per broadcast at a time (a second one, started by the
 * housekeeping while the first is alive, simply stops). It is not the broadcast row's lock, so
 * nobody else ever waits for a chunk: not the recording of outcomes, not a pause or a cancel.
 */
async function takeFanOutLock(tx: Prisma.TransactionClient, broadcastId: string): Promise<boolean> {
  const [{ locked }] = await tx.$queryRaw<{ locked: boolean }[]>`
    SELECT pg_try_advisory_xact_lock(hashtextextended('fan-out:' || ${broadcastId}, 0)) AS locked`;
  return locked;
}

/** Why the broadcast cannot start now, as its failure reason; null when it can. */
async function startProblem(tx: Prisma.TransactionClient, b: FanningBroadcast & AbState): Promise<string | null> {
  if (!b.segment_id) return "The broadcast has no segment to send to.";
  if (!hasContent(b)) return "The broadcast has no content: no template, HTML or text.";
  return senderProblem(tx, b);
}

/** The sender proof of POST /send, again at the start: an inbox may have changed while the broadcast was scheduled. */
async function senderProblem(tx: Prisma.TransactionClient, b: FanningBroadcast): Promise<string | null> {
  const domains = await verifiedDomainNames(tx, b.organization_id);
  const ids = b.inbox_ids.length > 0 ? b.inbox_ids : b.inbox_id ? [b.inbox_id] : [];
  if (ids.length === 0) {
    if (domains.has(domainOf(b.from_email))) return null;
    return `${domainOf(b.from_email)} is not a verified domain of the organization, so the relay cannot send from ${b.from_email}.`;
  }
  const inboxes = await tx.inbox.findMany({ where: { organization_id: b.organization_id, id: { in: ids } } });
  const unproven = inboxes.find((inbox) => !isInboxProven(inbox, domains));
  if (unproven) return `Inbox ${unproven.name} (${unproven.from_email}) is not verified: its from address must be confirmed before it sends.`;
  const single = b.inbox_ids.length === 0 ? inboxes[0] : undefined;
  if (single && single.from_email.toLowerCase() !== b.from_email.toLowerCase() && !domains.has(domainOf(b.from_email))) {
    return `${b.from_email} is neither at a verified domain of the organization nor the address of inbox ${single.name}.`;
  }
  return null;
}

/**
 * The INSERT … SELECT that creates an email row (and its thread) for each of the `members` (the next
 * chunk of the segment, lib/audience's segmentMembersChunkSql) who are in the audience and have none yet: a Message-ID fixed now, and the inbox assigned in
 * rotation — the n-th recipient of the broadcast goes to inbox_ids[n mod k], so every inbox gets
 * within one email of an even share and sends with its own identity. Its row says how many members
 * of the segment it looked at (fewer than `limit`: the audience is done), how many emails it queued,
 * how many contacts it left out, and the last member looked at (where the next chunk starts).
 *
 * A sales sequence (a `sales` broadcast with steps) leaves out a contact already in another active sales sequence: a cancelled row
 * says so (and keeps a resumed fan-out from adding them). Under a sending window the emails are
 * queued unplaced; lib/sending/windows.ts finds each one's opening in its recipient's zone.
 */
export function fanOutChunkSql(
  b: FanningBroadcast & { segment_id: string; has_steps: boolean },
  members: Prisma.Sql,
  offset: number,
  split: Split = noSplit(b.subject),
): Prisma.Sql {
  const rotation = b.inbox_ids.length > 0;
  // The members come from the segment's key already: only the rest of the audience is checked.
  const reachable = reachableCondition({ organizationId: b.organization_id, topicId: b.topic_id, resendOf: resendOfBroadcast(b) });
  const leftOut =
    b.sequence_mode === "sales" && b.has_steps
      ? Prisma.sql`CASE WHEN ${inOtherActiveSalesSequence(b.organization_id, b.id, Prisma.sql`r.contact_id`)} THEN ${LEFT_OUT_IN_OTHER_SEQUENCE}::text END`
      : Prisma.sql`NULL::text`;
  const windowEnds = b.sending_window ? UNPLACED : Prisma.sql`NULL::timestamptz`;
  return Prisma.sql`
    WITH members AS MATERIALIZED (
      -- The chunk walks the segment's key (a dynamic one: its matches), then looks its members up.
      -- Joined in one step, the planner takes members and subscribed contacts as independent and
      -- expects few members to qualify: with two million contacts in the table it read them all for
      -- every chunk (a parallel scan and a sort, 1 s per 5 000 recipients) instead of 5 000 lookups.
      ${members}
    ),
    candidates AS (
      -- Each member's contact by its primary key, and nothing else: OFFSET 0 keeps the lookup a
      -- subquery the planner neither flattens nor pushes the organization's condition into. Joined
      -- plainly, on contacts the statistics had not seen (a list loaded just now into a table of
      -- other tenants' contacts) the planner expected one contact of the organization and one
      -- member, and read every contact of the organization for every member: a quadratic chunk,
      -- 3.9 s for 1 800 recipients and over a minute for 4 800 (lib/db/fresh-plans.test.ts).
      SELECT c.id AS contact_id, c.email, ${split.hash} AS h FROM members m
      CROSS JOIN LATERAL (SELECT c.id, c.email, c.organization_id, c.subscribed FROM contacts c WHERE c.id = m.contact_id OFFSET 0) c
      WHERE ${reachable}
    ),
    recipients AS (
      SELECT k.*, row_number() OVER (ORDER BY k.contact_id) AS n FROM candidates k
      WHERE NOT EXISTS (${recipientEmail(Prisma.sql`${b.id}::uuid`, 0, Prisma.sql`k.contact_id`)}) ${split.only}
    ),
    planned AS (
      SELECT r.contact_id, r.email, uuid_v7() AS email_id, uuid_v7() AS thread_id, ${leftOut} AS left_out, ${split.variant} AS variant_index,
        CASE WHEN ${rotation}::boolean
          THEN (${b.inbox_ids}::uuid[])[((${offset}::int + r.n - 1) % GREATEST(${b.inbox_ids.length}::int, 1)) + 1]
          ELSE ${b.inbox_id}::uuid END AS inbox_id
      FROM recipients r
    ),
    addressed AS (
      SELECT p.*, ${split.subject(Prisma.sql`p.variant_index`)} AS subject,
        CASE WHEN ${rotation}::boolean THEN i.from_email ELSE ${b.from_email}::text END AS from_email,
        CASE WHEN ${rotation}::boolean THEN COALESCE(i.from_name, i.name) ELSE ${b.from_name}::text END AS from_name,
        CASE WHEN ${rotation}::boolean THEN COALESCE(i.reply_to, ${b.reply_to}::text) ELSE ${b.reply_to}::text END AS reply_to
      FROM planned p LEFT JOIN inboxes i ON i.id = p.inbox_id AND i.organization_id = ${b.organization_id}::uuid
    ),
    new_threads AS (
      INSERT INTO threads (id, organization_id, subject, contact_id, inbox_id, broadcast_id)
      SELECT thread_id, ${b.organization_id}::uuid, subject, contact_id, inbox_id, ${b.id}::uuid FROM addressed WHERE left_out IS NULL
    ),
    inserted AS (
      INSERT INTO emails (id, organization_id, message_id, from_email, from_name, to_email, reply_to, subject, template_id,
        broadcast_id, sequence_position, contact_id, inbox_id, thread_id, tags, status, last_error, window_ends_at, paced, variant_index)
      SELECT email_id, ${b.organization_id}::uuid, '<' || email_id || '@' || split_part(from_email, '@', 2) || '>',
        from_email, from_name, email, reply_to, subject, ${b.template_id}::uuid,
        ${b.id}::uuid, 0, contact_id, inbox_id, CASE WHEN left_out IS NULL THEN thread_id END, ${b.tags}::text[],
        CASE WHEN left_out IS NULL THEN 'queued' ELSE 'cancelled' END::"EmailStatus", left_out,
        CASE WHEN left_out IS NULL THEN ${windowEnds} END, ${pacedAt(b.sending_speed)}::boolean,
        -- A contact left out is in no variant: the test compares the emails that went.
        CASE WHEN left_out IS NULL THEN variant_index END
      FROM addressed
      ON CONFLICT (broadcast_id, sequence_position, contact_id) DO NOTHING
      RETURNING status
    )
    SELECT (SELECT count(*)::int FROM members) AS scanned, (SELECT count(*)::int FROM inserted WHERE status = 'queued') AS created,
      (SELECT count(*)::int FROM inserted WHERE status = 'cancelled') AS left_out,
      (SELECT max(contact_id::text) FROM members)::uuid AS last_contact_id`;
}

/** The rotation without the inboxes in `error` (inbox-health.ts), unless that leaves none: their emails would only wait. */
async function healthyRotation(tx: Prisma.TransactionClient, b: FanningBroadcast): Promise<string[]> {
  if (b.inbox_ids.length < 2) return b.inbox_ids;
  const failed = await tx.$queryRaw<{ id: string }[]>`
    SELECT id::text FROM inboxes WHERE organization_id = ${b.organization_id}::uuid AND id = ANY(${b.inbox_ids}::uuid[]) AND status = 'error'`;
  const healthy = b.inbox_ids.filter((id) => !failed.some((f) => f.id === id));
  return healthy.length > 0 ? healthy : b.inbox_ids;
}

async function fanOutChunk(
  tx: Prisma.TransactionClient,
  b: FanningBroadcast & { segment_id: string },
  position: { afterContactId: string; limit: number; offset: number },
  split: Split,
): Promise<{ scanned: number; created: number; leftOut: number; lastContactId: string | null }> {
  // A dynamic segment is resolved now, chunk by chunk: whoever matches when the chunk runs.
  const members = await segmentMembersChunkSql(tx, b.organization_id, b.segment_id, position);
  const rotation = { ...b, inbox_ids: await healthyRotation(tx, b) };
  // A sales broadcast without follow-ups is one email, not a sequence: the sequence guards leave it alone.
  const hasSteps = b.sequence_mode === "sales" && (await tx.sequenceStep.count({ where: { broadcast_id: b.id } })) > 0;
  const [result] = await tx.$queryRaw<{ scanned: number; created: number; left_out: number; last_contact_id: string | null }[]>(
    fanOutChunkSql({ ...rotation, has_steps: hasSteps }, members, position.offset, split),
  );
  return { scanned: result.scanned, created: result.created, leftOut: result.left_out, lastContactId: result.last_contact_id };
}

/**
 * Creates the email records of a `sending` broadcast chunk by chunk, each chunk its own
 * transaction — so sending starts after the first small chunk, a crash loses nothing (a resumed
 * fan-out skips recipients who have their row), and two fan-outs of one broadcast never
 * interleave (the fan-out lock). The broadcast row is read, not locked, while a chunk is written,
 * and updated only at the chunk's end: a pause or cancel committed meanwhile is seen there, and the
 * chunk's new emails follow it (held as `scheduled`, or cancelled). Ends with `fanned_out_at`, or
 * `failed` when nobody qualified. An A/B broadcast's fan-out stops after its test share and is run
 * again once the winner is due (decideDueAbTests): then it writes the rest. startBroadcast's second
 * half (exported for tests that need to hold the broadcast's row while a chunk runs).
 */
export async function fanOut(broadcastId: string, options: FanOutOptions = {}): Promise<StartOutcome> {
  let afterContactId = NIL_UUID;
  let limit = FIRST_CHUNK;
  // Rows created so far (a resumed fan-out starts from those of the run it resumes): where the
  // rotation continues. Counted under the lock: a fan-out that finds another one running stops
  // before reading the broadcast's emails.
  let offset: number | null = null;
  let analyzedAt = 0;
  let queueSeen = false;
  let refreshing: Promise<void> = Promise.resolve();
  let refreshingNow = false;
  let phaseKind: AbPhase["kind"] | null = null;
  const now = () => options.now ?? new Date();
  // The claims and outcome updates plan on the emails table as it is now, not as before this fan-out.
  const refreshStatistics = async (step: "more" | "done" | "stop") => {
    const written = (offset ?? 0) - analyzedAt;
    // Until the statistics have seen this broadcast's emails queued, the claims plan for none (keepQueueStatisticsCurrent).
    if (step !== "stop" && !queueSeen && (await keepQueueStatisticsCurrent(written))) {
      queueSeen = true;
      analyzedAt += written;
    } else if (step === "done" || written >= STATISTICS_EVERY) {
      if ((await keepStatisticsCurrent(["emails"], written)).length > 0) analyzedAt += written;
    }
  };
  for (;;) {
    const step = await db.$transaction(
      async (tx) => {
        if (!(await takeFanOutLock(tx, broadcastId))) return "stop" as const;
        if (offset === null) analyzedAt = offset = await tx.email.count({ where: { broadcast_id: broadcastId, sequence_position: 0 } });
        const [b] = await tx.$queryRaw<
          (FanningBroadcast & AbState)[]
        >`SELECT ${broadcastColumns}, ${abColumns} FROM broadcasts WHERE id = ${broadcastId}::uuid`;
        if (!b || b.status !== "sending" || b.fanned_out_at || !b.segment_id) return "stop" as const;
        // An A/B test writes its test share, waits for the winner, then writes the rest (ab-split.ts).
        const phase = await abPhase(tx, { ...b, segment_id: b.segment_id }, now());
        if (phase.kind === "waiting") return "stop" as const;
        if (phase.kind !== phaseKind) {
          // A new walk of the audience: the rest starts again from the first contact.
          [phaseKind, afterContactId] = [phase.kind, NIL_UUID];
        }
        const chunk =
          phase.kind === "empty"
            ? { scanned: 0, created: 0, leftOut: 0, lastContactId: null }
            : await fanOutChunk(tx, { ...b, segment_id: b.segment_id }, { afterContactId, limit, offset }, splitOf(b, phase));
        const finished = chunk.scanned < limit;
        const testDone = finished && phase.kind === "test";
        if (finished && offset + chunk.created + chunk.leftOut === 0) {
          const failed = await tx.$executeRaw`
            UPDATE broadcasts SET status = 'failed', completed_at = now(), updated_at = now(),
              failure_reason = 'No recipients: the segment has no subscribed, unsuppressed contacts for this broadcast.'
            WHERE id = ${b.id}::uuid AND status = 'sending'`;
          return failed > 0 ? ("failed" as const) : ("stop" as const);
        }
        // The status as of now (a pause or cancel that committed during the chunk waits no longer than this).
        const [after] = await tx.$queryRaw<{ status: string; total: number }[]>`
          UPDATE broadcasts SET total_recipients = total_recipients + ${chunk.created}::int, updated_at = now(),
            fanned_out_at = CASE WHEN ${finished && !testDone}::boolean AND status = 'sending' THEN now() ELSE fanned_out_at END,
            ab_decide_at = CASE WHEN ${testDone}::boolean AND status = 'sending' THEN ${decideAt(b, now())} ELSE ab_decide_at END
          WHERE id = ${b.id}::uuid
          RETURNING status::text AS status, total_recipients AS total`;
        if (finished && after?.status === "sending" && after.total === 0) {
          // Everyone was left out: a sales sequence with nobody in it has failed, and says why.
          await tx.$executeRaw`
            UPDATE broadcasts SET status = 'failed', completed_at = now(), updated_at = now(),
              failure_reason = ${`No recipients: every contact of the segment (${offset + chunk.leftOut}) is already in another active sales sequence.`}
            WHERE id = ${b.id}::uuid`;
          return "failed" as const;
        }
        if (after?.status !== "sending") {
          // Cancelled during the chunk: the cancel's batches may have ended before this chunk's
          // emails were visible, so they are to be cancelled again, after this commits.
          if (after?.status === "cancelled") await queueEmailCancellation(tx, b.organization_id, b.id);
          return "stop" as const;
        }
        offset += chunk.created + chunk.leftOut;
        if (finished) return "done" as const;
        afterContactId = chunk.lastContactId ?? afterContactId;
        return "more" as const;
      },
      { timeout: 5 * 60_000, maxWait: 60_000 },
    );
    if (step === "failed") {
      await refreshing;
      return "failed";
    }
    if (step !== "more") {
      await refreshing;
      await refreshStatistics(step);
      return "started";
    }
    // An ANALYZE of emails takes up to a second at a million rows: it runs beside the next chunk
    // rather than before it, which would leave the sending queue to run dry meanwhile.
    if (!refreshingNow) {
      refreshingNow = true;
      refreshing = refreshStatistics(step).finally(() => (refreshingNow = false));
    }
    limit = Math.min(CHUNK, limit * 2);
  }
}

/**
 * The `broadcast:start` job: a scheduled broadcast whose time has come becomes `sending` (or
 * `failed` with the reason when it cannot start), then its email records are created. A job that
 * runs twice, or after a crash half-way, resumes the fan-out without duplicates.
 */
export async function startBroadcast(broadcastId: string, options: FanOutOptions = {}): Promise<StartOutcome> {
  const begun = await db.$transaction(async (tx) => {
    const b = await lockBroadcastRow(tx, broadcastId);
    if (!b) return "skipped" as const;
    if (b.status === "sending" && !b.fanned_out_at) return "resume" as const;
    if (b.status !== "scheduled") return "skipped" as const;
    if (b.scheduled_at && b.scheduled_at.getTime() > Date.now() + EARLY_TOLERANCE_MS) return "skipped" as const;
    const problem = await startProblem(tx, b);
    if (problem) {
      await tx.broadcast.update({ where: { id: b.id }, data: { status: "failed", failure_reason: problem, completed_at: new Date() } });
      return "failed" as const;
    }
    const existing = await tx.email.count({ where: { broadcast_id: b.id, sequence_position: 0, status: { not: "cancelled" } } });
    await tx.broadcast.update({
      where: { id: b.id },
      data: { status: "sending", started_at: new Date(), total_recipients: existing, fanned_out_at: null, failure_reason: null },
    });
    return "fan-out" as const;
  });
  if (begun === "skipped" || begun === "failed") return begun;
  return fanOut(broadcastId, options);
}

/**
 * Safety net for the queue: a scheduled broadcast whose start job was lost (a worker killed
 * mid-job leaves its job locked for hours) still starts, a little late; a fan-out whose worker died
 * (no progress for a lease) is resumed. Answers how many it started or resumed.
 */
export async function startOverdueBroadcasts({ graceMs = 60_000, organizationId }: { graceMs?: number; organizationId?: string } = {}): Promise<number> {
  const stalled = new Date(Date.now() - env.workerLeaseSeconds * 1000);
  const overdue = await db.broadcast.findMany({
    where: {
      ...(organizationId && { organization_id: organizationId }),
      OR: [
        { status: "scheduled", scheduled_at: { lte: new Date(Date.now() - graceMs) } },
        // Not an A/B test waiting for its winner: decideDueAbTests resumes those when it is time.
        { status: "sending", fanned_out_at: null, updated_at: { lte: stalled }, OR: [{ ab_decide_at: null }, { ab_winner_index: { not: null } }] },
      ],
    },
    select: { id: true },
    take: 20,
  });
  let started = 0;
  for (const { id } of overdue) if ((await startBroadcast(id)) !== "skipped") started++;
  return started;
}

/**
 * Chooses the winner of one A/B test whose wait is over at `now`, under the fan-out's lock (so
 * exactly once, whoever else tries), and queues the job that writes the rest of the audience: the
 * housekeeping round only decides, it never writes hundreds of thousands of emails itself while
 * other organizations' broadcasts wait for it. True when this call chose the winner.
 */
async function decideAbTest(broadcastId: string, now: Date): Promise<boolean> {
  return db.$transaction(async (tx) => {
    if (!(await takeFanOutLock(tx, broadcastId))) return false;
    const [b] = await tx.$queryRaw<(FanningBroadcast & AbState)[]>`SELECT ${broadcastColumns}, ${abColumns} FROM broadcasts WHERE id = ${broadcastId}::uuid`;
    if (!b || b.status !== "sending" || b.fanned_out_at || !b.segment_id || b.ab_winner_index !== null || !b.ab_decide_at) return false;
    if ((await abPhase(tx, { ...b, segment_id: b.segment_id }, now)).kind !== "rest") return false;
    await queueBroadcastStart(tx, { broadcastId: b.id, organizationId: b.organization_id }, new Date());
    return true;
  });
}

/**
 * The housekeeping's A/B round: every sending A/B broadcast whose wait is over at `now` gets its
 * winner chosen, and the rest of its audience is queued for writing (the `broadcast:start` job
 * resumes its fan-out; startOverdueBroadcasts does if that job is lost). Answers how many it decided.
 */
export async function decideDueAbTests({ now = new Date(), organizationId }: { now?: Date; organizationId?: string } = {}): Promise<number> {
  const due = await db.broadcast.findMany({
    where: { ...(organizationId && { organization_id: organizationId }), status: "sending", ab_winner_index: null, ab_decide_at: { lte: now } },
    select: { id: true },
    orderBy: { ab_decide_at: "asc" },
    take: 20,
  });
  if (due.length > 0) await ensureQueueSchema();
  let decided = 0;
  for (const { id } of due) if (await decideAbTest(id, now)) decided++;
  return decided;
}
