import type { OrgContext } from "@/lib/domain/context";
import { notFound } from "@/lib/domain/errors";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import type { Broadcast, Inbox } from "@/lib/generated/prisma/client";
import { domainOf } from "@/lib/domain/addresses";
import { isInboxProven, verifiedDomainNames } from "@/lib/senders/proof";
import { dailyCap, resolveSpeed } from "@/lib/domain/sending-speeds";
import { waitingReasons } from "./waiting-reasons";

export type Reason = { code: string; message: string; resumes_at?: string | null };

type Progress = { total: number; queued: number; sent: number; bounced: number; failed: number; cancelled: number };

// `scheduled`: held for a later time (a window's opening, an out-of-office return).
const PENDING = ["queued", "scheduled", "sending"];
const OUT = ["sent", "delivered", "complained"];
// An inbox error this recent still describes the inbox.
const FAILING_WINDOW_MS = 60 * 60_000;

async function progressOf(broadcastId: string): Promise<Progress> {
  const groups = await db.email.groupBy({ by: ["status"], where: { broadcast_id: broadcastId }, _count: { _all: true } });
  const progress: Progress = { total: 0, queued: 0, sent: 0, bounced: 0, failed: 0, cancelled: 0 };
  for (const group of groups) {
    const n = group._count._all;
    progress.total += n;
    if (PENDING.includes(group.status)) progress.queued += n;
    else if (OUT.includes(group.status)) progress.sent += n;
    else if (group.status === "bounced") progress.bounced += n;
    else if (group.status === "failed") progress.failed += n;
    else if (group.status === "cancelled") progress.cancelled += n;
  }
  return progress;
}

const nextUtcMidnight = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));

const usedToday = (inbox: Inbox, now: Date) =>
  inbox.daily_sent_date && inbox.daily_sent_date.toISOString().slice(0, 10) === now.toISOString().slice(0, 10) ? inbox.daily_sent_count : 0;

/** What holds back each inbox that still has emails of the broadcast to send. */
async function inboxReasons(b: Broadcast, now: Date): Promise<{ reasons: Reason[]; anyCanSend: boolean }> {
  const pending = await db.email.groupBy({
    by: ["inbox_id"],
    where: { broadcast_id: b.id, status: "queued", inbox_id: { not: null } },
    _count: { _all: true },
  });
  const inboxes = await db.inbox.findMany({
    where: { id: { in: pending.map((p) => p.inbox_id).filter((id): id is string => id !== null) }, organization_id: b.organization_id },
  });
  const reasons: Reason[] = [];
  let anyCanSend = false;
  const domains = inboxes.length > 0 ? await verifiedDomainNames(db, b.organization_id) : new Set<string>();
  for (const inbox of inboxes) {
    const label = `Inbox ${inbox.name} (${inbox.from_email})`;
    if (!isInboxProven(inbox, domains)) {
      reasons.push({ code: "INBOX_NOT_VERIFIED", message: `${label} is not verified: its emails wait until its from address is confirmed.` });
      continue;
    }
    if (inbox.status === "error") {
      reasons.push({
        code: "INBOX_FAILED",
        message: `${label} stopped sending${inbox.failed_at ? ` at ${inbox.failed_at.toISOString()}` : ""}: ${inbox.last_error ?? "its servers kept failing"}. Its emails wait until it is tested or reconnected in Settings → Inboxes.`,
      });
      continue;
    }
    if (inbox.paused) {
      reasons.push({
        code: "INBOX_PAUSED",
        message: inbox.paused_reason === "bounce_rate" ? `${label} paused itself: too many of its recent emails hard-bounced.` : `${label} is paused.`,
      });
      continue;
    }
    const speed = resolveSpeed(b.sending_speed, inbox, now);
    const cap = dailyCap(speed, inbox, now);
    if (usedToday(inbox, now) >= cap) {
      const resumes = nextUtcMidnight(now);
      const what = cap < inbox.daily_limit ? `its warm-up allowance of ${cap} emails for today` : `its daily limit of ${cap} emails`;
      reasons.push({
        code: "DAILY_LIMIT_REACHED",
        message: `${label} reached ${what}; it resumes at ${resumes.toISOString()}.`,
        resumes_at: resumes.toISOString(),
      });
      continue;
    }
    anyCanSend = true;
    if (inbox.last_error && inbox.last_error_at && now.getTime() - inbox.last_error_at.getTime() < FAILING_WINDOW_MS) {
      reasons.push({ code: "INBOX_FAILING", message: `${label} failed at ${inbox.last_error_at.toISOString()}: ${inbox.last_error}. Its emails are retried.` });
    }
  }
  return { reasons, anyCanSend };
}

/** What holds back the emails going through the organization's relay. */
async function relayReasons(b: Broadcast): Promise<Reason[]> {
  const pending = await db.email.findFirst({ where: { broadcast_id: b.id, status: "queued", inbox_id: null }, select: { from_email: true } });
  if (!pending) return [];
  const reasons: Reason[] = [];
  if (!env.smtpRelayUrl)
    reasons.push({ code: "RELAY_NOT_CONFIGURED", message: "No SMTP relay is configured (SMTP_RELAY_URL or SMTP_URL) for emails without an inbox." });
  const domain = domainOf(pending.from_email);
  const verified = await db.domain.findFirst({ where: { organization_id: b.organization_id, name: domain, status: "verified" }, select: { id: true } });
  if (!verified)
    reasons.push({ code: "DOMAIN_NOT_VERIFIED", message: `${domain} is not a verified domain of the organization, so the relay does not send from it.` });
  return reasons;
}

/**
 * Emails claimed by a worker that stopped renewing their lease (it crashed, or lost the database):
 * a live worker renews every quarter lease, so a lease with less than half of it left has missed
 * renewals. They are taken over when it runs out.
 */
async function recoveryReason(b: Broadcast, now: Date): Promise<Reason | null> {
  const leaseMs = env.workerLeaseSeconds * 1000;
  const [row] = await db.$queryRaw<{ n: number; until: Date | null }[]>`
    SELECT count(*)::int AS n, max(c.locked_until) AS until FROM email_claims c JOIN emails e ON e.id = c.email_id
    WHERE e.broadcast_id = ${b.id}::uuid AND e.organization_id = ${b.organization_id}::uuid
      AND c.locked_until < ${new Date(now.getTime() + leaseMs / 2)}`;
  if (!row || row.n === 0) return null;
  const at = new Date(Math.max(row.until?.getTime() ?? now.getTime(), now.getTime()) + 1000).toISOString();
  return {
    code: "RECOVERING",
    message: `${row.n} email${row.n === 1 ? " was" : "s were"} being sent by a worker that stopped answering; another worker takes them over when their lease ends, by ${at}. An email already accepted by its server keeps its Message-ID if it goes again.`,
    resumes_at: at,
  };
}

const pausedBy: Record<string, { code: string; who: string }> = {
  manual: { code: "PAUSED", who: "by a person" },
  bounce_rate: { code: "PAUSED_BOUNCE_RATE", who: "by the circuit breaker: too many of its emails bounced" },
  complaint_rate: { code: "PAUSED_COMPLAINT_RATE", who: "by the circuit breaker: too many recipients marked it as spam" },
};

function pausedReason(b: Broadcast): Reason {
  const by = pausedBy[b.paused_reason ?? "manual"] ?? pausedBy.manual;
  const since = b.paused_at ? ` at ${b.paused_at.toISOString()}` : "";
  return { code: by.code, message: `Paused ${by.who}${since}. Nothing more goes out until it is resumed.` };
}

/** Reasons a `sending` broadcast sends nothing (or less) right now; `sending` says whether anything can go. */
async function sendingReasons(b: Broadcast, progress: Progress, now: Date): Promise<{ reasons: Reason[]; sending: boolean }> {
  const recovering = await recoveryReason(b, now);
  const rest = await sendingReasonsWithoutRecovery(b, progress, now);
  return recovering ? { sending: rest.sending, reasons: [recovering, ...rest.reasons] } : rest;
}

async function sendingReasonsWithoutRecovery(b: Broadcast, progress: Progress, now: Date): Promise<{ reasons: Reason[]; sending: boolean }> {
  if (!b.fanned_out_at) {
    const decideAt = b.ab_winner_index === null ? b.ab_decide_at?.toISOString() : undefined;
    const preparing: Reason = decideAt
      ? {
          code: "AB_TEST_WAITING",
          message: `The A/B test's share is written; its winner is chosen once it has all gone out and waited, at ${decideAt} at the earliest, then sent to the rest.`,
          resumes_at: decideAt,
        }
      : { code: "PREPARING", message: `Creating the email records: ${progress.total} so far; sending has begun with them.` };
    const rest = progress.queued > 0 ? await sendingReasonsWithoutRecovery({ ...b, fanned_out_at: now }, progress, now) : { sending: !decideAt, reasons: [] };
    return { sending: rest.sending, reasons: [preparing, ...rest.reasons] };
  }
  const waiting = await waitingReasons(b, now);
  if (progress.queued === 0) {
    const waitingSteps = await db.sequenceStep.count({ where: { broadcast_id: b.id, dispatched_at: null } });
    if (waitingSteps > 0) {
      return {
        sending: false,
        reasons: [{ code: "WAITING_FOR_NEXT_STEP", message: "Every email due so far is out; the next sequence step waits for its delay." }, ...waiting],
      };
    }
    return { sending: false, reasons: waiting };
  }
  const dueNow = await db.email.count({
    where: { broadcast_id: b.id, status: "queued", OR: [{ next_attempt_at: null }, { next_attempt_at: { lte: now } }] },
  });
  const inFlight = await db.email.count({ where: { broadcast_id: b.id, status: "sending" } });
  const viaInboxes = await inboxReasons(b, now);
  const viaRelay = await relayReasons(b);
  if (dueNow === 0 && inFlight === 0) {
    const next = await db.email.findFirst({
      where: { broadcast_id: b.id, status: "queued", next_attempt_at: { not: null } },
      orderBy: { next_attempt_at: "asc" },
      select: { next_attempt_at: true, last_error: true },
    });
    // Every pending email may be `scheduled` (a window, an out-of-office hold): `waiting` says so.
    const retry: Reason[] = next?.next_attempt_at
      ? [
          {
            code: "WAITING",
            message: `The next email waits ${next.last_error ? `after a temporary failure (${next.last_error})` : "for its time"} until ${next.next_attempt_at.toISOString()}.`,
            resumes_at: next.next_attempt_at.toISOString(),
          },
        ]
      : [];
    return { sending: false, reasons: [...retry, ...waiting, ...viaInboxes.reasons, ...viaRelay] };
  }
  const relayPending = await db.email.count({ where: { broadcast_id: b.id, status: "queued", inbox_id: null } });
  const relayCanSend = relayPending > 0 && viaRelay.length === 0;
  return { sending: inFlight > 0 || viaInboxes.anyCanSend || relayCanSend, reasons: [...viaInboxes.reasons, ...viaRelay, ...waiting] };
}

/**
 * `GET /v1/broadcasts/{id}/status`: the broadcast's status, whether it is sending right now, and
 * if not — or not at full speed — why: scheduled for later, every inbox paused or at its daily
 * limit (and when that lifts), a failing inbox, no verified domain for the relay, and so on.
 */
export async function getBroadcastSendingStatus(ctx: OrgContext, id: string) {
  const b = await db.broadcast.findFirst({ where: { id, organization_id: ctx.organizationId } });
  if (!b) throw notFound("Broadcast");
  const now = new Date();
  const progress = await progressOf(b.id);
  let reasons: Reason[] = [];
  let sending = false;
  switch (b.status) {
    case "draft":
      reasons = [{ code: "DRAFT", message: "The broadcast is a draft: send or schedule it." }];
      break;
    case "scheduled":
      reasons =
        b.scheduled_at && b.scheduled_at > now
          ? [{ code: "SCHEDULED", message: `Scheduled to start at ${b.scheduled_at.toISOString()}.`, resumes_at: b.scheduled_at.toISOString() }]
          : [{ code: "STARTING", message: "Its time has come; it starts as soon as a worker picks it up (is the worker running?)." }];
      break;
    case "cancelled":
      reasons = [{ code: "CANCELLED", message: `Cancelled${b.completed_at ? ` at ${b.completed_at.toISOString()}` : ""}.` }];
      break;
    case "failed":
      reasons = [{ code: b.failure_reason?.startsWith("No recipients") ? "NO_RECIPIENTS" : "FAILED", message: b.failure_reason ?? "The broadcast failed." }];
      break;
    case "sent":
      reasons = [{ code: "SENT", message: `Finished${b.completed_at ? ` at ${b.completed_at.toISOString()}` : ""}.` }];
      break;
    case "sending":
      ({ reasons, sending } = await sendingReasons(b, progress, now));
      break;
    case "paused": {
      // Emails claimed before the pause may still be finishing at their servers.
      const recovering = await recoveryReason(b, now);
      reasons = [pausedReason(b), ...(recovering ? [recovering] : [])];
      break;
    }
  }
  return { status: b.status, sending, reasons, progress };
}
