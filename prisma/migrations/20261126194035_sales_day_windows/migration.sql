-- AlterTable
ALTER TABLE "organizations" ADD COLUMN     "timezone" TEXT NOT NULL DEFAULT 'UTC';

-- AlterTable
ALTER TABLE "contacts" ADD COLUMN     "away_until" TIMESTAMPTZ(3),
ADD COLUMN     "timezone" TEXT;

-- AlterTable
ALTER TABLE "broadcasts" ADD COLUMN     "sending_window" JSONB,
ADD COLUMN     "stop_on_company_reply" BOOLEAN;

-- AlterTable
ALTER TABLE "sequence_steps" ADD COLUMN     "delay_business_days" INTEGER;

-- AlterTable
ALTER TABLE "emails" ADD COLUMN     "window_ends_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "sequence_stopped_domains" (
    "broadcast_id" UUID NOT NULL,
    "domain" TEXT NOT NULL,
    "organization_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sequence_stopped_domains_pkey" PRIMARY KEY ("broadcast_id","domain")
);

-- CreateIndex
CREATE INDEX "sequence_stopped_domains_organization_id_idx" ON "sequence_stopped_domains"("organization_id");

-- CreateIndex
CREATE INDEX "emails_scheduled_broadcast_idx" ON "emails"("scheduled_at") WHERE (status = 'scheduled' AND broadcast_id IS NOT NULL AND scheduled_at IS NOT NULL);

-- CreateIndex
CREATE INDEX "emails_window_placement_idx" ON "emails"("window_ends_at") WHERE (status = 'queued' AND window_ends_at IS NOT NULL);

-- AddForeignKey
ALTER TABLE "sequence_stopped_domains" ADD CONSTRAINT "sequence_stopped_domains_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sequence_stopped_domains" ADD CONSTRAINT "sequence_stopped_domains_broadcast_id_fkey" FOREIGN KEY ("broadcast_id") REFERENCES "broadcasts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
