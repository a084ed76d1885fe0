/*
  Warnings:

  - A unique constraint covering the columns `[tenant_id,asset_id]` on the table `asset_assignments` will be added. If there are existing duplicate values, this will fail.
  - A unique constraint covering the columns `[tenant_id,name]` on the table `asset_categories` will be added. If there are existing duplicate values, this will fail.
  - A unique constraint covering the columns `[tenant_id,assignment_id]` on the table `asset_return_requests` will be added. If there are existing duplicate values, this will fail.
  - A unique constraint covering the columns `[tenant_id,serial_number]` on the table `assets` will be added. If there are existing duplicate values, this will fail.
  - A unique constraint covering the columns `[tenant_id,name]` on the table `branches` will be added. If there are existing duplicate values, this will fail.
  - A unique constraint covering the columns `[tenant_id,code]` on the table `branches` will be added. If there are existing duplicate values, this will fail.
  - A unique constraint covering the columns `[tenant_id,email]` on the table `employees` will be added. If there are existing duplicate values, this will fail.

*/
-- CreateTable
CREATE TABLE "job_requisitions" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "requisition_number" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "department" TEXT NOT NULL,
    "designation" TEXT,
    "positions" INTEGER NOT NULL DEFAULT 1,
    "employment_type" TEXT NOT NULL DEFAULT 'full_time',
    "location" TEXT,
    "justification" TEXT,
    "description" TEXT,
    "min_salary" DECIMAL(15,2),
    "max_salary" DECIMAL(15,2),
    "target_start_date" DATE,
    "status" TEXT NOT NULL DEFAULT 'draft',
    "requested_by" UUID NOT NULL,
    "requested_by_employee_id" UUID,
    "submitted_at" TIMESTAMPTZ(3),
    "decided_by" UUID,
    "decided_at" TIMESTAMPTZ(3),
    "decision_notes" TEXT,
    "closed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "job_requisitions_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "job_postings" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "posting_number" TEXT NOT NULL,
    "requisition_id" UUID NOT NULL,
    "title" TEXT NOT NULL,
    "department" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "requirements" TEXT NOT NULL DEFAULT '',
    "skills" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "location" TEXT,
    "employment_type" TEXT NOT NULL DEFAULT 'full_time',
    "openings" INTEGER NOT NULL DEFAULT 1,
    "min_salary" DECIMAL(15,2),
    "max_salary" DECIMAL(15,2),
    "closes_on" DATE,
    "status" TEXT NOT NULL DEFAULT 'draft',
    "published_at" TIMESTAMPTZ(3),
    "closed_at" TIMESTAMPTZ(3),
    "created_by" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "job_postings_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "candidates" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "posting_id" UUID NOT NULL,
    "first_name" TEXT NOT NULL,
    "last_name" TEXT NOT NULL,
    "email" CITEXT NOT NULL,
    "phone" TEXT,
    "source" TEXT NOT NULL DEFAULT 'direct',
    "current_company" TEXT,
    "current_title" TEXT,
    "experience_years" DECIMAL(4,1),
    "expected_salary" DECIMAL(15,2),
    "notice_period_days" INTEGER,
    "skills" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "resume_file_id" UUID,
    "resume_text" TEXT,
    "notes" TEXT,
    "stage" TEXT NOT NULL DEFAULT 'applied',
    "stage_changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "rejection_reason" TEXT,
    "screening_score" INTEGER,
    "screened_at" TIMESTAMPTZ(3),
    "employee_id" UUID,
    "converted_at" TIMESTAMPTZ(3),
    "created_by" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "candidates_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "interviews" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "candidate_id" UUID NOT NULL,
    "round_name" TEXT NOT NULL,
    "round_sequence" INTEGER,
    "scheduled_at" TIMESTAMPTZ(3) NOT NULL,
    "duration_minutes" INTEGER NOT NULL,
    "mode" TEXT NOT NULL,
    "location" TEXT,
    "meeting_url" TEXT,
    "interviewer_user_ids" UUID[],
    "status" TEXT NOT NULL DEFAULT 'scheduled',
    "rating" INTEGER,
    "rating_scale" INTEGER,
    "recommendation" TEXT,
    "feedback" TEXT,
    "feedback_by" UUID,
    "completed_at" TIMESTAMPTZ(3),
    "cancel_reason" TEXT,
    "created_by" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "interviews_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "interview_sessions" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "candidate_id" UUID NOT NULL,
    "interview_id" UUID,
    "title" TEXT NOT NULL,
    "scheduled_at" TIMESTAMPTZ(3) NOT NULL,
    "duration_minutes" INTEGER NOT NULL,
    "mode" TEXT NOT NULL,
    "location" TEXT,
    "meeting_url" TEXT,
    "instructions" TEXT,
    "status" TEXT NOT NULL DEFAULT 'scheduled',
    "sent_at" TIMESTAMPTZ(3),
    "send_count" INTEGER NOT NULL DEFAULT 0,
    "created_by" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "interview_sessions_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "job_offers" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "offer_number" TEXT NOT NULL,
    "candidate_id" UUID NOT NULL,
    "job_title" TEXT NOT NULL,
    "department" TEXT NOT NULL,
    "employment_type" TEXT NOT NULL DEFAULT 'full_time',
    "salary" DECIMAL(15,2) NOT NULL,
    "currency" VARCHAR(3) NOT NULL,
    "joining_date" DATE NOT NULL,
    "expires_on" DATE NOT NULL,
    "terms" TEXT,
    "status" TEXT NOT NULL DEFAULT 'draft',
    "sent_at" TIMESTAMPTZ(3),
    "responded_at" TIMESTAMPTZ(3),
    "decline_reason" TEXT,
    "offer_token_hash" TEXT,
    "offer_token_expires_at" TIMESTAMPTZ(3),
    "appointment_token_hash" TEXT,
    "appointment_token_expires_at" TIMESTAMPTZ(3),
    "appointment_sent_at" TIMESTAMPTZ(3),
    "created_by" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "job_offers_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "appointment_documents" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "offer_id" UUID NOT NULL,
    "file_id" UUID NOT NULL,
    "document_type" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "appointment_documents_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "talent_pool_candidates" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "candidate_id" UUID,
    "first_name" TEXT NOT NULL,
    "last_name" TEXT NOT NULL,
    "email" CITEXT NOT NULL,
    "phone" TEXT,
    "current_title" TEXT,
    "experience_years" DECIMAL(4,1),
    "location" TEXT,
    "skills" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "tags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "notes" TEXT,
    "source" TEXT NOT NULL DEFAULT 'direct',
    "resume_file_id" UUID,
    "added_by" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "talent_pool_candidates_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateIndex
CREATE UNIQUE INDEX "job_requisitions_id_key" ON "job_requisitions"("id");

-- CreateIndex
CREATE INDEX "job_requisitions_tenant_id_status_created_at_idx" ON "job_requisitions"("tenant_id", "status", "created_at" DESC);

-- CreateIndex
CREATE INDEX "job_requisitions_tenant_id_requested_by_idx" ON "job_requisitions"("tenant_id", "requested_by");

-- CreateIndex
CREATE INDEX "job_requisitions_tenant_id_department_idx" ON "job_requisitions"("tenant_id", "department");

-- CreateIndex
CREATE UNIQUE INDEX "job_requisitions_tenant_id_requisition_number_key" ON "job_requisitions"("tenant_id", "requisition_number");

-- CreateIndex
CREATE UNIQUE INDEX "job_postings_id_key" ON "job_postings"("id");

-- CreateIndex
CREATE INDEX "job_postings_tenant_id_requisition_id_idx" ON "job_postings"("tenant_id", "requisition_id");

-- CreateIndex
CREATE INDEX "job_postings_tenant_id_status_created_at_idx" ON "job_postings"("tenant_id", "status", "created_at" DESC);

-- CreateIndex
CREATE INDEX "job_postings_tenant_id_department_idx" ON "job_postings"("tenant_id", "department");

-- CreateIndex
CREATE UNIQUE INDEX "job_postings_tenant_id_posting_number_key" ON "job_postings"("tenant_id", "posting_number");

-- CreateIndex
CREATE UNIQUE INDEX "candidates_id_key" ON "candidates"("id");

-- CreateIndex
CREATE INDEX "candidates_tenant_id_posting_id_stage_idx" ON "candidates"("tenant_id", "posting_id", "stage");

-- CreateIndex
CREATE INDEX "candidates_tenant_id_stage_created_at_idx" ON "candidates"("tenant_id", "stage", "created_at" DESC);

-- CreateIndex
CREATE INDEX "candidates_tenant_id_email_idx" ON "candidates"("tenant_id", "email");

-- CreateIndex
CREATE UNIQUE INDEX "candidates_tenant_id_employee_id_key" ON "candidates"("tenant_id", "employee_id");

-- CreateIndex
CREATE UNIQUE INDEX "candidates_live_posting_email_key" ON "candidates"("tenant_id", "posting_id", "email") WHERE (deleted_at IS NULL);

-- CreateIndex
CREATE UNIQUE INDEX "interviews_id_key" ON "interviews"("id");

-- CreateIndex
CREATE INDEX "interviews_tenant_id_candidate_id_scheduled_at_idx" ON "interviews"("tenant_id", "candidate_id", "scheduled_at");

-- CreateIndex
CREATE INDEX "interviews_tenant_id_status_scheduled_at_idx" ON "interviews"("tenant_id", "status", "scheduled_at");

-- CreateIndex
CREATE INDEX "interviews_interviewer_user_ids_idx" ON "interviews" USING GIN ("interviewer_user_ids");

-- CreateIndex
CREATE UNIQUE INDEX "interview_sessions_id_key" ON "interview_sessions"("id");

-- CreateIndex
CREATE INDEX "interview_sessions_tenant_id_candidate_id_scheduled_at_idx" ON "interview_sessions"("tenant_id", "candidate_id", "scheduled_at");

-- CreateIndex
CREATE INDEX "interview_sessions_tenant_id_interview_id_idx" ON "interview_sessions"("tenant_id", "interview_id");

-- CreateIndex
CREATE INDEX "interview_sessions_tenant_id_status_scheduled_at_idx" ON "interview_sessions"("tenant_id", "status", "scheduled_at");

-- CreateIndex
CREATE UNIQUE INDEX "job_offers_id_key" ON "job_offers"("id");

-- CreateIndex
CREATE UNIQUE INDEX "job_offers_offer_token_hash_key" ON "job_offers"("offer_token_hash");

-- CreateIndex
CREATE UNIQUE INDEX "job_offers_appointment_token_hash_key" ON "job_offers"("appointment_token_hash");

-- CreateIndex
CREATE INDEX "job_offers_tenant_id_candidate_id_idx" ON "job_offers"("tenant_id", "candidate_id");

-- CreateIndex
CREATE INDEX "job_offers_tenant_id_status_expires_on_idx" ON "job_offers"("tenant_id", "status", "expires_on");

-- CreateIndex
CREATE UNIQUE INDEX "job_offers_tenant_id_offer_number_key" ON "job_offers"("tenant_id", "offer_number");

-- CreateIndex
CREATE UNIQUE INDEX "job_offers_live_candidate_key" ON "job_offers"("tenant_id", "candidate_id") WHERE (deleted_at IS NULL AND (status = 'draft' OR status = 'sent' OR status = 'accepted'));

-- CreateIndex
CREATE UNIQUE INDEX "appointment_documents_id_key" ON "appointment_documents"("id");

-- CreateIndex
CREATE INDEX "appointment_documents_tenant_id_offer_id_idx" ON "appointment_documents"("tenant_id", "offer_id");

-- CreateIndex
CREATE UNIQUE INDEX "talent_pool_candidates_id_key" ON "talent_pool_candidates"("id");

-- CreateIndex
CREATE INDEX "talent_pool_candidates_tenant_id_candidate_id_idx" ON "talent_pool_candidates"("tenant_id", "candidate_id");

-- CreateIndex
CREATE INDEX "talent_pool_candidates_skills_idx" ON "talent_pool_candidates" USING GIN ("skills");

-- CreateIndex
CREATE INDEX "talent_pool_candidates_tags_idx" ON "talent_pool_candidates" USING GIN ("tags");

-- CreateIndex
CREATE UNIQUE INDEX "talent_pool_live_email_key" ON "talent_pool_candidates"("tenant_id", "email") WHERE (deleted_at IS NULL);

-- AddForeignKey
ALTER TABLE "job_postings" ADD CONSTRAINT "job_postings_tenant_id_requisition_id_fkey" FOREIGN KEY ("tenant_id", "requisition_id") REFERENCES "job_requisitions"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "candidates" ADD CONSTRAINT "candidates_tenant_id_posting_id_fkey" FOREIGN KEY ("tenant_id", "posting_id") REFERENCES "job_postings"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "candidates" ADD CONSTRAINT "candidates_tenant_id_employee_id_fkey" FOREIGN KEY ("tenant_id", "employee_id") REFERENCES "employees"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "interviews" ADD CONSTRAINT "interviews_tenant_id_candidate_id_fkey" FOREIGN KEY ("tenant_id", "candidate_id") REFERENCES "candidates"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "interview_sessions" ADD CONSTRAINT "interview_sessions_tenant_id_candidate_id_fkey" FOREIGN KEY ("tenant_id", "candidate_id") REFERENCES "candidates"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "interview_sessions" ADD CONSTRAINT "interview_sessions_tenant_id_interview_id_fkey" FOREIGN KEY ("tenant_id", "interview_id") REFERENCES "interviews"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "job_offers" ADD CONSTRAINT "job_offers_tenant_id_candidate_id_fkey" FOREIGN KEY ("tenant_id", "candidate_id") REFERENCES "candidates"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "appointment_documents" ADD CONSTRAINT "appointment_documents_tenant_id_offer_id_fkey" FOREIGN KEY ("tenant_id", "offer_id") REFERENCES "job_offers"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "appointment_documents" ADD CONSTRAINT "appointment_documents_tenant_id_file_id_fkey" FOREIGN KEY ("tenant_id", "file_id") REFERENCES "files"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "talent_pool_candidates" ADD CONSTRAINT "talent_pool_candidates_tenant_id_candidate_id_fkey" FOREIGN KEY ("tenant_id", "candidate_id") REFERENCES "candidates"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;
