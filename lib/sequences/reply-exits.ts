import { UNPLACED } from "@/lib/sending/windows";
import { SEQUENCE_EXIT_PREFIX } from "./dispatch";
import { COMPANY_REPLIED } from "./exit-reason";

const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;
const UNCLAIMED = "NOT EXISTS (SELECT 1 FROM email_claims claim WHERE claim.email_id = e.id)";

/**
 * What a batch of replies does to sequences, as CTEs of the statement that records them (lib/replies),
 * so a whole batch is one round trip. `org` is the statement's parameter holding the organization. The
 * caller defines four inputs from the replies it stored (the fourth below):
 *
 * - `repliers (broadcast_id, contact_id)`: who replied for real. They leave the broadcast's sequence
 *   at once: their follow-ups still queued, waiting for a window or an out-of-office return, or
 *   held by a pause, are cancelled. Later steps need a sent previous email, so none follows.
 * - `company_replies (broadcast_id, domain)`: the domains they wrote from (free-mail ones left out by
 *   the caller). With `stop_on_company_reply` (unset: on in `sales` mode), the sequence ends for
 *   everyone there: the domain is recorded for the later steps' exit check (exit-reason.ts) and the
 *   broadcast's emails still waiting for colleagues there (a first email under a window too) are
 *   cancelled. A recipient who replied leaves for that reason first ("replied").
 * - `away (contact_id, until, latest)`: senders of out-of-office answers, away until `until` (the
 *   latest return of their answers; `latest`: that of their last one, which the contact keeps). Their
 *   follow-ups wait, in every broadcast and sales automation, as they are one person: those created
 *   become `scheduled` until then and are placed in their window at that time (lib/sending/windows.ts);
 *   those not created yet are created `scheduled` (dispatch.ts and lib/automations' send step read
 *   `away_until`). A later hold is left as it is, and an email a reply cancels in the same batch stays
 *   cancelled: so is the caller's `run_repliers (run_id)`, the automation runs a reply ends
 *   (lib/automations/leave.ts), whose emails are left to that.
 *
 * An email a worker holds now is in its SMTP conversation: its outcome decides (leases.ts).
 * Defines `company_stopped`, `exit_targets`, `exits` (the emails cancelled: id, broadcast_id, which
 * the caller takes off their broadcasts' totals), `away_contacts` and `held`.
 */
export const replyExitsCtes = (org: string) => `
  company_stopped AS (
    INSERT INTO sequence_stopped_domains (broadcast_id, domain, organization_id)
    SELECT DISTINCT b.id, r.domain, b.organization_id FROM company_replies r
    JOIN broadcasts b ON b.id = r.broadcast_id AND b.organization_id = ${org}
    WHERE COALESCE(b.stop_on_company_reply, b.sequence_mode = 'sales')
    ON CONFLICT (broadcast_id, domain) DO NOTHING
    RETURNING broadcast_id, domain
  ),
  exit_targets AS (
    SELECT DISTINCT ON (id) id, reason FROM (
      SELECT e.id, 1 AS rank, ${literal(SEQUENCE_EXIT_PREFIX + "replied")} AS reason FROM repliers r
      JOIN emails e ON e.broadcast_id = r.broadcast_id AND e.contact_id = r.contact_id
      WHERE e.organization_id = ${org} AND e.sequence_position > 0 AND e.status IN ('queued', 'scheduled')
      UNION ALL
      SELECT e.id, 2, ${literal(SEQUENCE_EXIT_PREFIX + COMPANY_REPLIED)} FROM company_stopped s
      JOIN emails e ON e.broadcast_id = s.broadcast_id
      WHERE e.organization_id = ${org} AND e.status IN ('queued', 'scheduled') AND lower(split_part(e.to_email, '@', 2)) = s.domain
    ) targets ORDER BY id, rank
  ),
  exits AS (
    UPDATE emails e SET status = 'cancelled', last_error = t.reason, next_attempt_at = NULL, updated_at = now()
    FROM exit_targets t WHERE e.id = t.id AND e.organization_id = ${org} AND ${UNCLAIMED}
    RETURNING e.id, e.broadcast_id
  ),
  away_contacts AS (
    UPDATE contacts c SET away_until = a.latest FROM away a WHERE c.id = a.contact_id AND c.organization_id = ${org}
  ),
  held AS (
    UPDATE emails e SET status = 'scheduled', scheduled_at = a.until, next_attempt_at = a.until, window_ends_at = ${UNPLACED.text}, updated_at = now()
    FROM away a
    WHERE e.organization_id = ${org} AND e.contact_id = a.contact_id
      -- Follow-ups: a broadcast's sequence steps, a sales automation's emails that reply in their run's thread.
      AND ((e.broadcast_id IS NOT NULL AND e.sequence_position > 0) OR (e.automation_id IS NOT NULL AND e.parent_email_id IS NOT NULL))
      AND e.status IN ('queued', 'scheduled') AND (e.scheduled_at IS NULL OR e.scheduled_at < a.until) AND ${UNCLAIMED}
      AND e.id NOT IN (SELECT id FROM exit_targets)
      AND (e.automation_run_id IS NULL OR e.automation_run_id NOT IN (SELECT run_id FROM run_repliers))
  )`;
