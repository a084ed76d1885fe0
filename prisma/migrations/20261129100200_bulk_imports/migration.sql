-- Bulk imports (issue 32 part 5; src/modules/bulk/): one row per import - the job's queue entry while
-- queued or running (with its source), then its outcome and problems.
-- CreateTable
CREATE TABLE "imports" (
    "tenant_id" UUID NOT NULL DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "kind" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "dry_run" BOOLEAN NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "source" TEXT,
    "total_rows" INTEGER NOT NULL,
    "processed_rows" INTEGER NOT NULL DEFAULT 0,
    "imported_rows" INTEGER NOT NULL DEFAULT 0,
    "failed_rows" INTEGER NOT NULL DEFAULT 0,
    "problems" JSONB NOT NULL DEFAULT '[]',
    "problem_count" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "created_by" UUID,
    "actor_role" TEXT NOT NULL,
    "actor_employee_id" UUID,
    "actor_email" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    "locked_until" TIMESTAMPTZ(3),

    CONSTRAINT "imports_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateIndex
CREATE INDEX "imports_status_created_at_idx" ON "imports"("status", "created_at");
