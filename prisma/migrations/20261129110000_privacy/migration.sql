-- Privacy (prisma/schema/privacy.prisma): requests of persons about their data, legal holds, retained
-- records awaiting their purge, the breach register, versioned privacy notices and their
-- acknowledgements, candidates' privacy links; candidates' consents (recruitment).
-- CreateTable
CREATE TABLE "privacy_requests" (
    "tenant_id" UUID NOT NULL DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "request_number" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'received',
    "employee_id" UUID,
    "candidate_id" UUID,
    "subject_name" TEXT NOT NULL,
    "requested_by" UUID,
    "channel" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "corrections" JSONB,
    "nominee" JSONB,
    "jurisdiction" TEXT NOT NULL,
    "received_on" DATE NOT NULL,
    "due_at" DATE NOT NULL,
    "clock" JSONB NOT NULL,
    "decided_by" UUID,
    "decided_at" TIMESTAMPTZ(3),
    "resolution" TEXT,
    "outcome" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "privacy_requests_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "legal_holds" (
    "tenant_id" UUID NOT NULL DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "employee_id" UUID,
    "candidate_id" UUID,
    "reason" TEXT NOT NULL,
    "placed_by" UUID NOT NULL,
    "placed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "released_by" UUID,
    "released_at" TIMESTAMPTZ(3),

    CONSTRAINT "legal_holds_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "retained_records" (
    "tenant_id" UUID NOT NULL DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "employee_id" UUID,
    "candidate_id" UUID,
    "record_class" TEXT NOT NULL,
    "record_id" UUID NOT NULL,
    "rule" TEXT NOT NULL,
    "retain_until" DATE NOT NULL,
    "request_id" UUID,
    "purged_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "retained_records_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "privacy_breaches" (
    "tenant_id" UUID NOT NULL DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "breach_number" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "nature" TEXT NOT NULL,
    "data_categories" TEXT[],
    "affected_employee_ids" UUID[],
    "affected_count" INTEGER NOT NULL,
    "occurred_at" TIMESTAMPTZ(3),
    "became_aware_at" TIMESTAMPTZ(3) NOT NULL,
    "likely_impact" TEXT NOT NULL,
    "measures" TEXT,
    "jurisdiction" TEXT NOT NULL,
    "clock" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "persons_notified_at" TIMESTAMPTZ(3),
    "persons_notified_count" INTEGER NOT NULL DEFAULT 0,
    "board_intimated_at" TIMESTAMPTZ(3),
    "board_reference" TEXT,
    "report_submitted_at" TIMESTAMPTZ(3),
    "closed_at" TIMESTAMPTZ(3),
    "recorded_by" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "privacy_breaches_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "privacy_notices" (
    "tenant_id" UUID NOT NULL DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "version" INTEGER NOT NULL,
    "text" TEXT NOT NULL,
    "purposes" JSONB NOT NULL,
    "published_by" UUID,
    "published_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "privacy_notices_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "privacy_notice_acknowledgements" (
    "tenant_id" UUID NOT NULL DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "notice_id" UUID NOT NULL,
    "user_id" UUID,
    "candidate_id" UUID,
    "context" TEXT NOT NULL,
    "acknowledged_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "privacy_notice_acknowledgements_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "privacy_links" (
    "tenant_id" UUID NOT NULL DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "candidate_id" UUID NOT NULL,
    "token_hash" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "privacy_links_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "candidate_consents" (
    "tenant_id" UUID NOT NULL DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "candidate_id" UUID NOT NULL,
    "purpose" TEXT NOT NULL,
    "notice_version" INTEGER,
    "given_at" TIMESTAMPTZ(3) NOT NULL,
    "withdrawn_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "candidate_consents_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateIndex
CREATE INDEX "privacy_requests_tenant_id_status_due_at_idx" ON "privacy_requests"("tenant_id", "status", "due_at");

-- CreateIndex
CREATE INDEX "privacy_requests_tenant_id_employee_id_idx" ON "privacy_requests"("tenant_id", "employee_id");

-- CreateIndex
CREATE INDEX "privacy_requests_tenant_id_candidate_id_idx" ON "privacy_requests"("tenant_id", "candidate_id");

-- CreateIndex
CREATE UNIQUE INDEX "privacy_requests_tenant_id_request_number_key" ON "privacy_requests"("tenant_id", "request_number");

-- CreateIndex
CREATE INDEX "legal_holds_tenant_id_employee_id_idx" ON "legal_holds"("tenant_id", "employee_id");

-- CreateIndex
CREATE INDEX "legal_holds_tenant_id_candidate_id_idx" ON "legal_holds"("tenant_id", "candidate_id");

-- CreateIndex
CREATE INDEX "retained_records_tenant_id_retain_until_idx" ON "retained_records"("tenant_id", "retain_until");

-- CreateIndex
CREATE INDEX "retained_records_tenant_id_employee_id_idx" ON "retained_records"("tenant_id", "employee_id");

-- CreateIndex
CREATE UNIQUE INDEX "retained_records_tenant_id_record_class_record_id_key" ON "retained_records"("tenant_id", "record_class", "record_id");

-- CreateIndex
CREATE INDEX "privacy_breaches_tenant_id_became_aware_at_idx" ON "privacy_breaches"("tenant_id", "became_aware_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "privacy_breaches_tenant_id_breach_number_key" ON "privacy_breaches"("tenant_id", "breach_number");

-- CreateIndex
CREATE UNIQUE INDEX "privacy_notices_tenant_id_version_key" ON "privacy_notices"("tenant_id", "version");

-- CreateIndex
CREATE INDEX "privacy_notice_acknowledgements_tenant_id_user_id_idx" ON "privacy_notice_acknowledgements"("tenant_id", "user_id");

-- CreateIndex
CREATE INDEX "privacy_notice_acknowledgements_tenant_id_candidate_id_idx" ON "privacy_notice_acknowledgements"("tenant_id", "candidate_id");

-- CreateIndex
CREATE INDEX "privacy_links_token_hash_idx" ON "privacy_links"("token_hash");

-- CreateIndex
CREATE INDEX "privacy_links_tenant_id_candidate_id_idx" ON "privacy_links"("tenant_id", "candidate_id");

-- CreateIndex
CREATE UNIQUE INDEX "privacy_links_tenant_id_token_hash_key" ON "privacy_links"("tenant_id", "token_hash");

-- CreateIndex
CREATE UNIQUE INDEX "candidate_consents_tenant_id_candidate_id_purpose_key" ON "candidate_consents"("tenant_id", "candidate_id", "purpose");

-- AddForeignKey
ALTER TABLE "privacy_requests" ADD CONSTRAINT "privacy_requests_tenant_id_employee_id_fkey" FOREIGN KEY ("tenant_id", "employee_id") REFERENCES "employees"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "privacy_requests" ADD CONSTRAINT "privacy_requests_tenant_id_candidate_id_fkey" FOREIGN KEY ("tenant_id", "candidate_id") REFERENCES "candidates"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "legal_holds" ADD CONSTRAINT "legal_holds_tenant_id_employee_id_fkey" FOREIGN KEY ("tenant_id", "employee_id") REFERENCES "employees"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "legal_holds" ADD CONSTRAINT "legal_holds_tenant_id_candidate_id_fkey" FOREIGN KEY ("tenant_id", "candidate_id") REFERENCES "candidates"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "retained_records" ADD CONSTRAINT "retained_records_tenant_id_employee_id_fkey" FOREIGN KEY ("tenant_id", "employee_id") REFERENCES "employees"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "retained_records" ADD CONSTRAINT "retained_records_tenant_id_candidate_id_fkey" FOREIGN KEY ("tenant_id", "candidate_id") REFERENCES "candidates"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "privacy_notice_acknowledgements" ADD CONSTRAINT "privacy_notice_acknowledgements_tenant_id_notice_id_fkey" FOREIGN KEY ("tenant_id", "notice_id") REFERENCES "privacy_notices"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "privacy_links" ADD CONSTRAINT "privacy_links_tenant_id_candidate_id_fkey" FOREIGN KEY ("tenant_id", "candidate_id") REFERENCES "candidates"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "candidate_consents" ADD CONSTRAINT "candidate_consents_tenant_id_candidate_id_fkey" FOREIGN KEY ("tenant_id", "candidate_id") REFERENCES "candidates"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;
