-- tenant_id of every tenant-owned table defaults to the session's hrms.tenant_id, which is never set:
-- an insert that does not name its tenant fails (NOT NULL). The scoped client always names it; the
-- default only lets Prisma's create types leave tenant_id out (the tenancy extension injects it).
-- AlterTable
ALTER TABLE "appointment_documents" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "asset_assignments" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "asset_categories" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "asset_damage_reports" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "asset_return_requests" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "assets" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "attendance_records" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "attendance_regularizations" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "attendance_settings" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "audit_logs" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "branches" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "candidates" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "employee_department_counts" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "employee_documents" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "employee_exits" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "employee_salary_components" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "employee_salary_setups" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "employees" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "exit_checklist_items" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "expense_categories" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "expense_claims" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "files" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "helpdesk_messages" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "helpdesk_tickets" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "holidays" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "interview_sessions" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "interviews" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "invitations" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "job_offers" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "job_postings" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "job_requisitions" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "leave_allocations" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "leave_encashments" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "leave_ledger_entries" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "leave_periods" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "leave_policies" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "leave_policy_employees" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "leave_policy_items" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "leave_requests" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "leave_types" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "loan_advances" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "loan_installments" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "loan_types" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "memberships" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "notifications" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "number_sequences" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "payroll_runs" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "payroll_slips" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "salary_components" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "talent_pool_candidates" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "tenant_settings" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "wfh_requests" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "work_locations" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;

-- AlterTable
ALTER TABLE "working_on_holiday_requests" ALTER COLUMN "tenant_id" SET DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid;
