-- CreateTable
CREATE TABLE "events" (
    "id" UUID NOT NULL DEFAULT uuid_v7(),
    "organization_id" UUID NOT NULL,
    "contact_id" UUID,
    "name" TEXT NOT NULL,
    "properties" JSONB NOT NULL DEFAULT '{}',
    "source" TEXT NOT NULL,
    "email_id" UUID,
    "broadcast_id" UUID,
    "automation_id" UUID,
    "machine" BOOLEAN NOT NULL DEFAULT false,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "events_organization_id_contact_id_name_occurred_at_idx" ON "events"("organization_id", "contact_id", "name", "occurred_at" DESC);
