-- AlterTable
ALTER TABLE "organizations" ADD COLUMN     "postal_address" TEXT;

-- AlterTable
ALTER TABLE "templates" ADD COLUMN     "content_json" JSONB;

-- AlterTable
ALTER TABLE "broadcasts" ADD COLUMN     "content_json" JSONB;

-- AlterTable
ALTER TABLE "sequence_steps" ADD COLUMN     "content_json" JSONB;

-- CreateTable
CREATE TABLE "usage_windows" (
    "organization_id" UUID NOT NULL,
    "action" TEXT NOT NULL,
    "window_start" TIMESTAMPTZ(3) NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "usage_windows_pkey" PRIMARY KEY ("organization_id","action","window_start")
);

-- AddForeignKey
ALTER TABLE "usage_windows" ADD CONSTRAINT "usage_windows_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
