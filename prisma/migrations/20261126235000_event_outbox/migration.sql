-- AlterTable
ALTER TABLE "events" ADD COLUMN     "payload" JSONB;

-- AlterTable
ALTER TABLE "webhook_deliveries" ADD COLUMN     "event_id" UUID;

-- CreateTable
CREATE TABLE "event_outbox" (
    "organization_id" UUID NOT NULL,
    "event_id" UUID NOT NULL,

    CONSTRAINT "event_outbox_pkey" PRIMARY KEY ("organization_id","event_id")
);
