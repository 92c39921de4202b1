-- AlterTable
ALTER TABLE "inboxes" ADD COLUMN     "daily_sent_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "daily_sent_date" DATE,
ADD COLUMN     "next_send_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "sequence_steps" ADD COLUMN     "dispatched_at" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "emails_inbox_id_status_next_attempt_at_idx" ON "emails"("inbox_id", "status", "next_attempt_at");
