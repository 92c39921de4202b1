import { db, Prisma } from "@/lib/db";
import type { SendingSpeed } from "@/lib/generated/prisma/enums";
import { inboxProvenSql } from "@/lib/services/sender-proof";
import { dailyCap, pacingGapMs, resolveSpeed, type InboxPacing } from "./speeds";

export type ClaimOptions = {
  /** Most emails one claim takes. */
  batchSize: number;
  /** How long the claimed emails belong to this worker before another may take them over. */
  leaseMs: number;
  /** Multiplies pacing gaps: 1 in production; tests shrink the clock with it. */
  paceScale: number;
  /** Only this organization's emails (tests share one database). */
  organizationId?: string;
};

// Due: queued, its time come, and — for a broadcast's email — the broadcast still sending (a
// cancelled or failed broadcast's stragglers stay put). Batches take due rows in index order, not
// sorted: sorting every queued row for each batch would make a large broadcast quadratic.
const due = Prisma.sql`e.status = 'queued' AND e.direction = 'outbound'
  AND (e.next_attempt_at IS NULL OR e.next_attempt_at <= now())
  AND (e.broadcast_id IS NULL OR b.status = 'sending')`;

const scoped = (alias: "e" | "i", organizationId: string | undefined) =>
  organizationId ? Prisma.sql`AND ${Prisma.raw(alias)}.organization_id = ${organizationId}::uuid` : Prisma.empty;

const leaseUntil = (leaseMs: number) => Prisma.sql`now() + ${leaseMs}::int * interval '1 millisecond'`;

async function markSending(tx: Prisma.TransactionClient, ids: string[], leaseMs: number): Promise<void> {
  if (ids.length === 0) return;
  await tx.$executeRaw`
    UPDATE emails SET status = 'sending', locked_until = ${leaseUntil(leaseMs)}, attempts = attempts + 1, updated_at = now()
    WHERE id = ANY(${ids}::uuid[])`;
}

/**
 * Emails that go through the organization's relay (no inbox): no pacing, no daily limit. A
 * broadcast's email goes only from a verified domain (transactional ones were checked when
 * created); otherwise it waits, and the broadcast's status says why.
 */
async function claimRelayEmails(options: ClaimOptions, limit: number): Promise<string[]> {
  const rows = await db.$queryRaw<{ id: string }[]>`
    WITH picked AS (
      SELECT e.id FROM emails e LEFT JOIN broadcasts b ON b.id = e.broadcast_id
      WHERE e.inbox_id IS NULL AND ${due} ${scoped("e", options.organizationId)}
        AND (b.id IS NULL OR EXISTS (
          SELECT 1 FROM domains d WHERE d.organization_id = e.organization_id AND d.status = 'verified'
            AND d.name = lower(split_part(e.from_email, '@', 2))))
      LIMIT ${limit}
      FOR UPDATE OF e SKIP LOCKED
    )
    UPDATE emails e SET status = 'sending', locked_until = ${leaseUntil(options.leaseMs)}, attempts = e.attempts + 1, updated_at = now()
    FROM picked WHERE e.id = picked.id
    RETURNING e.id`;
  return rows.map((row) => row.id);
}

type ReadyInbox = InboxPacing & { id: string; used_today: number; pace_ready: boolean };

/**
 * Per inbox whose from address is proven (an unverified one's emails wait), under its row lock (so
 * two workers never both spend one inbox's pacing slot or daily allowance): every due `instant` email (transactional ones included) up to the daily limit, and
 * — when its pacing gap has passed — one paced email, after which the next gap is drawn.
 */
async function claimInboxEmails(options: ClaimOptions, limit: number): Promise<string[]> {
  return db.$transaction(async (tx) => {
    const inboxes = await tx.$queryRaw<ReadyInbox[]>`
      SELECT i.id, i.daily_limit, i.created_at, i.warmup_started_at, i.last_error_at,
        (i.next_send_at IS NULL OR i.next_send_at <= now()) AS pace_ready,
        CASE WHEN i.daily_sent_date = (now() AT TIME ZONE 'UTC')::date THEN i.daily_sent_count ELSE 0 END AS used_today
      FROM inboxes i
      WHERE NOT i.paused AND ${inboxProvenSql("i")} ${scoped("i", options.organizationId)}
        AND EXISTS (SELECT 1 FROM emails e LEFT JOIN broadcasts b ON b.id = e.broadcast_id WHERE e.inbox_id = i.id AND ${due})
      ORDER BY i.next_send_at NULLS FIRST
      LIMIT 100
      FOR UPDATE OF i SKIP LOCKED`;

    const claimed: string[] = [];
    // Spread over the inboxes, so each one's connections work on the batch in parallel.
    const share = Math.ceil(limit / Math.max(1, inboxes.length));
    for (const inbox of inboxes) {
      const budget = limit - claimed.length;
      if (budget <= 0) break;
      let used = inbox.used_today;
      const instantRoom = Math.min(budget, share, inbox.daily_limit - used);
      if (instantRoom > 0) {
        const rows = await tx.$queryRaw<{ id: string }[]>`
          SELECT e.id FROM emails e LEFT JOIN broadcasts b ON b.id = e.broadcast_id
          WHERE e.inbox_id = ${inbox.id}::uuid AND ${due} AND (e.broadcast_id IS NULL OR b.sending_speed = 'instant')
          LIMIT ${instantRoom}
          FOR UPDATE OF e SKIP LOCKED`;
        await markSending(tx, rows.map((r) => r.id), options.leaseMs);
        claimed.push(...rows.map((r) => r.id));
        used += rows.length;
      }

      let gapMs: number | null = null;
      let warmingUp = false;
      if (inbox.pace_ready && claimed.length < limit) {
        const [next] = await tx.$queryRaw<{ id: string; sending_speed: SendingSpeed | null }[]>`
          SELECT e.id, b.sending_speed::text AS sending_speed FROM emails e JOIN broadcasts b ON b.id = e.broadcast_id
          WHERE e.inbox_id = ${inbox.id}::uuid AND ${due} AND b.sending_speed IS DISTINCT FROM 'instant'
          ORDER BY COALESCE(e.next_attempt_at, e.created_at), e.sequence_position
          LIMIT 1
          FOR UPDATE OF e SKIP LOCKED`;
        if (next) {
          const speed = resolveSpeed(next.sending_speed, inbox);
          if (used < dailyCap(speed, inbox)) {
            await markSending(tx, [next.id], options.leaseMs);
            claimed.push(next.id);
            used += 1;
            gapMs = pacingGapMs(speed, options.paceScale);
            warmingUp = speed === "warmup";
          }
        }
      }

      if (used !== inbox.used_today || gapMs !== null) {
        await tx.$executeRaw`
          UPDATE inboxes SET
            daily_sent_date = (now() AT TIME ZONE 'UTC')::date,
            daily_sent_count = ${used}::int,
            next_send_at = CASE WHEN ${gapMs}::int IS NULL THEN next_send_at ELSE now() + ${gapMs}::int * interval '1 millisecond' END,
            warmup_started_at = CASE WHEN ${warmingUp}::boolean THEN COALESCE(warmup_started_at, now()) ELSE warmup_started_at END
          WHERE id = ${inbox.id}::uuid`;
      }
    }
    return claimed;
  }, { timeout: 30_000, maxWait: 30_000 });
}

/** Takes up to `batchSize` due emails for this worker: status `sending`, leased, attempt counted. */
export async function claimDueEmails(options: ClaimOptions): Promise<string[]> {
  const viaInboxes = await claimInboxEmails(options, options.batchSize);
  const viaRelay = await claimRelayEmails(options, options.batchSize - viaInboxes.length);
  return [...viaInboxes, ...viaRelay];
}

/**
 * Crash recovery: emails whose worker's lease ran out (it died mid-send) are due again — or
 * cancelled, when their broadcast was cancelled meanwhile. Their Message-ID is the row's, so a
 * resend of one that did go out carries the same one.
 */
export async function releaseExpiredLeases(organizationId?: string): Promise<number> {
  return db.$executeRaw`
    UPDATE emails SET locked_until = NULL, updated_at = now(),
      status = CASE WHEN EXISTS (SELECT 1 FROM broadcasts b WHERE b.id = emails.broadcast_id AND b.status = 'cancelled')
        THEN 'cancelled'::"EmailStatus" ELSE 'queued'::"EmailStatus" END
    WHERE id IN (
      SELECT e.id FROM emails e
      WHERE e.status = 'sending' AND e.locked_until < now() ${scoped("e", organizationId)}
      LIMIT 5000
      FOR UPDATE SKIP LOCKED)`;
}

/** Keeps this worker's claim on emails it is still sending. */
export async function extendLeases(ids: string[], leaseMs: number): Promise<void> {
  await db.$executeRaw`
    UPDATE emails SET locked_until = ${leaseUntil(leaseMs)} WHERE id = ANY(${ids}::uuid[]) AND status = 'sending'`;
}
