-- CreateIndex
CREATE INDEX "templates_inbox_id_idx" ON "templates"("inbox_id");

-- CreateIndex
CREATE INDEX "broadcasts_segment_id_idx" ON "broadcasts"("segment_id");

-- CreateIndex
CREATE INDEX "broadcasts_template_id_idx" ON "broadcasts"("template_id");

-- CreateIndex
CREATE INDEX "broadcasts_topic_id_idx" ON "broadcasts"("topic_id");

-- CreateIndex
CREATE INDEX "sequence_steps_template_id_idx" ON "sequence_steps"("template_id");

-- CreateIndex
CREATE INDEX "threads_organization_id_inbox_id_idx" ON "threads"("organization_id", "inbox_id");

-- CreateIndex
CREATE INDEX "emails_contact_id_idx" ON "emails"("contact_id");

-- CreateIndex
CREATE INDEX "emails_organization_id_status_created_at_idx" ON "emails"("organization_id", "status", "created_at" DESC);

-- CreateIndex
CREATE INDEX "emails_organization_id_template_id_created_at_idx" ON "emails"("organization_id", "template_id", "created_at" DESC);
