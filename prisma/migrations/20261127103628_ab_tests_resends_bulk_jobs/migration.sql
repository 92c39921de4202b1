-- CreateEnum
CREATE TYPE "ResendAudience" AS ENUM ('non_openers', 'non_clickers');

-- CreateEnum
CREATE TYPE "ContactBulkJobStatus" AS ENUM ('queued', 'running', 'completed', 'failed');

-- AlterTable
ALTER TABLE "broadcasts" ADD COLUMN     "ab_cutoffs" BIGINT[] DEFAULT ARRAY[]::BIGINT[],
ADD COLUMN     "ab_decide_at" TIMESTAMPTZ(3),
ADD COLUMN     "ab_decided_at" TIMESTAMPTZ(3),
ADD COLUMN     "ab_test" JSONB,
ADD COLUMN     "ab_winner_index" INTEGER,
ADD COLUMN     "resend_audience" "ResendAudience",
ADD COLUMN     "resend_of_id" UUID,
ADD COLUMN     "variants" JSONB;

-- AlterTable
ALTER TABLE "emails" ADD COLUMN     "variant_index" SMALLINT;

-- CreateTable
CREATE TABLE "contact_bulk_jobs" (
    "id" UUID NOT NULL DEFAULT uuid_v7(),
    "organization_id" UUID NOT NULL,
    "action" TEXT NOT NULL,
    "params" JSONB NOT NULL,
    "status" "ContactBulkJobStatus" NOT NULL DEFAULT 'queued',
    "total" INTEGER NOT NULL DEFAULT 0,
    "processed" INTEGER NOT NULL DEFAULT 0,
    "affected" INTEGER NOT NULL DEFAULT 0,
    "cursor" UUID,
    "error" TEXT,
    "created_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "contact_bulk_jobs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "contact_bulk_jobs_organization_id_created_at_idx" ON "contact_bulk_jobs"("organization_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "broadcasts_ab_decide_at_idx" ON "broadcasts"("ab_decide_at") WHERE (ab_winner_index IS NULL AND ab_decide_at IS NOT NULL);

-- CreateIndex
CREATE INDEX "broadcasts_resend_of_id_idx" ON "broadcasts"("resend_of_id");

-- AddForeignKey
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_resend_of_id_fkey" FOREIGN KEY ("resend_of_id") REFERENCES "broadcasts"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "contact_bulk_jobs" ADD CONSTRAINT "contact_bulk_jobs_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
