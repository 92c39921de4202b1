-- AlterTable
ALTER TABLE "email_claims" ADD COLUMN     "accepted_dsn" BOOLEAN NOT NULL DEFAULT false;
