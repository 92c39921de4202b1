-- CreateEnum
CREATE TYPE "ContactPropertyType" AS ENUM ('string', 'number', 'boolean', 'date');

-- AlterTable
ALTER TABLE "segments" ADD COLUMN     "filter" JSONB;

-- CreateTable
CREATE TABLE "contact_properties" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "type" "ContactPropertyType" NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "contact_properties_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "contact_properties_organization_id_key_key" ON "contact_properties"("organization_id", "key");

-- AddForeignKey
ALTER TABLE "contact_properties" ADD CONSTRAINT "contact_properties_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
