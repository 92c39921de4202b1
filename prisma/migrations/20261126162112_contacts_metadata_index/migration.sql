-- CreateIndex
CREATE INDEX "contacts_metadata_idx" ON "contacts" USING GIN ("metadata" jsonb_path_ops);
