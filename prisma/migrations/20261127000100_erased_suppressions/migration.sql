-- AlterTable
ALTER TABLE "suppressions" ADD COLUMN     "erased" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "suppressions_erased_idx" ON "suppressions"("organization_id") WHERE (erased);
