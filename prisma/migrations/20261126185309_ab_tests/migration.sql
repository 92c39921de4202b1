-- AlterTable
ALTER TABLE "broadcasts" ADD COLUMN     "ab_cutoffs" BIGINT[] DEFAULT ARRAY[]::BIGINT[],
ADD COLUMN     "ab_decide_at" TIMESTAMPTZ(3),
ADD COLUMN     "ab_decided_at" TIMESTAMPTZ(3),
ADD COLUMN     "ab_test" JSONB,
ADD COLUMN     "ab_winner_index" INTEGER,
ADD COLUMN     "variants" JSONB;

-- AlterTable
ALTER TABLE "emails" ADD COLUMN     "variant_index" SMALLINT;

-- CreateIndex
CREATE INDEX "broadcasts_ab_decide_at_idx" ON "broadcasts"("ab_decide_at") WHERE (ab_winner_index IS NULL AND ab_decide_at IS NOT NULL);
