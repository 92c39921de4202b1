-- CreateEnum
CREATE TYPE "SectionKind" AS ENUM ('header', 'footer', 'content');

-- AlterTable
ALTER TABLE "organizations" ADD COLUMN     "public_archive" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "theme" JSONB;

-- AlterTable
ALTER TABLE "email_claims" ADD COLUMN     "accepted_dsn" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "emails" ADD COLUMN     "clicks_tracked" BOOLEAN,
ADD COLUMN     "dsn_requested" BOOLEAN,
ADD COLUMN     "opens_tracked" BOOLEAN;

-- CreateTable
CREATE TABLE "media" (
    "id" UUID NOT NULL DEFAULT uuid_v7(),
    "organization_id" UUID NOT NULL,
    "filename" TEXT NOT NULL,
    "content_type" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "storage_key" TEXT NOT NULL,
    "created_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "media_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sections" (
    "id" UUID NOT NULL DEFAULT uuid_v7(),
    "organization_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "kind" "SectionKind" NOT NULL DEFAULT 'content',
    "content_json" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sections_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "media_storage_key_key" ON "media"("storage_key");

-- CreateIndex
CREATE INDEX "media_organization_id_created_at_id_idx" ON "media"("organization_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "sections_organization_id_created_at_id_idx" ON "sections"("organization_id", "created_at" DESC, "id" DESC);

-- AddForeignKey
ALTER TABLE "media" ADD CONSTRAINT "media_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sections" ADD CONSTRAINT "sections_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
