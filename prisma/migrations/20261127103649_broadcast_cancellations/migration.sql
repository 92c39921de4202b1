-- CreateTable
CREATE TABLE "broadcast_cancellations" (
    "broadcast_id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "broadcast_cancellations_pkey" PRIMARY KEY ("broadcast_id")
);
