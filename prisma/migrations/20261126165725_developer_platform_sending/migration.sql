-- CreateEnum
CREATE TYPE "ApiKeyPermission" AS ENUM ('full_access', 'sending_access');

-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN     "domain_id" UUID,
ADD COLUMN     "permission" "ApiKeyPermission" NOT NULL DEFAULT 'full_access';

-- AlterTable
ALTER TABLE "emails" ADD COLUMN     "api_key_id" UUID,
ADD COLUMN     "bcc" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "cc" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "custom_headers" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "to_addresses" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- CreateTable
CREATE TABLE "email_attachments" (
    "email_id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "attachment" INTEGER NOT NULL,
    "part" INTEGER NOT NULL,
    "content" BYTEA NOT NULL,

    CONSTRAINT "email_attachments_pkey" PRIMARY KEY ("email_id","attachment","part")
);

-- CreateIndex
CREATE INDEX "emails_scheduled_transactional_idx" ON "emails"("scheduled_at") WHERE (status = 'scheduled' AND broadcast_id IS NULL);

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_domain_id_fkey" FOREIGN KEY ("domain_id") REFERENCES "domains"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "email_attachments" ADD CONSTRAINT "email_attachments_email_id_fkey" FOREIGN KEY ("email_id") REFERENCES "emails"("id") ON DELETE CASCADE ON UPDATE CASCADE;
