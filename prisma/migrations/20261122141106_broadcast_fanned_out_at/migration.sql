-- AlterTable
ALTER TABLE "broadcasts" ADD COLUMN     "fanned_out_at" TIMESTAMPTZ(3);
