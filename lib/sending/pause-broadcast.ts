import type { Prisma } from "@/lib/db";
import { notFound } from "@/lib/domain/errors";
import type { BroadcastPauseReason, BroadcastStatus } from "@/lib/generated/prisma/enums";
import { notifyBroadcastStopped } from "./stop-signals";

// The state change of a pause, the engine's: its circuit breakers pause a broadcast with their
// reason, and the API's pause (lib/services/broadcast-sending.ts) calls the same function.

/**
 * The broadcast's row for a change of status. FOR NO KEY UPDATE, not FOR UPDATE: a fan-out chunk
 * inserting emails holds the row's KEY SHARE lock (the foreign key) for seconds, and a pause or
 * cancel must not wait for it — the chunk sees the new status at its end instead.
 */
export async function lockForPause(tx: Prisma.TransactionClient, organizationId: string, id: string): Promise<BroadcastStatus> {
  const [row] = await tx.$queryRaw<{ status: BroadcastStatus }[]>`
    SELECT status::text AS status FROM broadcasts WHERE id = ${id}::uuid AND organization_id = ${organizationId}::uuid FOR NO KEY UPDATE`;
  if (!row) throw notFound("Broadcast");
  return row.status;
}

/**
 * Pauses a sending broadcast, in the caller's transaction: it becomes `paused` with the reason and
 * nothing more of it is claimed. Its queued emails stay queued, untouched: the claim reads only
 * the sending broadcasts' emails and steps over a paused one's in one read (queue-sources.ts), so a
 * pause is one row whatever the broadcast holds. (It moved them to `scheduled` in one UPDATE,
 * which for a million recipients held the request, and every claim reading past its locked rows,
 * for as long as writing a million rows takes.) Emails a worker has
 * claimed but not yet handed to SMTP are given back by that worker within a second or so (held
 * too); those already handed to an SMTP server finish and are counted. The one way to pause:
 * people through the API (`manual`), circuit breakers with their own reason.
 * Answers false (and changes nothing) when the broadcast is not sending.
 */
export async function pauseBroadcastIn(tx: Prisma.TransactionClient, organizationId: string, id: string, reason: BroadcastPauseReason): Promise<boolean> {
  if ((await lockForPause(tx, organizationId, id)) !== "sending") return false;
  await tx.$executeRaw`
    UPDATE broadcasts SET status = 'paused', paused_reason = ${reason}::"BroadcastPauseReason", paused_at = now(), updated_at = now()
    WHERE id = ${id}::uuid AND organization_id = ${organizationId}::uuid`;
  await notifyBroadcastStopped(tx, id);
  return true;
}
