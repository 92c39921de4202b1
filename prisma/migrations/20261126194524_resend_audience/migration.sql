-- CreateEnum
CREATE TYPE "ResendAudience" AS ENUM ('non_openers', 'non_clickers');

-- AlterTable
ALTER TABLE "broadcasts" ADD COLUMN     "resend_audience" "ResendAudience",
ADD COLUMN     "resend_of_id" UUID;

-- CreateIndex
CREATE INDEX "broadcasts_resend_of_id_idx" ON "broadcasts"("resend_of_id");

-- AddForeignKey
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_resend_of_id_fkey" FOREIGN KEY ("resend_of_id") REFERENCES "broadcasts"("id") ON DELETE SET NULL ON UPDATE CASCADE;
