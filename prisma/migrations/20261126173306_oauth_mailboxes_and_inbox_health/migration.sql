-- CreateEnum
CREATE TYPE "InboxAuthType" AS ENUM ('password', 'oauth2');

-- CreateEnum
CREATE TYPE "OAuthProvider" AS ENUM ('google', 'microsoft');

-- CreateEnum
CREATE TYPE "InboxStatus" AS ENUM ('active', 'error');

-- AlterTable
ALTER TABLE "inboxes" ADD COLUMN     "auth_type" "InboxAuthType" NOT NULL DEFAULT 'password',
ADD COLUMN     "failed_at" TIMESTAMPTZ(3),
ADD COLUMN     "failure_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "oauth_access_token_encrypted" TEXT,
ADD COLUMN     "oauth_access_token_expires_at" TIMESTAMPTZ(3),
ADD COLUMN     "oauth_provider" "OAuthProvider",
ADD COLUMN     "oauth_refresh_token_encrypted" TEXT,
ADD COLUMN     "status" "InboxStatus" NOT NULL DEFAULT 'active';

-- CreateTable
CREATE TABLE "oauth_states" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "state_hash" TEXT NOT NULL,
    "browser_hash" TEXT NOT NULL,
    "user_id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "provider" "OAuthProvider" NOT NULL,
    "code_verifier_encrypted" TEXT NOT NULL,
    "nonce" TEXT NOT NULL,
    "name" TEXT,
    "daily_limit" INTEGER,
    "inbox_id" UUID,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth_states_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "oauth_states_state_hash_key" ON "oauth_states"("state_hash");

-- CreateIndex
CREATE INDEX "oauth_states_expires_at_idx" ON "oauth_states"("expires_at");
