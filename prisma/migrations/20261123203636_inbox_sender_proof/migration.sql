-- AlterTable
ALTER TABLE "inboxes" ADD COLUMN     "sender_confirmed_at" TIMESTAMPTZ(3),
ADD COLUMN     "sender_token_expires_at" TIMESTAMPTZ(3),
ADD COLUMN     "sender_token_hash" TEXT,
ADD COLUMN     "sender_token_sent_at" TIMESTAMPTZ(3);

-- CreateIndex
CREATE UNIQUE INDEX "inboxes_sender_token_hash_key" ON "inboxes"("sender_token_hash");
