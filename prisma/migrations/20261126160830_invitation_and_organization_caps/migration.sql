-- AlterTable
ALTER TABLE "organizations" ADD COLUMN     "created_by" UUID;

-- CreateTable
CREATE TABLE "invitation_mails" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "user_id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "invitation_mails_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "invitation_mails_user_id_created_at_idx" ON "invitation_mails"("user_id", "created_at");

-- CreateIndex
CREATE INDEX "organizations_created_by_idx" ON "organizations"("created_by");

-- AddForeignKey
ALTER TABLE "invitation_mails" ADD CONSTRAINT "invitation_mails_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Organizations made before the cap count for the user who made them: their audit entry says who.
UPDATE "organizations" o SET "created_by" = a."actor_user_id"
FROM "audit_logs" a
WHERE a."organization_id" = o."id" AND a."action" = 'organization.created' AND a."actor_user_id" IS NOT NULL;
