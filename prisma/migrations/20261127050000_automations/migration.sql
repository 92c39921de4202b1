-- CreateEnum
CREATE TYPE "AutomationStatus" AS ENUM ('draft', 'active', 'paused', 'archived');

-- CreateEnum
CREATE TYPE "AutomationReentry" AS ENUM ('never', 'after_exit');

-- CreateEnum
CREATE TYPE "AutomationRunStatus" AS ENUM ('active', 'waiting', 'completed', 'exited', 'failed');

-- AlterTable
ALTER TABLE "emails" ADD COLUMN     "automation_id" UUID,
ADD COLUMN     "automation_run_id" UUID,
ADD COLUMN     "automation_step_id" UUID;

-- CreateTable
CREATE TABLE "automations" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "status" "AutomationStatus" NOT NULL DEFAULT 'draft',
    "trigger" JSONB NOT NULL,
    "steps" JSONB NOT NULL,
    "reentry" "AutomationReentry" NOT NULL DEFAULT 'never',
    "exit_filter" JSONB,
    "sequence_mode" "SequenceMode" NOT NULL DEFAULT 'marketing',
    "inbox_ids" UUID[] DEFAULT ARRAY[]::UUID[],
    "from_email" TEXT,
    "from_name" TEXT,
    "trigger_event" TEXT,
    "trigger_segment_id" UUID,
    "inbox_rotation" INTEGER NOT NULL DEFAULT 0,
    "created_by" UUID,
    "activated_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "automations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "automation_runs" (
    "id" UUID NOT NULL DEFAULT uuid_v7(),
    "organization_id" UUID NOT NULL,
    "automation_id" UUID NOT NULL,
    "contact_id" UUID NOT NULL,
    "status" "AutomationRunStatus" NOT NULL DEFAULT 'active',
    "current_step_id" UUID,
    "next_run_at" TIMESTAMPTZ(3),
    "wait_event" TEXT,
    "wait_since" TIMESTAMPTZ(3),
    "wait_result" TEXT,
    "inbox_id" UUID,
    "last_email_id" UUID,
    "exit_reason" TEXT,
    "trigger_event_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ended_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "automation_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "automation_run_steps" (
    "run_id" UUID NOT NULL,
    "step_id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "automation_id" UUID NOT NULL,
    "outcome" TEXT,
    "email_id" UUID,
    "entered_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),
    "seq" BIGSERIAL NOT NULL,

    CONSTRAINT "automation_run_steps_pkey" PRIMARY KEY ("run_id","step_id")
);

-- CreateTable
CREATE TABLE "automation_segment_members" (
    "automation_id" UUID NOT NULL,
    "contact_id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,

    CONSTRAINT "automation_segment_members_pkey" PRIMARY KEY ("automation_id","contact_id")
);

-- CreateIndex
CREATE INDEX "automations_organization_id_created_at_id_idx" ON "automations"("organization_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "automations_organization_id_trigger_event_idx" ON "automations"("organization_id", "trigger_event") WHERE (status = 'active');

-- CreateIndex
CREATE INDEX "automations_trigger_segment_id_idx" ON "automations"("trigger_segment_id") WHERE (status = 'active');

-- CreateIndex
CREATE INDEX "automation_runs_automation_id_next_run_at_idx" ON "automation_runs"("automation_id", "next_run_at") WHERE (status IN ('active', 'waiting'));

-- CreateIndex
CREATE INDEX "automation_runs_waiting_for_event" ON "automation_runs"("organization_id", "contact_id") WHERE (status = 'waiting' AND wait_event IS NOT NULL);

-- CreateIndex
CREATE INDEX "automation_runs_automation_id_contact_id_created_at_idx" ON "automation_runs"("automation_id", "contact_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "automation_runs_automation_id_created_at_id_idx" ON "automation_runs"("automation_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "automation_runs_automation_id_status_current_step_id_idx" ON "automation_runs"("automation_id", "status", "current_step_id");

-- CreateIndex
CREATE INDEX "automation_runs_contact_id_idx" ON "automation_runs"("contact_id");

-- CreateIndex
CREATE UNIQUE INDEX "automation_runs_one_live_per_contact" ON "automation_runs"("automation_id", "contact_id") WHERE (status IN ('active', 'waiting'));

-- CreateIndex
CREATE INDEX "automation_run_steps_automation_id_step_id_idx" ON "automation_run_steps"("automation_id", "step_id");

-- CreateIndex
CREATE UNIQUE INDEX "emails_automation_run_id_automation_step_id_key" ON "emails"("automation_run_id", "automation_step_id") WHERE (automation_run_id IS NOT NULL);

-- AddForeignKey
ALTER TABLE "automations" ADD CONSTRAINT "automations_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "automation_runs" ADD CONSTRAINT "automation_runs_automation_id_fkey" FOREIGN KEY ("automation_id") REFERENCES "automations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "automation_runs" ADD CONSTRAINT "automation_runs_contact_id_fkey" FOREIGN KEY ("contact_id") REFERENCES "contacts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "automation_run_steps" ADD CONSTRAINT "automation_run_steps_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "automation_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
