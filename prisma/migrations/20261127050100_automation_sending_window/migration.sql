-- AlterTable
ALTER TABLE "automations" ADD COLUMN     "sending_window" JSONB;
