-- AlterTable
ALTER TABLE "emails" ADD COLUMN     "paced" BOOLEAN NOT NULL DEFAULT false;

-- Backfill, before the indexes are built: the emails still to send of automations and of broadcasts
-- at any speed but `instant` go at their inbox's pace, as the claim decided from their broadcast until
-- now. Sent emails are never claimed again, and are left as they are.
UPDATE "emails" e SET "paced" = true
WHERE e.status IN ('queued', 'scheduled', 'sending')
  AND (e.automation_id IS NOT NULL
    OR EXISTS (SELECT 1 FROM "broadcasts" b WHERE b.id = e.broadcast_id AND b.sending_speed IS DISTINCT FROM 'instant'));

-- CreateIndex
CREATE INDEX "emails_inbox_instant_idx" ON "emails"("inbox_id", "next_attempt_at") WHERE (status = 'queued' AND inbox_id IS NOT NULL AND NOT paced);

-- CreateIndex
CREATE INDEX "emails_inbox_paced_fresh_idx" ON "emails"("inbox_id", "created_at", "sequence_position") WHERE (status = 'queued' AND inbox_id IS NOT NULL AND paced AND next_attempt_at IS NULL);

-- CreateIndex
CREATE INDEX "emails_inbox_paced_timed_idx" ON "emails"("inbox_id", "next_attempt_at", "sequence_position") WHERE (status = 'queued' AND inbox_id IS NOT NULL AND paced AND next_attempt_at IS NOT NULL);
