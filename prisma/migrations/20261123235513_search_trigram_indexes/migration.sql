-- pg_trgm ships with PostgreSQL (a trusted extension: the database owner may create it).
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- CreateIndex
CREATE INDEX "contacts_search_trgm_idx" ON "contacts" USING GIN ("email" gin_trgm_ops, "first_name" gin_trgm_ops, "last_name" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "emails_to_email_trgm_idx" ON "emails" USING GIN ("to_email" gin_trgm_ops);
