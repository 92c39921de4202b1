-- CreateEnum
CREATE TYPE "WebhookAttemptTrigger" AS ENUM ('automatic', 'test', 'replay');

-- AlterTable
ALTER TABLE "webhook_deliveries" ADD COLUMN     "duration_ms" INTEGER,
ADD COLUMN     "last_attempt_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "webhook_delivery_attempts" (
    "id" UUID NOT NULL DEFAULT uuid_v7(),
    "organization_id" UUID NOT NULL,
    "delivery_id" UUID NOT NULL,
    "trigger" "WebhookAttemptTrigger" NOT NULL,
    "url" TEXT NOT NULL,
    "request_headers" JSONB NOT NULL,
    "response_status" INTEGER,
    "response_body" TEXT,
    "response_body_truncated" BOOLEAN NOT NULL DEFAULT false,
    "error" TEXT,
    "succeeded" BOOLEAN NOT NULL,
    "duration_ms" INTEGER NOT NULL,
    "attempted_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "webhook_delivery_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "webhook_delivery_attempts_delivery_id_attempted_at_idx" ON "webhook_delivery_attempts"("delivery_id", "attempted_at" DESC);

-- AddForeignKey
ALTER TABLE "webhook_delivery_attempts" ADD CONSTRAINT "webhook_delivery_attempts_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "webhook_deliveries"("id") ON DELETE CASCADE ON UPDATE CASCADE;
