-- CreateIndex
CREATE UNIQUE INDEX "emails_inbound_message_id_key" ON "emails"("organization_id", "message_id") WHERE (direction = 'inbound');
