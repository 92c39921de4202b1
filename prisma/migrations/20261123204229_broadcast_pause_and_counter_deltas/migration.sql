-- CreateEnum
CREATE TYPE "BroadcastPauseReason" AS ENUM ('manual', 'bounce_rate', 'complaint_rate');

-- AlterEnum
ALTER TYPE "BroadcastStatus" ADD VALUE 'paused' AFTER 'sending';

-- DropIndex
DROP INDEX "emails_inbox_id_status_next_attempt_at_idx";

-- AlterTable
ALTER TABLE "broadcasts" ADD COLUMN     "paused_at" TIMESTAMPTZ(3),
ADD COLUMN     "paused_reason" "BroadcastPauseReason";

-- CreateTable
CREATE TABLE "broadcast_counter_deltas" (
    "id" BIGSERIAL NOT NULL,
    "broadcast_id" UUID NOT NULL,
    "sent_count" INTEGER NOT NULL DEFAULT 0,
    "bounced_count" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "broadcast_counter_deltas_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "broadcast_counter_deltas_broadcast_id_idx" ON "broadcast_counter_deltas"("broadcast_id");

-- CreateIndex
CREATE INDEX "emails_inbox_id_organization_id_status_next_attempt_at_idx" ON "emails"("inbox_id", "organization_id", "status", "next_attempt_at") WHERE (status IN ('queued', 'sending'));
