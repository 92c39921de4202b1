-- CreateEnum
CREATE TYPE "ContactBulkJobStatus" AS ENUM ('queued', 'running', 'completed', 'failed');

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

-- AddForeignKey
ALTER TABLE "contact_bulk_jobs" ADD CONSTRAINT "contact_bulk_jobs_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
