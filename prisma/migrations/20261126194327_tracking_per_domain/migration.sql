-- AlterTable
ALTER TABLE "domains" ADD COLUMN     "tracking_subdomain" TEXT,
ADD COLUMN     "tracking_verified_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "broadcasts" ADD COLUMN     "track_clicks" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "track_opens" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "utm" JSONB;

-- AlterTable
ALTER TABLE "sequence_steps" ADD COLUMN     "track_clicks" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "track_opens" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "utm" JSONB;

-- AlterTable
ALTER TABLE "emails" ADD COLUMN     "track_clicks" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "track_opens" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "utm" JSONB;
