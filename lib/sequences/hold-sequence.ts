import type { DbClient } from "@/lib/db";
import { UNPLACED } from "@/lib/sending/windows";

/**
 * An out-of-office answer: the contact is away until `until`, so their sequence follow-ups wait —
 * in every broadcast and sales automation of the organization, as they are one person. Those already created (queued,
 * waiting for a window, or held by a pause) become `scheduled` until then; those not created yet
 * are created `scheduled` (dispatch.ts reads `away_until`). At `until` they are released and placed
 * in their window (lib/sending/windows.ts). A hold later than `until` is left as it is. A real
 * reply still ends the sequence (leaveSequence cancels held emails too). Answers how many it held.
 */
export async function holdForAway(client: DbClient, { organizationId, contactId, until }: { organizationId: string; contactId: string; until: Date }) {
  await client.$executeRaw`
    UPDATE contacts SET away_until = ${until} WHERE id = ${contactId}::uuid AND organization_id = ${organizationId}::uuid`;
  return client.$executeRaw`
    UPDATE emails SET status = 'scheduled', scheduled_at = ${until}, next_attempt_at = ${until}, window_ends_at = ${UNPLACED}, updated_at = now()
    WHERE organization_id = ${organizationId}::uuid AND contact_id = ${contactId}::uuid
      -- Follow-ups: a broadcast's sequence steps, a sales automation's emails that reply in their run's thread.
      AND ((broadcast_id IS NOT NULL AND sequence_position > 0) OR (automation_id IS NOT NULL AND parent_email_id IS NOT NULL))
      AND status IN ('queued', 'scheduled') AND (scheduled_at IS NULL OR scheduled_at < ${until})
      AND NOT EXISTS (SELECT 1 FROM email_claims claim WHERE claim.email_id = emails.id)`;
}
