-- The claim's queue indexes get broadcast_id after the inbox or organization, so that it reads the
-- emails of no broadcast and each sending broadcast's apart, and steps over a cancelled broadcast's
-- queued emails in one read (lib/sending/queue-sources.ts). The index of every queued email by its
-- time is dropped: nothing reads it, and the planner took it for one inbox's retried emails.

-- DropIndex
DROP INDEX "emails_status_next_attempt_at_idx";

-- DropIndex
DROP INDEX "emails_inbox_id_organization_id_status_next_attempt_at_idx";

-- DropIndex
DROP INDEX "emails_inbox_instant_idx";

-- DropIndex
DROP INDEX "emails_inbox_paced_fresh_idx";

-- DropIndex
DROP INDEX "emails_inbox_paced_timed_idx";

-- CreateIndex
CREATE INDEX "emails_relay_queue_idx" ON "emails"("inbox_id", "organization_id", "broadcast_id", "status", "next_attempt_at") WHERE (status IN ('queued', 'sending'));

-- CreateIndex
CREATE INDEX "emails_inbox_instant_idx" ON "emails"("inbox_id", "broadcast_id", "next_attempt_at") WHERE (status = 'queued' AND inbox_id IS NOT NULL AND NOT paced);

-- CreateIndex
CREATE INDEX "emails_inbox_paced_fresh_idx" ON "emails"("inbox_id", "broadcast_id", "created_at", "sequence_position") WHERE (status = 'queued' AND inbox_id IS NOT NULL AND paced AND next_attempt_at IS NULL);

-- CreateIndex
CREATE INDEX "emails_inbox_paced_timed_idx" ON "emails"("inbox_id", "broadcast_id", "next_attempt_at", "sequence_position") WHERE (status = 'queued' AND inbox_id IS NOT NULL AND paced AND next_attempt_at IS NOT NULL);
