import type { Prisma } from "@/lib/db";
import { startRuns } from "./start-runs";

/**
 * Contacts just added to a static segment (the rows an INSERT … ON CONFLICT DO NOTHING answered,
 * so a contact already in it does not enter again) enter the active automations it triggers. Call
 * it in the transaction that adds them: the membership and the runs commit together.
 */
export async function enterStaticSegment(tx: Prisma.TransactionClient, organizationId: string, segmentId: string, contactIds: string[]) {
  if (contactIds.length === 0) return [];
  const automations = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM automations
    WHERE trigger_segment_id = ${segmentId}::uuid AND organization_id = ${organizationId}::uuid AND status = 'active'`;
  if (automations.length === 0) return [];
  const entries = automations.flatMap((a) => contactIds.map((contactId) => ({ automationId: a.id, contactId })));
  return startRuns(tx, organizationId, entries);
}
