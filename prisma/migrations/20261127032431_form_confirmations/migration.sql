-- CreateTable
CREATE TABLE "form_confirmations" (
    "submission_id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "form_confirmations_pkey" PRIMARY KEY ("submission_id")
);

-- CreateIndex
CREATE INDEX "form_confirmations_organization_id_created_at_idx" ON "form_confirmations"("organization_id", "created_at");

-- AddForeignKey
ALTER TABLE "form_confirmations" ADD CONSTRAINT "form_confirmations_submission_id_fkey" FOREIGN KEY ("submission_id") REFERENCES "form_submissions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
