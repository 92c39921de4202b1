-- CreateTable
CREATE TABLE "email_claims" (
    "email_id" UUID NOT NULL,
    "locked_until" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "email_claims_pkey" PRIMARY KEY ("email_id")
);

-- Emails a worker holds as this migration runs keep their lease, as claims: `sending` is no longer written.
INSERT INTO "email_claims" ("email_id", "locked_until")
SELECT "id", COALESCE("locked_until", now()) FROM "emails" WHERE "status" = 'sending';
UPDATE "emails" SET "status" = 'queued' WHERE "status" = 'sending';

-- AlterTable
ALTER TABLE "emails" DROP COLUMN "locked_until";
