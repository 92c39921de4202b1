-- CreateIndex
CREATE INDEX "emails_broadcast_id_status_idx" ON "emails"("broadcast_id", "status");
