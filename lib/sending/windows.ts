import { Prisma } from "@/lib/generated/prisma/client";
import { addBusinessDays, nextOpening, windowTimeZone, type Opening, type SendingWindow } from "@/lib/domain/sending-window";
import { claimPool, engineDb } from "./engine-db";
import { executeNamed } from "./prepared";
import { sendingBroadcastsOfIndex } from "./queue-sources";

/**
 * `window_ends_at` of a broadcast or automation email whose time is for this module to work out: created under a
 * sending window or a business-day delay, or released from an out-of-office hold. Any instant in
 * the past would do (the sender claims an email only before its window's end); the epoch is easy
 * to recognise.
 */
export const UNPLACED = Prisma.sql`'epoch'::timestamptz`;

const PLACE_BATCH = 1000;
const RELEASE_BATCH = 1000;

type Unplaced = {
  id: string;
  next_attempt_at: Date | null;
  sending_window: SendingWindow | null;
  organization_timezone: string;
  contact_timezone: string | null;
  delay_business_days: number | null;
  previous_sent_at: Date | null;
};

export type WindowRoundOptions = {
  /** The caller's clock (tests control it); the system's when not given. */
  now?: Date;
  /** Only this organization's emails (tests share one database). */
  organizationId?: string;
};

const scoped = (organizationId: string | undefined) => (organizationId ? Prisma.sql`AND e.organization_id = ${organizationId}::uuid` : Prisma.empty);

/**
 * When an email may go: not before `now`, its retry time, nor its business-day delay after the
 * previous email of its sequence; then the first opening of its broadcast's window from there, in
 * the recipient's zone (or the window's own). Without a window the end is open.
 */
function placement(email: Unplaced, now: Date, memo: Map<string, Opening>): { start: Date; end: Date | null } {
  const zone = windowTimeZone(email.sending_window, { contact: email.contact_timezone, organization: email.organization_timezone });
  let notBefore = email.next_attempt_at && email.next_attempt_at > now ? email.next_attempt_at : now;
  if (email.delay_business_days && email.previous_sent_at) {
    const due = addBusinessDays(email.previous_sent_at, email.delay_business_days, zone);
    if (due > notBefore) notBefore = due;
  }
  if (!email.sending_window) return { start: notBefore, end: null };
  // A round places many emails of one broadcast due at the same moment: one computation per zone.
  const key = `${JSON.stringify(email.sending_window)}|${zone}|${notBefore.getTime()}`;
  let opening = memo.get(key);
  if (!opening) memo.set(key, (opening = nextOpening(email.sending_window, zone, notBefore)));
  return opening;
}

/**
 * Places queued broadcast and automation emails in their sending windows: those never placed (`UNPLACED`) and
 * those whose opening closed before they went (an inbox's pacing or daily limit held them past
 * it). One that may go now stays `queued` with its opening's end; one that must wait becomes
 * `scheduled` until its next opening (`scheduled_at`), so the sender neither claims nor reads it
 * meanwhile — releaseWaitingBroadcastEmails queues it at that time. Answers how many it placed.
 */
export async function placeWindowedEmails(options: WindowRoundOptions = {}): Promise<number> {
  const now = options.now ?? new Date();
  return engineDb().$transaction(
    async (tx) => {
      const rows = await tx.$queryRaw<Unplaced[]>`
        SELECT e.id, e.next_attempt_at, COALESCE(b.sending_window, a.sending_window) AS sending_window,
          o.timezone AS organization_timezone, c.timezone AS contact_timezone, s.delay_business_days, prev.sent_at AS previous_sent_at
        FROM emails e
        -- A broadcast's emails, or an automation's send steps' (lib/automations), under their window.
        LEFT JOIN broadcasts b ON b.id = e.broadcast_id
        LEFT JOIN automations a ON a.id = e.automation_id AND a.organization_id = e.organization_id
        JOIN organizations o ON o.id = e.organization_id
        LEFT JOIN contacts c ON c.id = e.contact_id AND c.organization_id = e.organization_id
        LEFT JOIN sequence_steps s ON s.id = e.step_id
        LEFT JOIN emails prev ON prev.broadcast_id = e.broadcast_id AND prev.sequence_position = e.sequence_position - 1
          AND prev.contact_id = e.contact_id
        WHERE e.status = 'queued' AND e.window_ends_at IS NOT NULL AND e.window_ends_at <= ${now} ${scoped(options.organizationId)}
          AND (b.id IS NOT NULL OR a.id IS NOT NULL)
          AND NOT EXISTS (SELECT 1 FROM email_claims claim WHERE claim.email_id = e.id)
        ORDER BY e.window_ends_at
        LIMIT ${PLACE_BATCH}
        FOR UPDATE OF e SKIP LOCKED`;
      if (rows.length === 0) return 0;
      const memo = new Map<string, Opening>();
      const placed = rows.map((row) => ({ id: row.id, ...placement(row, now, memo) }));
      await tx.$executeRaw`
        UPDATE emails e SET
          status = CASE WHEN v.start > ${now} THEN 'scheduled' ELSE 'queued' END::"EmailStatus",
          scheduled_at = CASE WHEN v.start > ${now} THEN v.start ELSE e.scheduled_at END,
          next_attempt_at = CASE WHEN v.start > ${now} THEN v.start ELSE e.next_attempt_at END,
          window_ends_at = v.ends, updated_at = now()
        FROM unnest(${placed.map((p) => p.id)}::uuid[], ${placed.map((p) => p.start)}::timestamptz[], ${placed.map((p) => p.end)}::timestamptz[])
          AS v(id, start, ends)
        WHERE e.id = v.id AND e.status = 'queued'`;
      return rows.length;
    },
    { timeout: 30_000, maxWait: 30_000 },
  );
}

/** Of a broadcast's emails waiting for a time (emails_scheduled_broadcast_idx, by broadcast then time). */
const WAITING = Prisma.sql`e.status = 'scheduled' AND e.broadcast_id IS NOT NULL AND e.scheduled_at IS NOT NULL`;

/**
 * Broadcast emails that waited for a time — a window's opening, an out-of-office return — become
 * `queued` once it has come, while their broadcast is sending (a paused one's wait on, and are
 * released once it sends again). An out-of-office hold was `UNPLACED`, so its window is found next.
 * The broadcasts holding such emails are found by skipping through the index from one broadcast to
 * the next (queue-sources.ts, as the claim finds them), and only the sending ones' due emails are
 * read: a paused broadcast's, however many, cost one read a round (read by time across every
 * broadcast, they were walked past on every round).
 * The earliest RELEASE_BATCH of them go. Answers how many it released.
 */
export function releaseWaitingBroadcastEmails(options: WindowRoundOptions = {}): Promise<number> {
  // A named statement on the claim's connections (prepared.ts), generic plan and all: the worker
  // releases every round, and planning this statement cost more than running it.
  return executeNamed(claimPool(), releaseWaitingSql(options));
}

/** The statement of releaseWaitingBroadcastEmails. */
export function releaseWaitingSql(options: WindowRoundOptions = {}): Prisma.Sql {
  const now = options.now ?? new Date();
  return Prisma.sql`
    WITH due AS (
      SELECT d.id, d.scheduled_at FROM (${sendingBroadcastsOfIndex(WAITING, Prisma.sql`e.broadcast_id, e.scheduled_at`)}) s
      CROSS JOIN LATERAL (
        SELECT e.id, e.scheduled_at FROM emails e
        WHERE ${WAITING} AND e.broadcast_id = s.id AND e.scheduled_at <= ${now} ${scoped(options.organizationId)}
        ORDER BY e.broadcast_id, e.scheduled_at LIMIT ${RELEASE_BATCH} FOR UPDATE OF e SKIP LOCKED
      ) d
      ORDER BY d.scheduled_at LIMIT ${RELEASE_BATCH}
    )
    -- By key (an array, not a join the planner may make a scan of the table for).
    UPDATE emails SET status = 'queued', updated_at = now()
    WHERE id = ANY(ARRAY(SELECT id FROM due)) AND status = 'scheduled'`;
}
