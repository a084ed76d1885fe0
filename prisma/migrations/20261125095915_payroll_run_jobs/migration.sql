-- Large payroll runs in the background: who queued the work and when, its progress, and why it failed.
-- AlterTable
ALTER TABLE "payroll_runs" ADD COLUMN     "failure_reason" TEXT,
ADD COLUMN     "progress_processed" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "progress_total" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "queued_at" TIMESTAMPTZ(3),
ADD COLUMN     "queued_by" UUID;

-- CreateIndex
CREATE INDEX "payroll_runs_status_idx" ON "payroll_runs"("status");

-- Runs calculated before: their progress is complete.
UPDATE "payroll_runs" SET "progress_processed" = "employee_count", "progress_total" = "employee_count";
