-- AlterTable
ALTER TABLE "inboxes" ADD COLUMN     "imap_poll_until" TIMESTAMPTZ(3);
