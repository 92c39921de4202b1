-- CreateEnum
CREATE TYPE "InboxPauseReason" AS ENUM ('manual', 'bounce_rate');

-- AlterTable
ALTER TABLE "organizations" ADD COLUMN     "bounce_pause_threshold" DOUBLE PRECISION NOT NULL DEFAULT 0.05,
ADD COLUMN     "complaint_pause_threshold" DOUBLE PRECISION NOT NULL DEFAULT 0.003;

-- AlterTable
ALTER TABLE "inboxes" ADD COLUMN     "breaker_since" TIMESTAMPTZ(3),
ADD COLUMN     "paused_at" TIMESTAMPTZ(3),
ADD COLUMN     "paused_reason" "InboxPauseReason";

-- AlterTable
ALTER TABLE "broadcasts" ADD COLUMN     "breaker_base_bounced" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "breaker_base_complained" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "breaker_base_sent" INTEGER NOT NULL DEFAULT 0;
