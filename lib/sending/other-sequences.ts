import { Prisma } from "@/lib/db";

/** `last_error` of the cancelled row that records a contact left out of a sales sequence at its start. */
export const LEFT_OUT_IN_OTHER_SEQUENCE = "Left out: already in another active sales sequence";

/**
 * Whether the contact (`contactId`, SQL) is in another sales sequence of the organization that is
 * still running for them: a sending or paused `sales` broadcast with follow-up steps where they
 * have an email still to go, or whose last sent email to them has later steps and they have neither answered, bounced,
 * complained, unsubscribed, nor left it. One rep's prospect is not written to by two sequences at
 * once. Read through the emails' contact index: a contact has few emails.
 */
export function inOtherActiveSalesSequence(organizationId: string, broadcastId: string, contactId: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`EXISTS (
    SELECT 1 FROM emails o JOIN broadcasts ob ON ob.id = o.broadcast_id
    WHERE o.contact_id = ${contactId} AND o.organization_id = ${organizationId}::uuid AND o.broadcast_id <> ${broadcastId}::uuid
      AND ob.organization_id = ${organizationId}::uuid AND ob.sequence_mode = 'sales' AND ob.status IN ('sending', 'paused')
      AND EXISTS (SELECT 1 FROM sequence_steps s WHERE s.broadcast_id = ob.id)
      AND (o.status IN ('queued', 'scheduled', 'sending')
        OR (o.sent_at IS NOT NULL
          AND EXISTS (SELECT 1 FROM sequence_steps s WHERE s.broadcast_id = ob.id AND s.position > o.sequence_position)
          AND NOT EXISTS (
            SELECT 1 FROM emails x WHERE x.contact_id = o.contact_id AND x.broadcast_id = ob.id
              AND (x.sequence_position > o.sequence_position OR x.replied_at IS NOT NULL OR x.bounced_at IS NOT NULL
                OR x.complained_at IS NOT NULL OR x.unsubscribed_at IS NOT NULL OR x.status IN ('bounced', 'complained', 'cancelled'))))))`;
}
