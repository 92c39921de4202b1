// The SQL of a claim that every writer of outcomes shares (record-sent.ts, record-outcomes.ts, and
// leases.ts for the claims the relay's thread marked accepted).

/**
 * A worker's claim on an email is a row of `email_claims` (schema.prisma, model EmailClaim): the
 * email itself stays `queued`. Its outcome is written only while the claim exists, and the
 * statement that writes it deletes the claim, so a late duplicate never counts twice.
 */
export const stillClaimed = (alias: string) => `EXISTS (SELECT 1 FROM email_claims claim WHERE claim.email_id = ${alias}.id)`;

/** The claims of the emails a statement's CTE `updated` wrote (its rows' `id`), ended with them. */
export const RELEASE_UPDATED = `DELETE FROM email_claims claim USING updated WHERE claim.email_id = updated.id`;

/**
 * What happens to an email taken back from a worker (its lease ran out, or the worker returns it
 * unsent): a cancelled broadcast's is cancelled, any other is queued again (a paused broadcast's
 * waits there, stepped over by the claim until the broadcast sends again: queue-sources.ts).
 */
export const RETURNED_STATUS = `CASE (SELECT b.status FROM broadcasts b WHERE b.id = emails.broadcast_id)
    WHEN 'cancelled' THEN 'cancelled'::"EmailStatus" ELSE 'queued'::"EmailStatus" END`;
