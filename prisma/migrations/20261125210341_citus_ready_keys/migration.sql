-- Citus-ready keys (README "Scaling", checked by test/platform/citus-schema.test.ts): every unique
-- key of a tenant-owned table leads with tenant_id. The unique indexes on `id` alone go (rows are
-- found by the primary key (tenant_id, id)); the link tokens' hashes become unique per tenant, with
-- a plain index on the hash for the lookup that finds the tenant; the department count rows are
-- keyed (tenant_id, id).
-- DropIndex
DROP INDEX "appointment_documents_id_key";

-- DropIndex
DROP INDEX "asset_assignments_id_key";

-- DropIndex
DROP INDEX "asset_categories_id_key";

-- DropIndex
DROP INDEX "asset_damage_reports_id_key";

-- DropIndex
DROP INDEX "asset_return_requests_id_key";

-- DropIndex
DROP INDEX "assets_id_key";

-- DropIndex
DROP INDEX "attendance_records_id_key";

-- DropIndex
DROP INDEX "attendance_regularizations_id_key";

-- DropIndex
DROP INDEX "attendance_settings_id_key";

-- DropIndex
DROP INDEX "audit_logs_id_key";

-- DropIndex
DROP INDEX "branches_id_key";

-- DropIndex
DROP INDEX "candidates_id_key";

-- DropIndex
DROP INDEX "employee_documents_id_key";

-- DropIndex
DROP INDEX "employee_exits_id_key";

-- DropIndex
DROP INDEX "employee_salary_components_id_key";

-- DropIndex
DROP INDEX "employee_salary_setups_id_key";

-- DropIndex
DROP INDEX "employees_id_key";

-- DropIndex
DROP INDEX "exit_checklist_items_id_key";

-- DropIndex
DROP INDEX "expense_categories_id_key";

-- DropIndex
DROP INDEX "expense_claims_id_key";

-- DropIndex
DROP INDEX "files_id_key";

-- DropIndex
DROP INDEX "final_settlements_id_key";

-- DropIndex
DROP INDEX "helpdesk_messages_id_key";

-- DropIndex
DROP INDEX "helpdesk_tickets_id_key";

-- DropIndex
DROP INDEX "holidays_id_key";

-- DropIndex
DROP INDEX "interview_sessions_id_key";

-- DropIndex
DROP INDEX "interviews_id_key";

-- DropIndex
DROP INDEX "invitations_id_key";

-- DropIndex
DROP INDEX "invitations_token_hash_key";

-- DropIndex
DROP INDEX "job_offers_appointment_token_hash_key";

-- DropIndex
DROP INDEX "job_offers_id_key";

-- DropIndex
DROP INDEX "job_offers_offer_token_hash_key";

-- DropIndex
DROP INDEX "job_postings_id_key";

-- DropIndex
DROP INDEX "job_requisitions_id_key";

-- DropIndex
DROP INDEX "leave_allocations_id_key";

-- DropIndex
DROP INDEX "leave_encashments_id_key";

-- DropIndex
DROP INDEX "leave_ledger_entries_id_key";

-- DropIndex
DROP INDEX "leave_periods_id_key";

-- DropIndex
DROP INDEX "leave_policies_id_key";

-- DropIndex
DROP INDEX "leave_policy_employees_id_key";

-- DropIndex
DROP INDEX "leave_policy_items_id_key";

-- DropIndex
DROP INDEX "leave_requests_id_key";

-- DropIndex
DROP INDEX "leave_types_id_key";

-- DropIndex
DROP INDEX "loan_advances_id_key";

-- DropIndex
DROP INDEX "loan_installments_id_key";

-- DropIndex
DROP INDEX "loan_types_id_key";

-- DropIndex
DROP INDEX "memberships_id_key";

-- DropIndex
DROP INDEX "notifications_id_key";

-- DropIndex
DROP INDEX "payroll_runs_id_key";

-- DropIndex
DROP INDEX "payroll_slips_id_key";

-- DropIndex
DROP INDEX "salary_components_id_key";

-- DropIndex
DROP INDEX "talent_pool_candidates_id_key";

-- DropIndex
DROP INDEX "tenant_settings_id_key";

-- DropIndex
DROP INDEX "wfh_requests_id_key";

-- DropIndex
DROP INDEX "work_locations_id_key";

-- DropIndex
DROP INDEX "working_on_holiday_requests_id_key";

-- AlterTable
ALTER TABLE "employee_department_counts" DROP CONSTRAINT "employee_department_counts_pkey",
ADD CONSTRAINT "employee_department_counts_pkey" PRIMARY KEY ("tenant_id", "id");

-- CreateIndex
CREATE INDEX "invitations_token_hash_idx" ON "invitations"("token_hash");

-- CreateIndex
CREATE UNIQUE INDEX "invitations_tenant_id_token_hash_key" ON "invitations"("tenant_id", "token_hash");

-- CreateIndex
CREATE INDEX "job_offers_offer_token_hash_idx" ON "job_offers"("offer_token_hash");

-- CreateIndex
CREATE INDEX "job_offers_appointment_token_hash_idx" ON "job_offers"("appointment_token_hash");

-- CreateIndex
CREATE UNIQUE INDEX "job_offers_tenant_id_offer_token_hash_key" ON "job_offers"("tenant_id", "offer_token_hash");

-- CreateIndex
CREATE UNIQUE INDEX "job_offers_tenant_id_appointment_token_hash_key" ON "job_offers"("tenant_id", "appointment_token_hash");

-- Written by hand: the count row is updated through its key (tenant_id, id).
CREATE OR REPLACE FUNCTION "employee_department_counts_add"(t uuid, dep text, n int) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  target bigint;
BEGIN
  SELECT c."id" INTO target FROM "employee_department_counts" c
   WHERE c."tenant_id" = t AND c."department" = dep
   ORDER BY c."id" LIMIT 1 FOR UPDATE SKIP LOCKED;
  IF FOUND THEN
    UPDATE "employee_department_counts" SET "live_count" = "live_count" + n WHERE "tenant_id" = t AND "id" = target;
  ELSE
    INSERT INTO "employee_department_counts" ("tenant_id", "department", "live_count") VALUES (t, dep, n);
  END IF;
END
$$;
