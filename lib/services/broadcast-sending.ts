import { retryOnWriteConflict } from "@/lib/db/write-conflict";
import { canManageMembers, overridingSafetyNeedsAdmin, type OrgContext } from "@/lib/domain/context";
import { AppError, invalidField, type ValidationIssue } from "@/lib/domain/errors";
import { db, type Prisma } from "@/lib/db";
import type { Broadcast } from "@/lib/generated/prisma/client";
import type { SendBroadcastInput } from "@/lib/schemas/broadcast-sending";
import { lockBroadcast, serializeBroadcast } from "@/lib/services/broadcasts";
import { assertInboxesVerified, assertProvenSender } from "@/lib/services/sender-proof";
import { audienceCondition, resendOfBroadcast } from "@/lib/audience/reachable";
import { foldBroadcastCounters } from "@/lib/sending/broadcast-counters";
import { cancelEmailBatch, queueEmailCancellation, REQUEST_BATCH } from "@/lib/sending/cancel-emails";
import { lockForPause, pauseBroadcastIn } from "@/lib/sending/pause-broadcast";
import { dropBroadcastStart, ensureQueueSchema, queueBroadcastStart } from "@/lib/sending/queue";
import { notifyBroadcastStopped } from "@/lib/sending/stop-signals";
import { errorField, log } from "@/lib/log";
import { hasContent } from "@/lib/sending/ab-split";
import type { BroadcastVariant } from "@/lib/schemas/broadcasts";

// A client a little behind the server's clock still means "now".
const PAST_TOLERANCE_MS = 60_000;
// Counting a large segment is one statement that may take a while.
const BULK_TRANSACTION = { timeout: 60_000, maxWait: 10_000 };

async function recipientCount(tx: Prisma.TransactionClient, b: Broadcast & { segment_id: string }): Promise<number> {
  const audience = await audienceCondition(tx, {
    organizationId: b.organization_id,
    segmentId: b.segment_id,
    topicId: b.topic_id,
    resendOf: resendOfBroadcast(b),
  });
  const [row] = await tx.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM contacts c WHERE ${audience}`;
  return row.n;
}

/** Everything a broadcast lacks to be sent, each as a `{ path, message }`. */
async function sendabilityProblems(tx: Prisma.TransactionClient, b: Broadcast, startsNow: boolean): Promise<ValidationIssue[]> {
  const problems: ValidationIssue[] = [];
  if (!b.from_email && !b.inbox_id && b.inbox_ids.length === 0)
    problems.push({ path: "from_email", message: "a sender is required: from_email, inbox_id or inbox_ids" });
  if (!hasContent({ ...b, variants: b.variants as BroadcastVariant[] | null })) {
    problems.push({ path: "html_content", message: "content is required: html_content, text_content or template_id (or each A/B variant's own)" });
  }
  if (!b.segment_id) problems.push({ path: "segment_id", message: "an audience is required: set segment_id" });
  else if (startsNow && (await recipientCount(tx, { ...b, segment_id: b.segment_id })) === 0) {
    problems.push({ path: "segment_id", message: "the segment has no subscribed, unsuppressed contacts for this broadcast" });
  }
  return problems;
}

/**
 * Mail goes only from a proven sender: every inbox of a rotation verified (each sends as itself);
 * a single inbox verified, with the broadcast's from address its own or at a verified domain;
 * without an inbox, through the relay, from a verified domain.
 */
async function assertProvenBroadcastSender(tx: Prisma.TransactionClient, ctx: OrgContext, b: Broadcast) {
  if (b.inbox_ids.length > 0) {
    await assertInboxesVerified(
      tx,
      ctx,
      b.inbox_ids.map((id, index) => ({ id, path: `inbox_ids.${index}` })),
    );
    return;
  }
  const inbox = b.inbox_id ? await tx.inbox.findFirst({ where: { id: b.inbox_id, organization_id: ctx.organizationId } }) : null;
  if (inbox) await assertInboxesVerified(tx, ctx, [{ id: inbox.id, path: "inbox_id" }]);
  await assertProvenSender(tx, ctx, b.from_email, "from_email", inbox ? { inbox } : { relay: true });
}

/**
 * Send now or schedule: a draft or scheduled broadcast becomes `scheduled` at the given time (now
 * without one) and its start job is queued under the broadcast's id, so sending again moves the
 * same job instead of adding one.
 */
export async function sendBroadcast(ctx: OrgContext, id: string, input: SendBroadcastInput) {
  const now = Date.now();
  let runAt = new Date(now);
  if (input.scheduled_at) {
    runAt = new Date(input.scheduled_at);
    if (runAt.getTime() < now - PAST_TOLERANCE_MS) throw invalidField("scheduled_at", "must not be in the past");
    if (runAt.getTime() < now) runAt = new Date(now);
  }
  await ensureQueueSchema();
  return retryOnWriteConflict(() =>
    db.$transaction(async (tx) => {
      const status = await lockBroadcast(tx, ctx, id);
      if (status !== "draft" && status !== "scheduled") {
        throw new AppError("BROADCAST_NOT_EDITABLE", `A ${status} broadcast cannot be sent; only draft and scheduled ones can`);
      }
      const broadcast = await tx.broadcast.findFirstOrThrow({ where: { id, organization_id: ctx.organizationId } });
      const problems = await sendabilityProblems(tx, broadcast, runAt.getTime() <= now);
      if (problems.length > 0) throw new AppError("BROADCAST_NOT_SENDABLE", "The broadcast cannot be sent yet", problems);
      await assertProvenBroadcastSender(tx, ctx, broadcast);

      const row = await tx.broadcast.update({
        where: { id, organization_id: ctx.organizationId },
        data: { status: "scheduled", scheduled_at: runAt, failure_reason: null },
      });
      await queueBroadcastStart(tx, { broadcastId: id, organizationId: ctx.organizationId }, runAt);
      return serializeBroadcast(row);
    }, BULK_TRANSACTION),
  );
}

/**
 * Cancels a scheduled, sending or paused broadcast: its start job is dropped and every email not
 * yet handed to SMTP is cancelled — those a worker has claimed but not yet sent within a second or
 * so (the worker gives them back, sender.ts), and the queued and held ones in batches: the status
 * commits first, in a short transaction, so nothing of the broadcast is claimed from then on and
 * no outcome of it waits behind the cancel; a first small batch is cancelled before answering (all
 * of a small broadcast's), the rest by the workers' sweep (lib/sending/cancel-emails.ts).
 * Emails already handed to an SMTP server finish and are counted.
 */
export async function cancelBroadcast(ctx: OrgContext, id: string) {
  await ensureQueueSchema();
  const cancelled = await retryOnWriteConflict(() =>
    db.$transaction(async (tx) => {
      const status = await lockForPause(tx, ctx.organizationId, id);
      if (status !== "scheduled" && status !== "sending" && status !== "paused") {
        throw new AppError("BROADCAST_NOT_CANCELLABLE", `A ${status} broadcast cannot be cancelled; only scheduled, sending and paused ones can`);
      }
      const row = await tx.broadcast.update({
        where: { id, organization_id: ctx.organizationId },
        data: { status: "cancelled", completed_at: new Date(), paused_reason: null, paused_at: null },
      });
      await queueEmailCancellation(tx, ctx.organizationId, id);
      await dropBroadcastStart(tx, id);
      await notifyBroadcastStopped(tx, id);
      return serializeBroadcast(row);
    }),
  );
  // The rest is the sweep's if this fails: the broadcast is cancelled either way.
  await cancelEmailBatch({ broadcastId: id, batchSize: REQUEST_BATCH }).catch((error: unknown) =>
    log.warn({ err: errorField(error), broadcast_id: id }, "cancel: the first batch of emails is left to the sweep"),
  );
  return cancelled;
}

/** `POST /v1/broadcasts/{id}/pause`: a person pauses a sending broadcast. */
export async function pauseBroadcast(ctx: OrgContext, id: string) {
  return retryOnWriteConflict(() =>
    db.$transaction(async (tx) => {
      if (!(await pauseBroadcastIn(tx, ctx.organizationId, id, "manual"))) {
        const status = await lockForPause(tx, ctx.organizationId, id);
        throw new AppError("BROADCAST_NOT_PAUSABLE", `A ${status} broadcast cannot be paused; only sending ones can`);
      }
      return serializeBroadcast(await tx.broadcast.findUniqueOrThrow({ where: { id, organization_id: ctx.organizationId } }));
    }, BULK_TRANSACTION),
  );
}

/**
 * `POST /v1/broadcasts/{id}/resume`: a paused broadcast sends again from where it stopped — its
 * queued emails, left as they were by the pause, are claimed again (each still goes out at most
 * once: a recipient's email is one row), and a fan-out the pause interrupted carries on. Like the
 * pause, one row whatever the broadcast holds.
 */
export async function resumeBroadcast(ctx: OrgContext, id: string) {
  await ensureQueueSchema();
  return retryOnWriteConflict(() =>
    db.$transaction(async (tx) => {
      const status = await lockForPause(tx, ctx.organizationId, id);
      if (status !== "paused") throw new AppError("BROADCAST_NOT_RESUMABLE", `A ${status} broadcast cannot be resumed; only paused ones can`);
      if (!canManageMembers(ctx)) {
        // Read under the lock just taken: what a circuit breaker paused, only an admin or owner resumes.
        const { paused_reason } = await tx.broadcast.findFirstOrThrow({ where: { id, organization_id: ctx.organizationId }, select: { paused_reason: true } });
        if (paused_reason && paused_reason !== "manual") throw overridingSafetyNeedsAdmin(`Resuming a broadcast its ${paused_reason} breaker paused`);
      }
      // The circuit breakers judge only what is sent from here on (breakers.ts): the counters, with
      // what is recorded but not yet folded into them, become their new starting point.
      await foldBroadcastCounters([id], tx);
      await tx.$executeRaw`
      UPDATE broadcasts SET breaker_base_sent = sent_count, breaker_base_bounced = bounced_count, breaker_base_complained = complained_count
      WHERE id = ${id}::uuid AND organization_id = ${ctx.organizationId}::uuid`;
      const row = await tx.broadcast.update({
        where: { id, organization_id: ctx.organizationId },
        data: { status: "sending", paused_reason: null, paused_at: null },
      });
      if (!row.fanned_out_at) await queueBroadcastStart(tx, { broadcastId: id, organizationId: ctx.organizationId }, new Date());
      return serializeBroadcast(row);
    }, BULK_TRANSACTION),
  );
}
