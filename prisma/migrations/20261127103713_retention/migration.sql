-- AlterTable
ALTER TABLE "emails" ADD COLUMN     "body_links" TEXT;

-- CreateTable
CREATE TABLE "retention_progress" (
    "sweep" TEXT NOT NULL,
    "position" UUID NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "retention_progress_pkey" PRIMARY KEY ("sweep")
);

-- CreateTable
CREATE TABLE "email_engagement_rollups" (
    "email_id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "broadcast_id" UUID NOT NULL,
    "opens" INTEGER NOT NULL DEFAULT 0,
    "clicks" INTEGER NOT NULL DEFAULT 0,
    "machine_opens" INTEGER NOT NULL DEFAULT 0,
    "machine_clicks" INTEGER NOT NULL DEFAULT 0,
    "links" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "email_engagement_rollups_pkey" PRIMARY KEY ("email_id")
);

-- CreateTable
CREATE TABLE "broadcast_engagement_hours" (
    "broadcast_id" UUID NOT NULL,
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "organization_id" UUID NOT NULL,
    "opens" INTEGER NOT NULL DEFAULT 0,
    "clicks" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "broadcast_engagement_hours_pkey" PRIMARY KEY ("broadcast_id","hour")
);

-- CreateIndex
CREATE INDEX "email_engagement_rollups_broadcast_id_idx" ON "email_engagement_rollups"("broadcast_id");

-- AddForeignKey
ALTER TABLE "email_engagement_rollups" ADD CONSTRAINT "email_engagement_rollups_broadcast_id_fkey" FOREIGN KEY ("broadcast_id") REFERENCES "broadcasts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "broadcast_engagement_hours" ADD CONSTRAINT "broadcast_engagement_hours_broadcast_id_fkey" FOREIGN KEY ("broadcast_id") REFERENCES "broadcasts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
