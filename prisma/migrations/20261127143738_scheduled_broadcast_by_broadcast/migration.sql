-- DropIndex
DROP INDEX "emails_scheduled_broadcast_idx";

-- CreateIndex
CREATE INDEX "emails_scheduled_broadcast_idx" ON "emails"("broadcast_id", "scheduled_at") WHERE (status = 'scheduled' AND broadcast_id IS NOT NULL AND scheduled_at IS NOT NULL);
