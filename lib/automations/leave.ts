import { recordEventsCtes } from "@/lib/events/sql";

/**
 * What a batch of replies does to automation runs, as CTEs of the statement that records them
 * (lib/replies, beside lib/sequences/reply-exits.ts), so the batch stays one round trip. `org` is the
 * statement's parameter holding the organization; the caller defines `run_repliers (run_id)`: the
 * runs whose email was answered for real (not out of office).
 *
 * A reply ends a sales-mode run at once (`exited`, `replied`): the step it was in says it left, its
 * emails not yet taken by a sender are cancelled, and its contact's timeline records
 * `automation.exited` — what leaveRuns (exits.ts) does for other exits. Cancelled are the `queued`
 * ones and the `scheduled` ones too: a follow-up waiting for its sending window or for the
 * contact's return from an out-of-office answer would otherwise still go out then. A marketing
 * automation's run goes on: a reply there is a conversation, not an answer to a pitch. An email a
 * worker holds now is in its SMTP conversation: its outcome decides. Defines `ended_runs (id)` and
 * `run_exits (id)`.
 */
export const replyRunExitsCtes = (org: string) => `
  ended_runs AS (
    UPDATE automation_runs r SET status = 'exited', exit_reason = 'replied', next_run_at = NULL, wait_event = NULL, ended_at = now(), updated_at = now()
    FROM automations a
    WHERE r.id IN (SELECT run_id FROM run_repliers) AND r.organization_id = ${org} AND r.status IN ('active', 'waiting')
      AND a.id = r.automation_id AND a.organization_id = ${org} AND a.sequence_mode = 'sales'
    RETURNING r.id, r.organization_id, r.contact_id, r.automation_id, a.name AS automation_name
  ),
  ended_steps AS (
    UPDATE automation_run_steps s SET outcome = 'exited'
    WHERE s.run_id IN (SELECT id FROM ended_runs) AND s.organization_id = ${org} AND s.completed_at IS NULL AND s.outcome IS NULL
  ),
  run_exits AS (
    UPDATE emails e SET status = 'cancelled', last_error = 'Left the automation: replied', next_attempt_at = NULL, updated_at = now()
    WHERE e.automation_run_id IN (SELECT id FROM ended_runs) AND e.organization_id = ${org} AND e.status IN ('queued', 'scheduled')
      AND NOT EXISTS (SELECT 1 FROM email_claims claim WHERE claim.email_id = e.id)
    RETURNING e.id
  ),
  ${recordEventsCtes(
    "run_exit_events",
    ["organization_id", "contact_id", "name", "properties", "source", "automation_id", "occurred_at"],
    `SELECT organization_id, contact_id, 'automation.exited', jsonb_build_object('automation', automation_name, 'reason', 'replied'), 'automation',
       automation_id, now()
     FROM ended_runs`,
  )}`;
