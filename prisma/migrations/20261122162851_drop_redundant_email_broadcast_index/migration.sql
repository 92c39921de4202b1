-- DropIndex
DROP INDEX "emails_broadcast_id_idx";
