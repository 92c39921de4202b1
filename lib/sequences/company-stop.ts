import type { DbClient } from "@/lib/db";
import { SEQUENCE_EXIT_PREFIX } from "./dispatch";
import { COMPANY_REPLIED } from "./exit-reason";

/**
 * `stop_on_company_reply` (unset: on in `sales` mode): someone at `domain` replied, so the sequence
 * ends for everyone at that domain. The domain is recorded for the later steps' exit check
 * (exit-reason.ts), and emails of the broadcast still waiting for colleagues there — a first
 * email under a window, a follow-up — are cancelled now and leave the total. One a worker holds is
 * in its SMTP conversation and goes. The caller leaves out free-mail domains. Answers how many
 * emails it cancelled (0 when the broadcast does not stop for companies).
 */
export async function stopForCompany(
  client: DbClient,
  { organizationId, broadcastId, domain }: { organizationId: string; broadcastId: string; domain: string },
) {
  const stopped = await client.$executeRaw`
    INSERT INTO sequence_stopped_domains (broadcast_id, domain, organization_id)
    SELECT b.id, ${domain}, b.organization_id FROM broadcasts b
    WHERE b.id = ${broadcastId}::uuid AND b.organization_id = ${organizationId}::uuid
      AND COALESCE(b.stop_on_company_reply, b.sequence_mode = 'sales')
    ON CONFLICT (broadcast_id, domain) DO NOTHING`;
  if (stopped === 0) return 0;
  const [{ cancelled }] = await client.$queryRaw<{ cancelled: number }[]>`
    WITH cancelled AS (
      UPDATE emails SET status = 'cancelled', last_error = ${SEQUENCE_EXIT_PREFIX + COMPANY_REPLIED}, next_attempt_at = NULL, updated_at = now()
      WHERE broadcast_id = ${broadcastId}::uuid AND organization_id = ${organizationId}::uuid AND status IN ('queued', 'scheduled')
        AND lower(split_part(to_email, '@', 2)) = ${domain}
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
