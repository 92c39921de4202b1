import type { DbClient } from "@/lib/db";
import { SEQUENCE_EXIT_PREFIX } from "./dispatch";

export type LeaveReason = "replied" | "unsubscribed" | "bounced" | "complained";

/**
 * Takes a recipient out of a broadcast's sequence at once: follow-ups already queued for them
 * (waiting for their inbox's pacing, say) or scheduled (for a window's opening, an out-of-office
 * return, or held by a pause) are cancelled and no longer counted in the total. Later
 * steps need a sent previous email, so none follows. Call it in the transaction that records the
 * reply, unsubscription, bounce or complaint. Answers how many follow-ups it cancelled.
 */
export async function leaveSequence(client: DbClient, { broadcastId, contactId, reason }: { broadcastId: string; contactId: string; reason: LeaveReason }) {
  const [{ cancelled }] = await client.$queryRaw<{ cancelled: number }[]>`
    WITH cancelled AS (
      UPDATE emails SET status = 'cancelled', last_error = ${SEQUENCE_EXIT_PREFIX + reason}, next_attempt_at = NULL, updated_at = now()
      WHERE broadcast_id = ${broadcastId}::uuid AND contact_id = ${contactId}::uuid AND sequence_position > 0 AND status IN ('queued', 'scheduled')
        -- One a worker holds now is in its SMTP conversation: its outcome decides (leases.ts).
        AND NOT EXISTS (SELECT 1 FROM email_claims claim WHERE claim.email_id = emails.id)
      RETURNING 1
    )
    SELECT count(*)::int AS cancelled FROM cancelled`;
  if (cancelled > 0) {
    await client.$executeRaw`
      UPDATE broadcasts SET total_recipients = GREATEST(total_recipients - ${cancelled}, 0), updated_at = now()
      WHERE id = ${broadcastId}::uuid`;
  }
  return cancelled;
}
