import { db, Prisma } from "@/lib/db";
import type { BroadcastStatus } from "@/lib/generated/prisma/enums";
import { domainOf } from "@/lib/services/sender-domains";
import { audienceCondition } from "./audience";

type StartingBroadcast = {
  id: string;
  organization_id: string;
  status: BroadcastStatus;
  scheduled_at: Date | null;
  subject: string;
  from_email: string;
  from_name: string | null;
  reply_to: string | null;
  template_id: string | null;
  html_content: string | null;
  text_content: string | null;
  segment_id: string | null;
  topic_id: string | null;
  inbox_id: string | null;
  inbox_ids: string[];
  tags: string[];
};

export type StartOutcome = "started" | "failed" | "skipped";

// A job can run a moment before its time; a broadcast moved further out waits for its new job.
const EARLY_TOLERANCE_MS = 5_000;
// Fanning out a very large segment is one statement; it may take a while and must not be cut short.
const FAN_OUT_TIMEOUT_MS = 10 * 60_000;

/** Why the broadcast cannot start now, as its failure reason; null when it can. */
async function startProblem(tx: Prisma.TransactionClient, b: StartingBroadcast): Promise<string | null> {
  if (!b.segment_id) return "The broadcast has no segment to send to.";
  if (!b.template_id && !b.html_content && !b.text_content) return "The broadcast has no content: no template, HTML or text.";
  const usesInboxes = b.inbox_id !== null || b.inbox_ids.length > 0;
  if (!usesInboxes) {
    const verified = await tx.domain.findFirst({
      where: { organization_id: b.organization_id, name: domainOf(b.from_email), status: "verified" },
      select: { id: true },
    });
    if (!verified) return `${domainOf(b.from_email)} is not a verified domain of the organization, so the relay cannot send from ${b.from_email}.`;
  }
  return null;
}

/**
 * One INSERT … SELECT creates an email row (and its thread) for every recipient of the audience
 * who has none yet: a Message-ID fixed now, and the inbox assigned in rotation — recipient n goes
 * to inbox_ids[n mod k], so every inbox gets within one email of an even share and sends with its
 * own identity. Answers how many rows it created.
 */
async function fanOut(tx: Prisma.TransactionClient, b: StartingBroadcast & { segment_id: string }): Promise<number> {
  const rotation = b.inbox_ids.length > 0;
  const audience = audienceCondition({ organizationId: b.organization_id, segmentId: b.segment_id, topicId: b.topic_id });
  return tx.$executeRaw`
    WITH recipients AS (
      SELECT c.id AS contact_id, c.email, row_number() OVER (ORDER BY c.created_at, c.id) AS n
      FROM contacts c
      WHERE ${audience}
        AND NOT EXISTS (
          SELECT 1 FROM emails e WHERE e.broadcast_id = ${b.id}::uuid AND e.sequence_position = 0 AND e.contact_id = c.id)
    ),
    planned AS (
      SELECT r.contact_id, r.email, gen_random_uuid() AS email_id, gen_random_uuid() AS thread_id,
        CASE WHEN ${rotation}::boolean
          THEN (${b.inbox_ids}::uuid[])[((r.n - 1) % GREATEST(${b.inbox_ids.length}::int, 1)) + 1]
          ELSE ${b.inbox_id}::uuid END AS inbox_id
      FROM recipients r
    ),
    addressed AS (
      SELECT p.*,
        CASE WHEN ${rotation}::boolean THEN i.from_email ELSE ${b.from_email}::text END AS from_email,
        CASE WHEN ${rotation}::boolean THEN COALESCE(i.from_name, i.name) ELSE ${b.from_name}::text END AS from_name,
        CASE WHEN ${rotation}::boolean THEN COALESCE(i.reply_to, ${b.reply_to}::text) ELSE ${b.reply_to}::text END AS reply_to
      FROM planned p LEFT JOIN inboxes i ON i.id = p.inbox_id AND i.organization_id = ${b.organization_id}::uuid
    ),
    new_threads AS (
      INSERT INTO threads (id, organization_id, subject, contact_id, inbox_id, broadcast_id)
      SELECT thread_id, ${b.organization_id}::uuid, ${b.subject}, contact_id, inbox_id, ${b.id}::uuid FROM addressed
    )
    INSERT INTO emails (id, organization_id, message_id, from_email, from_name, to_email, reply_to, subject, template_id,
      broadcast_id, sequence_position, contact_id, inbox_id, thread_id, tags, status)
    SELECT email_id, ${b.organization_id}::uuid, '<' || email_id || '@' || split_part(from_email, '@', 2) || '>',
      from_email, from_name, email, reply_to, ${b.subject}, ${b.template_id}::uuid,
      ${b.id}::uuid, 0, contact_id, inbox_id, thread_id, ${b.tags}::text[], 'queued'
    FROM addressed
    ON CONFLICT (broadcast_id, sequence_position, contact_id) DO NOTHING`;
}

/**
 * The `broadcast:start` job: a scheduled broadcast whose time has come becomes `sending` with one
 * queued email per recipient, all in one transaction under the broadcast's row lock — so a job
 * that runs twice, or a crash half-way, never leaves duplicates or a half fan-out. A broadcast
 * that cannot start becomes `failed` with the reason.
 */
export function startBroadcast(broadcastId: string): Promise<StartOutcome> {
  return db.$transaction(
    async (tx) => {
      const [b] = await tx.$queryRaw<StartingBroadcast[]>`
        SELECT id, organization_id, status::text AS status, scheduled_at, subject, from_email, from_name, reply_to,
          template_id, html_content, text_content, segment_id, topic_id, inbox_id, inbox_ids::text[] AS inbox_ids, tags
        FROM broadcasts WHERE id = ${broadcastId}::uuid FOR UPDATE`;
      if (!b || b.status !== "scheduled") return "skipped";
      if (b.scheduled_at && b.scheduled_at.getTime() > Date.now() + EARLY_TOLERANCE_MS) return "skipped";

      const fail = async (reason: string) => {
        await tx.broadcast.update({ where: { id: b.id }, data: { status: "failed", failure_reason: reason, completed_at: new Date() } });
        return "failed" as const;
      };
      const problem = await startProblem(tx, b);
      if (problem || !b.segment_id) return fail(problem ?? "The broadcast has no segment to send to.");

      await fanOut(tx, { ...b, segment_id: b.segment_id });
      const total = await tx.email.count({ where: { broadcast_id: b.id, sequence_position: 0 } });
      if (total === 0) return fail("No recipients: the segment has no subscribed, unsuppressed contacts for this broadcast.");
      await tx.broadcast.update({
        where: { id: b.id },
        data: { status: "sending", started_at: new Date(), total_recipients: total, failure_reason: null },
      });
      return "started";
    },
    { timeout: FAN_OUT_TIMEOUT_MS, maxWait: 30_000 },
  );
}

/**
 * Safety net for the queue: a scheduled broadcast whose start job was lost (its worker killed
 * mid-job leaves the job locked for hours) still starts, a little late. Answers how many it started.
 */
export async function startOverdueBroadcasts({ graceMs = 60_000, organizationId }: { graceMs?: number; organizationId?: string } = {}): Promise<number> {
  const overdue = await db.broadcast.findMany({
    where: { status: "scheduled", scheduled_at: { lte: new Date(Date.now() - graceMs) }, ...(organizationId && { organization_id: organizationId }) },
    select: { id: true },
    take: 20,
  });
  let started = 0;
  for (const { id } of overdue) if ((await startBroadcast(id)) !== "skipped") started++;
  return started;
}
