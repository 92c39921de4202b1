-- DropIndex
DROP INDEX "emails_status_next_attempt_at_idx";

-- DropIndex
DROP INDEX "emails_inbox_id_status_next_attempt_at_idx";

-- DropIndex
DROP INDEX "emails_broadcast_id_status_idx";

-- CreateIndex
CREATE INDEX "emails_status_next_attempt_at_idx" ON "emails"("status", "next_attempt_at") WHERE (status IN ('queued', 'sending'));

-- CreateIndex
CREATE INDEX "emails_inbox_id_status_next_attempt_at_idx" ON "emails"("inbox_id", "status", "next_attempt_at") WHERE (status IN ('queued', 'sending'));

-- CreateIndex
CREATE INDEX "emails_broadcast_id_status_idx" ON "emails"("broadcast_id", "status") WHERE (status IN ('queued', 'scheduled', 'sending', 'failed'));
