-- CreateEnum
CREATE TYPE "BounceType" AS ENUM ('hard', 'soft');

-- CreateEnum
CREATE TYPE "FeedbackSource" AS ENUM ('smtp', 'imap');

-- CreateEnum
CREATE TYPE "FeedbackReportStatus" AS ENUM ('pending', 'processing', 'processed', 'discarded');

-- AlterEnum
BEGIN;
CREATE TYPE "SuppressionReason_new" AS ENUM ('hard_bounce', 'soft_bounce', 'complaint', 'unsubscribe', 'manual');
-- Suppressions of old named only `bounce`; every one of them came from a 5xx answer, a hard bounce.
ALTER TABLE "suppressions" ALTER COLUMN "reason" TYPE "SuppressionReason_new"
  USING ((CASE WHEN "reason"::text = 'bounce' THEN 'hard_bounce' ELSE "reason"::text END)::"SuppressionReason_new");
ALTER TYPE "SuppressionReason" RENAME TO "SuppressionReason_old";
ALTER TYPE "SuppressionReason_new" RENAME TO "SuppressionReason";
DROP TYPE "SuppressionReason_old";
COMMIT;

-- AlterTable
ALTER TABLE "suppressions" ADD COLUMN     "email_id" UUID;

-- AlterTable
ALTER TABLE "domains" ADD COLUMN     "dkim_verified_at" TIMESTAMPTZ(3),
ADD COLUMN     "record_checks" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "return_path" TEXT NOT NULL DEFAULT 'bounces',
ADD COLUMN     "return_path_verified_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "broadcasts" ADD COLUMN     "complained_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "soft_bounced_count" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "emails" ADD COLUMN     "bounce_diagnostic" TEXT,
ADD COLUMN     "bounce_status" TEXT,
ADD COLUMN     "bounce_type" "BounceType";

-- CreateTable
CREATE TABLE "feedback_reports" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID,
    "source" "FeedbackSource" NOT NULL,
    "recipient" TEXT NOT NULL,
    "inbox_id" UUID,
    "fingerprint" TEXT NOT NULL,
    "raw" BYTEA,
    "status" "FeedbackReportStatus" NOT NULL DEFAULT 'pending',
    "result" TEXT,
    "email_id" UUID,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "locked_until" TIMESTAMPTZ(3),
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "processed_at" TIMESTAMPTZ(3),

    CONSTRAINT "feedback_reports_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "soft_bounce_streaks" (
    "organization_id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,
    "last_email_id" UUID,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "soft_bounce_streaks_pkey" PRIMARY KEY ("organization_id","email")
);

-- CreateIndex
CREATE UNIQUE INDEX "feedback_reports_fingerprint_key" ON "feedback_reports"("fingerprint");

-- CreateIndex
CREATE INDEX "feedback_reports_status_received_at_idx" ON "feedback_reports"("status", "received_at") WHERE (status IN ('pending', 'processing'));

-- CreateIndex
CREATE INDEX "feedback_reports_received_at_idx" ON "feedback_reports"("received_at");

-- CreateIndex
CREATE INDEX "suppressions_organization_id_created_at_id_idx" ON "suppressions"("organization_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "suppressions_email_id_idx" ON "suppressions"("email_id");

-- AddForeignKey
ALTER TABLE "suppressions" ADD CONSTRAINT "suppressions_email_id_fkey" FOREIGN KEY ("email_id") REFERENCES "emails"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "soft_bounce_streaks" ADD CONSTRAINT "soft_bounce_streaks_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
