-- AlterTable
ALTER TABLE "email_events" ADD COLUMN     "broadcast_id" UUID,
ADD COLUMN     "machine" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "email_events_broadcast_id_created_at_idx" ON "email_events"("broadcast_id", "created_at") WHERE (type IN ('opened', 'clicked'));

-- Opens and clicks recorded before this migration: their broadcast, so reports count them (as people's).
UPDATE "email_events" ev SET "broadcast_id" = e."broadcast_id"
FROM "emails" e
WHERE e."id" = ev."email_id" AND ev."type" IN ('opened', 'clicked') AND e."broadcast_id" IS NOT NULL;
