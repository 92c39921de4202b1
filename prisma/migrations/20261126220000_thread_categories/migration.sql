-- CreateEnum
CREATE TYPE "ThreadCategory" AS ENUM ('needs_reply', 'interested', 'not_interested', 'meeting', 'out_of_office', 'unsubscribe', 'bounce', 'done');

-- AlterTable
ALTER TABLE "threads" ADD COLUMN     "automation_id" UUID,
ADD COLUMN     "category" "ThreadCategory";

-- Backfill: threads answered before categories existed join the unified inbox as needing a reply.
-- An inbound email that set no replied_at is an out-of-office answer (kept since sales_day_windows).
UPDATE "threads" t SET "category" = CASE
    WHEN EXISTS (SELECT 1 FROM "emails" o WHERE o."thread_id" = t."id" AND o."direction" = 'outbound' AND o."replied_at" IS NOT NULL)
    THEN 'needs_reply'::"ThreadCategory" ELSE 'out_of_office'::"ThreadCategory" END
WHERE EXISTS (SELECT 1 FROM "emails" e WHERE e."thread_id" = t."id" AND e."direction" = 'inbound');

-- CreateIndex
CREATE INDEX "threads_inbox_idx" ON "threads"("organization_id", "last_message_at" DESC, "id" DESC) WHERE (category IS NOT NULL);

-- CreateIndex
CREATE INDEX "threads_inbox_category_idx" ON "threads"("organization_id", "category", "last_message_at" DESC, "id" DESC) WHERE (category IS NOT NULL);

-- CreateIndex
CREATE INDEX "threads_inbox_inbox_idx" ON "threads"("organization_id", "inbox_id", "last_message_at" DESC, "id" DESC) WHERE (category IS NOT NULL);

-- CreateIndex
CREATE INDEX "threads_inbox_broadcast_idx" ON "threads"("broadcast_id", "last_message_at" DESC, "id" DESC) WHERE (category IS NOT NULL);

-- CreateIndex
CREATE INDEX "threads_inbox_automation_idx" ON "threads"("automation_id", "last_message_at" DESC, "id" DESC) WHERE (category IS NOT NULL);
