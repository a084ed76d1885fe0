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
CREATE TABLE "salary_components" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "name" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "description" TEXT,
    "type" TEXT NOT NULL,
    "calculation" TEXT NOT NULL,
    "amount" DECIMAL(14,2),
    "formula" TEXT,
    "pf_wage" BOOLEAN NOT NULL DEFAULT false,
    "esi_applicable" BOOLEAN NOT NULL DEFAULT true,
    "depends_on_payment_days" BOOLEAN NOT NULL DEFAULT true,
    "position" INTEGER NOT NULL DEFAULT 0,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "salary_components_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "employee_salary_setups" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "employee_id" UUID NOT NULL,
    "effective_from" DATE NOT NULL,
    "monthly_ctc" DECIMAL(14,2),
    "all_components" BOOLEAN NOT NULL DEFAULT false,
    "pf_enabled" BOOLEAN NOT NULL DEFAULT true,
    "eps_enabled" BOOLEAN NOT NULL DEFAULT true,
    "esi_enabled" BOOLEAN NOT NULL DEFAULT true,
    "pt_enabled" BOOLEAN NOT NULL DEFAULT true,
    "pt_state" TEXT,
    "disabled" BOOLEAN NOT NULL DEFAULT false,
    "notes" TEXT,
    "created_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "employee_salary_setups_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "employee_salary_components" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "setup_id" UUID NOT NULL,
    "component_id" UUID NOT NULL,
    "amount" DECIMAL(14,2),

    CONSTRAINT "employee_salary_components_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "payroll_runs" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "period_year" SMALLINT NOT NULL,
    "period_month" SMALLINT NOT NULL,
    "period_start" DATE NOT NULL,
    "period_end" DATE NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'draft',
    "notes" TEXT,
    "employee_ids" UUID[] DEFAULT ARRAY[]::UUID[],
    "employee_count" INTEGER NOT NULL DEFAULT 0,
    "total_gross" DECIMAL(16,2) NOT NULL DEFAULT 0,
    "total_deductions" DECIMAL(16,2) NOT NULL DEFAULT 0,
    "total_net" DECIMAL(16,2) NOT NULL DEFAULT 0,
    "totals" JSONB,
    "calculated_at" TIMESTAMPTZ(3),
    "processed_at" TIMESTAMPTZ(3),
    "processed_by" UUID,
    "created_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "payroll_runs_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "payroll_slips" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "run_id" UUID NOT NULL,
    "employee_id" UUID NOT NULL,
    "slip_number" TEXT,
    "employee_code" TEXT NOT NULL,
    "employee_name" TEXT NOT NULL,
    "department" TEXT NOT NULL,
    "designation" TEXT NOT NULL,
    "pay_start" DATE NOT NULL,
    "pay_end" DATE NOT NULL,
    "days_in_period" INTEGER NOT NULL,
    "payable_days" DECIMAL(6,1) NOT NULL,
    "lop_days" DECIMAL(6,1) NOT NULL,
    "gross" DECIMAL(14,2) NOT NULL,
    "total_deductions" DECIMAL(14,2) NOT NULL,
    "net_pay" DECIMAL(14,2) NOT NULL,
    "pf_employee" DECIMAL(14,2) NOT NULL,
    "esi_employee" DECIMAL(14,2) NOT NULL,
    "professional_tax" DECIMAL(14,2) NOT NULL,
    "loan_deduction" DECIMAL(14,2) NOT NULL,
    "reimbursements" DECIMAL(14,2) NOT NULL,
    "leave_encashment" DECIMAL(14,2) NOT NULL,
    "employer_cost" DECIMAL(14,2) NOT NULL,
    "details" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "payroll_slips_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "loan_advances" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "loan_number" TEXT NOT NULL,
    "employee_id" UUID NOT NULL,
    "loan_type_id" UUID NOT NULL,
    "amount" DECIMAL(14,2) NOT NULL,
    "installments" INTEGER NOT NULL,
    "interest_rate" DECIMAL(7,4) NOT NULL,
    "total_repayable" DECIMAL(14,2) NOT NULL,
    "installment_amount" DECIMAL(14,2) NOT NULL,
    "start_month" DATE NOT NULL,
    "reason" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "repaid_amount" DECIMAL(14,2) NOT NULL DEFAULT 0,
    "requested_by" UUID,
    "decided_by" UUID,
    "decided_at" TIMESTAMPTZ(3),
    "decision_comment" TEXT,
    "cancelled_by" UUID,
    "cancelled_at" TIMESTAMPTZ(3),
    "closed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "loan_advances_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "loan_installments" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "loan_id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "due_month" DATE NOT NULL,
    "amount" DECIMAL(14,2) NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "deferrals" INTEGER NOT NULL DEFAULT 0,
    "paid_run_id" UUID,
    "paid_at" TIMESTAMPTZ(3),

    CONSTRAINT "loan_installments_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "expense_claims" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "claim_number" TEXT NOT NULL,
    "employee_id" UUID NOT NULL,
    "category_id" UUID NOT NULL,
    "amount" DECIMAL(14,2) NOT NULL,
    "expense_date" DATE NOT NULL,
    "description" TEXT NOT NULL,
    "receipt_file_id" UUID,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "requested_by" UUID,
    "decided_by" UUID,
    "decided_at" TIMESTAMPTZ(3),
    "decision_comment" TEXT,
    "cancelled_by" UUID,
    "cancelled_at" TIMESTAMPTZ(3),
    "paid_run_id" UUID,
    "paid_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "expense_claims_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateIndex
CREATE UNIQUE INDEX "salary_components_id_key" ON "salary_components"("id");

-- CreateIndex
CREATE UNIQUE INDEX "salary_components_tenant_id_code_key" ON "salary_components"("tenant_id", "code");

-- CreateIndex
CREATE UNIQUE INDEX "salary_components_tenant_id_name_key" ON "salary_components"("tenant_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "employee_salary_setups_id_key" ON "employee_salary_setups"("id");

-- CreateIndex
CREATE UNIQUE INDEX "employee_salary_setups_tenant_id_employee_id_effective_from_key" ON "employee_salary_setups"("tenant_id", "employee_id", "effective_from");

-- CreateIndex
CREATE UNIQUE INDEX "employee_salary_components_id_key" ON "employee_salary_components"("id");

-- CreateIndex
CREATE INDEX "employee_salary_components_tenant_id_component_id_idx" ON "employee_salary_components"("tenant_id", "component_id");

-- CreateIndex
CREATE UNIQUE INDEX "employee_salary_components_tenant_id_setup_id_component_id_key" ON "employee_salary_components"("tenant_id", "setup_id", "component_id");

-- CreateIndex
CREATE UNIQUE INDEX "payroll_runs_id_key" ON "payroll_runs"("id");

-- CreateIndex
CREATE UNIQUE INDEX "payroll_runs_tenant_id_period_year_period_month_key" ON "payroll_runs"("tenant_id", "period_year", "period_month");

-- CreateIndex
CREATE UNIQUE INDEX "payroll_slips_id_key" ON "payroll_slips"("id");

-- CreateIndex
CREATE INDEX "payroll_slips_tenant_id_employee_id_idx" ON "payroll_slips"("tenant_id", "employee_id");

-- CreateIndex
CREATE UNIQUE INDEX "payroll_slips_tenant_id_run_id_employee_id_key" ON "payroll_slips"("tenant_id", "run_id", "employee_id");

-- CreateIndex
CREATE UNIQUE INDEX "payroll_slips_tenant_id_slip_number_key" ON "payroll_slips"("tenant_id", "slip_number");

-- CreateIndex
CREATE UNIQUE INDEX "loan_advances_id_key" ON "loan_advances"("id");

-- CreateIndex
CREATE INDEX "loan_advances_tenant_id_employee_id_status_idx" ON "loan_advances"("tenant_id", "employee_id", "status");

-- CreateIndex
CREATE INDEX "loan_advances_tenant_id_loan_type_id_idx" ON "loan_advances"("tenant_id", "loan_type_id");

-- CreateIndex
CREATE UNIQUE INDEX "loan_advances_tenant_id_loan_number_key" ON "loan_advances"("tenant_id", "loan_number");

-- CreateIndex
CREATE UNIQUE INDEX "loan_installments_id_key" ON "loan_installments"("id");

-- CreateIndex
CREATE INDEX "loan_installments_tenant_id_status_due_month_idx" ON "loan_installments"("tenant_id", "status", "due_month");

-- CreateIndex
CREATE INDEX "loan_installments_tenant_id_paid_run_id_idx" ON "loan_installments"("tenant_id", "paid_run_id");

-- CreateIndex
CREATE UNIQUE INDEX "loan_installments_tenant_id_loan_id_seq_key" ON "loan_installments"("tenant_id", "loan_id", "seq");

-- CreateIndex
CREATE UNIQUE INDEX "expense_claims_id_key" ON "expense_claims"("id");

-- CreateIndex
CREATE INDEX "expense_claims_tenant_id_employee_id_status_idx" ON "expense_claims"("tenant_id", "employee_id", "status");

-- CreateIndex
CREATE INDEX "expense_claims_tenant_id_status_idx" ON "expense_claims"("tenant_id", "status");

-- CreateIndex
CREATE INDEX "expense_claims_tenant_id_category_id_idx" ON "expense_claims"("tenant_id", "category_id");

-- CreateIndex
CREATE INDEX "expense_claims_tenant_id_paid_run_id_idx" ON "expense_claims"("tenant_id", "paid_run_id");

-- CreateIndex
CREATE UNIQUE INDEX "expense_claims_tenant_id_claim_number_key" ON "expense_claims"("tenant_id", "claim_number");

-- AddForeignKey
ALTER TABLE "employee_salary_setups" ADD CONSTRAINT "employee_salary_setups_tenant_id_employee_id_fkey" FOREIGN KEY ("tenant_id", "employee_id") REFERENCES "employees"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "employee_salary_components" ADD CONSTRAINT "employee_salary_components_tenant_id_setup_id_fkey" FOREIGN KEY ("tenant_id", "setup_id") REFERENCES "employee_salary_setups"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "employee_salary_components" ADD CONSTRAINT "employee_salary_components_tenant_id_component_id_fkey" FOREIGN KEY ("tenant_id", "component_id") REFERENCES "salary_components"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "payroll_slips" ADD CONSTRAINT "payroll_slips_tenant_id_run_id_fkey" FOREIGN KEY ("tenant_id", "run_id") REFERENCES "payroll_runs"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "payroll_slips" ADD CONSTRAINT "payroll_slips_tenant_id_employee_id_fkey" FOREIGN KEY ("tenant_id", "employee_id") REFERENCES "employees"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "loan_advances" ADD CONSTRAINT "loan_advances_tenant_id_employee_id_fkey" FOREIGN KEY ("tenant_id", "employee_id") REFERENCES "employees"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "loan_advances" ADD CONSTRAINT "loan_advances_tenant_id_loan_type_id_fkey" FOREIGN KEY ("tenant_id", "loan_type_id") REFERENCES "loan_types"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "loan_installments" ADD CONSTRAINT "loan_installments_tenant_id_loan_id_fkey" FOREIGN KEY ("tenant_id", "loan_id") REFERENCES "loan_advances"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "loan_installments" ADD CONSTRAINT "loan_installments_tenant_id_paid_run_id_fkey" FOREIGN KEY ("tenant_id", "paid_run_id") REFERENCES "payroll_runs"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "expense_claims" ADD CONSTRAINT "expense_claims_tenant_id_employee_id_fkey" FOREIGN KEY ("tenant_id", "employee_id") REFERENCES "employees"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "expense_claims" ADD CONSTRAINT "expense_claims_tenant_id_category_id_fkey" FOREIGN KEY ("tenant_id", "category_id") REFERENCES "expense_categories"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "expense_claims" ADD CONSTRAINT "expense_claims_tenant_id_paid_run_id_fkey" FOREIGN KEY ("tenant_id", "paid_run_id") REFERENCES "payroll_runs"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;
