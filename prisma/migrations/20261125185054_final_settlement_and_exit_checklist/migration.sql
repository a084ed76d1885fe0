-- Exit checklist completion (completed_by, override_reason, reference) and full and final settlements.
-- AlterTable
ALTER TABLE "employee_exits" ADD COLUMN     "completed_by" UUID,
ADD COLUMN     "override_reason" TEXT;

-- AlterTable
ALTER TABLE "exit_checklist_items" ADD COLUMN     "reference" TEXT;

-- AlterTable
ALTER TABLE "expense_claims" ADD COLUMN     "paid_settlement_id" UUID;

-- AlterTable
ALTER TABLE "loan_installments" ADD COLUMN     "paid_settlement_id" UUID;

-- CreateTable
CREATE TABLE "final_settlements" (
    "tenant_id" UUID NOT NULL DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "settlement_number" TEXT NOT NULL,
    "employee_id" UUID NOT NULL,
    "exit_id" UUID NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'draft',
    "separation" TEXT NOT NULL,
    "last_working_day" DATE NOT NULL,
    "notice_period_days" INTEGER NOT NULL,
    "recover_notice_shortfall" BOOLEAN NOT NULL,
    "salary_net" DECIMAL(14,2) NOT NULL,
    "leave_encashment" DECIMAL(14,2) NOT NULL,
    "gratuity" DECIMAL(14,2) NOT NULL,
    "reimbursements" DECIMAL(14,2) NOT NULL,
    "notice_recovery" DECIMAL(14,2) NOT NULL,
    "loan_recovery" DECIMAL(14,2) NOT NULL,
    "net_payable" DECIMAL(14,2) NOT NULL,
    "details" JSONB NOT NULL,
    "computed_at" TIMESTAMPTZ(3) NOT NULL,
    "created_by" UUID,
    "processed_by" UUID,
    "processed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "final_settlements_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateIndex
CREATE UNIQUE INDEX "final_settlements_id_key" ON "final_settlements"("id");

-- CreateIndex
CREATE INDEX "final_settlements_tenant_id_status_created_at_idx" ON "final_settlements"("tenant_id", "status", "created_at");

-- CreateIndex
CREATE INDEX "final_settlements_tenant_id_employee_id_idx" ON "final_settlements"("tenant_id", "employee_id");

-- CreateIndex
CREATE UNIQUE INDEX "final_settlements_tenant_id_exit_id_key" ON "final_settlements"("tenant_id", "exit_id");

-- CreateIndex
CREATE UNIQUE INDEX "final_settlements_tenant_id_settlement_number_key" ON "final_settlements"("tenant_id", "settlement_number");

-- AddForeignKey
ALTER TABLE "loan_installments" ADD CONSTRAINT "loan_installments_tenant_id_paid_settlement_id_fkey" FOREIGN KEY ("tenant_id", "paid_settlement_id") REFERENCES "final_settlements"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "expense_claims" ADD CONSTRAINT "expense_claims_tenant_id_paid_settlement_id_fkey" FOREIGN KEY ("tenant_id", "paid_settlement_id") REFERENCES "final_settlements"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "final_settlements" ADD CONSTRAINT "final_settlements_tenant_id_employee_id_fkey" FOREIGN KEY ("tenant_id", "employee_id") REFERENCES "employees"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "final_settlements" ADD CONSTRAINT "final_settlements_tenant_id_exit_id_fkey" FOREIGN KEY ("tenant_id", "exit_id") REFERENCES "employee_exits"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;
