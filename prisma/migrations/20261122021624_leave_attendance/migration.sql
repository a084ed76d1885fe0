-- CreateTable
CREATE TABLE "attendance_settings" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "use_company_weekly_offs" BOOLEAN NOT NULL DEFAULT true,
    "weekly_offs" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
    "shift_start" TEXT NOT NULL DEFAULT '09:00',
    "shift_end" TEXT NOT NULL DEFAULT '18:00',
    "grace_minutes" INTEGER NOT NULL DEFAULT 15,
    "half_day_threshold_hours" DECIMAL(4,2) NOT NULL DEFAULT 4,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "attendance_settings_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "attendance_records" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "employee_id" UUID NOT NULL,
    "date" DATE NOT NULL,
    "check_in" TIMESTAMPTZ(3),
    "check_out" TIMESTAMPTZ(3),
    "worked_hours" DECIMAL(5,2),
    "status" TEXT NOT NULL,
    "late" BOOLEAN NOT NULL DEFAULT false,
    "early_exit" BOOLEAN NOT NULL DEFAULT false,
    "source" TEXT NOT NULL DEFAULT 'self',
    "notes" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "attendance_records_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "attendance_regularizations" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "employee_id" UUID NOT NULL,
    "date" DATE NOT NULL,
    "check_in" TIMESTAMPTZ(3) NOT NULL,
    "check_out" TIMESTAMPTZ(3),
    "reason" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "previous" JSONB,
    "requested_by" UUID,
    "decided_by" UUID,
    "decided_at" TIMESTAMPTZ(3),
    "decision_comment" TEXT,
    "cancelled_by" UUID,
    "cancelled_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "attendance_regularizations_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "leave_types" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "name" TEXT NOT NULL,
    "code" CITEXT NOT NULL,
    "description" TEXT,
    "is_paid" BOOLEAN NOT NULL DEFAULT true,
    "allow_half_day" BOOLEAN NOT NULL DEFAULT true,
    "max_consecutive_days" INTEGER,
    "min_notice_days" INTEGER NOT NULL DEFAULT 0,
    "attachment_required_above_days" INTEGER,
    "allow_negative_balance" BOOLEAN NOT NULL DEFAULT false,
    "negative_balance_limit" DECIMAL(6,1) NOT NULL DEFAULT 0,
    "carry_forward" BOOLEAN NOT NULL DEFAULT false,
    "carry_forward_max_days" DECIMAL(6,1),
    "carry_forward_expiry_days" INTEGER,
    "encashable" BOOLEAN NOT NULL DEFAULT false,
    "encashment_max_days" DECIMAL(6,1),
    "encashment_min_balance" DECIMAL(6,1),
    "is_compensatory" BOOLEAN NOT NULL DEFAULT false,
    "comp_off_validity_days" INTEGER,
    "applicable_genders" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "applicable_employment_types" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "sandwich_rule" BOOLEAN NOT NULL DEFAULT false,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "leave_types_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "leave_periods" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "name" TEXT NOT NULL,
    "start_date" DATE NOT NULL,
    "end_date" DATE NOT NULL,
    "is_current" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "leave_periods_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "leave_policies" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "name" TEXT NOT NULL,
    "description" TEXT,
    "assignment" TEXT NOT NULL DEFAULT 'default',
    "departments" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "designations" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "leave_policies_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "leave_policy_items" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "policy_id" UUID NOT NULL,
    "leave_type_id" UUID NOT NULL,
    "annual_quota" DECIMAL(6,1) NOT NULL,
    "accrual" TEXT NOT NULL DEFAULT 'upfront',
    "accrual_day" TEXT NOT NULL DEFAULT 'first_day',

    CONSTRAINT "leave_policy_items_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "leave_policy_employees" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "policy_id" UUID NOT NULL,
    "employee_id" UUID NOT NULL,

    CONSTRAINT "leave_policy_employees_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "leave_allocations" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "employee_id" UUID NOT NULL,
    "leave_type_id" UUID NOT NULL,
    "period_id" UUID NOT NULL,
    "policy_id" UUID,
    "days" DECIMAL(6,1) NOT NULL,
    "accrual" TEXT NOT NULL DEFAULT 'upfront',
    "accrual_day" TEXT NOT NULL DEFAULT 'first_day',
    "effective_from" DATE NOT NULL,
    "carried_forward" DECIMAL(6,1) NOT NULL DEFAULT 0,
    "carry_forward_expires_on" DATE,
    "notes" TEXT,
    "created_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "leave_allocations_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "leave_ledger_entries" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "employee_id" UUID NOT NULL,
    "leave_type_id" UUID NOT NULL,
    "period_id" UUID NOT NULL,
    "entry_type" TEXT NOT NULL,
    "days" DECIMAL(6,1) NOT NULL,
    "effective_date" DATE NOT NULL,
    "expires_on" DATE,
    "reference_type" TEXT,
    "reference_id" UUID,
    "reason" TEXT,
    "dedupe_key" TEXT,
    "created_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "leave_ledger_entries_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "leave_requests" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "employee_id" UUID NOT NULL,
    "leave_type_id" UUID NOT NULL,
    "period_id" UUID NOT NULL,
    "from_date" DATE NOT NULL,
    "to_date" DATE NOT NULL,
    "half_day_start" BOOLEAN NOT NULL DEFAULT false,
    "half_day_end" BOOLEAN NOT NULL DEFAULT false,
    "days" DECIMAL(6,1) NOT NULL,
    "reason" TEXT,
    "attachment_file_id" UUID,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "requested_by" UUID,
    "decided_by" UUID,
    "decided_at" TIMESTAMPTZ(3),
    "decision_comment" TEXT,
    "cancelled_by" UUID,
    "cancelled_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "leave_requests_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "leave_encashments" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "employee_id" UUID NOT NULL,
    "leave_type_id" UUID NOT NULL,
    "period_id" UUID NOT NULL,
    "days" DECIMAL(6,1) NOT NULL,
    "amount" DECIMAL(10,2),
    "reason" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "requested_by" UUID,
    "decided_by" UUID,
    "decided_at" TIMESTAMPTZ(3),
    "decision_comment" TEXT,
    "cancelled_by" UUID,
    "cancelled_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "leave_encashments_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "holidays" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "date" DATE NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "is_optional" BOOLEAN NOT NULL DEFAULT false,
    "branch_id" UUID,
    "work_location_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "holidays_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "wfh_requests" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "employee_id" UUID NOT NULL,
    "from_date" DATE NOT NULL,
    "to_date" DATE NOT NULL,
    "days" DECIMAL(6,1) NOT NULL,
    "reason" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "requested_by" UUID,
    "decided_by" UUID,
    "decided_at" TIMESTAMPTZ(3),
    "decision_comment" TEXT,
    "cancelled_by" UUID,
    "cancelled_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "wfh_requests_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "working_on_holiday_requests" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "employee_id" UUID NOT NULL,
    "date" DATE NOT NULL,
    "half_day" BOOLEAN NOT NULL DEFAULT false,
    "reason" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "leave_type_id" UUID,
    "comp_off_days" DECIMAL(6,1),
    "comp_off_expires_on" DATE,
    "requested_by" UUID,
    "decided_by" UUID,
    "decided_at" TIMESTAMPTZ(3),
    "decision_comment" TEXT,
    "cancelled_by" UUID,
    "cancelled_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "working_on_holiday_requests_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateIndex
CREATE UNIQUE INDEX "attendance_settings_id_key" ON "attendance_settings"("id");

-- CreateIndex
CREATE UNIQUE INDEX "attendance_settings_tenant_id_key" ON "attendance_settings"("tenant_id");

-- CreateIndex
CREATE UNIQUE INDEX "attendance_records_id_key" ON "attendance_records"("id");

-- CreateIndex
CREATE UNIQUE INDEX "attendance_records_tenant_id_employee_id_date_key" ON "attendance_records"("tenant_id", "employee_id", "date");

-- CreateIndex
CREATE UNIQUE INDEX "attendance_regularizations_id_key" ON "attendance_regularizations"("id");

-- CreateIndex
CREATE INDEX "attendance_regularizations_tenant_id_employee_id_date_idx" ON "attendance_regularizations"("tenant_id", "employee_id", "date");

-- CreateIndex
CREATE UNIQUE INDEX "leave_types_id_key" ON "leave_types"("id");

-- CreateIndex
CREATE UNIQUE INDEX "leave_types_tenant_id_code_key" ON "leave_types"("tenant_id", "code");

-- CreateIndex
CREATE UNIQUE INDEX "leave_periods_id_key" ON "leave_periods"("id");

-- CreateIndex
CREATE INDEX "leave_periods_tenant_id_start_date_idx" ON "leave_periods"("tenant_id", "start_date");

-- CreateIndex
CREATE UNIQUE INDEX "leave_policies_id_key" ON "leave_policies"("id");

-- CreateIndex
CREATE UNIQUE INDEX "leave_policy_items_id_key" ON "leave_policy_items"("id");

-- CreateIndex
CREATE UNIQUE INDEX "leave_policy_items_tenant_id_policy_id_leave_type_id_key" ON "leave_policy_items"("tenant_id", "policy_id", "leave_type_id");

-- CreateIndex
CREATE UNIQUE INDEX "leave_policy_employees_id_key" ON "leave_policy_employees"("id");

-- CreateIndex
CREATE INDEX "leave_policy_employees_tenant_id_employee_id_idx" ON "leave_policy_employees"("tenant_id", "employee_id");

-- CreateIndex
CREATE UNIQUE INDEX "leave_policy_employees_tenant_id_policy_id_employee_id_key" ON "leave_policy_employees"("tenant_id", "policy_id", "employee_id");

-- CreateIndex
CREATE UNIQUE INDEX "leave_allocations_id_key" ON "leave_allocations"("id");

-- CreateIndex
CREATE INDEX "leave_allocations_tenant_id_period_id_accrual_idx" ON "leave_allocations"("tenant_id", "period_id", "accrual");

-- CreateIndex
CREATE UNIQUE INDEX "leave_allocations_tenant_id_employee_id_leave_type_id_perio_key" ON "leave_allocations"("tenant_id", "employee_id", "leave_type_id", "period_id");

-- CreateIndex
CREATE UNIQUE INDEX "leave_ledger_entries_id_key" ON "leave_ledger_entries"("id");

-- CreateIndex
CREATE INDEX "leave_ledger_entries_tenant_id_employee_id_leave_type_id_pe_idx" ON "leave_ledger_entries"("tenant_id", "employee_id", "leave_type_id", "period_id");

-- CreateIndex
CREATE INDEX "leave_ledger_entries_tenant_id_expires_on_idx" ON "leave_ledger_entries"("tenant_id", "expires_on");

-- CreateIndex
CREATE UNIQUE INDEX "leave_ledger_entries_tenant_id_dedupe_key_key" ON "leave_ledger_entries"("tenant_id", "dedupe_key");

-- CreateIndex
CREATE UNIQUE INDEX "leave_requests_id_key" ON "leave_requests"("id");

-- CreateIndex
CREATE INDEX "leave_requests_tenant_id_employee_id_from_date_idx" ON "leave_requests"("tenant_id", "employee_id", "from_date");

-- CreateIndex
CREATE INDEX "leave_requests_tenant_id_status_from_date_idx" ON "leave_requests"("tenant_id", "status", "from_date");

-- CreateIndex
CREATE UNIQUE INDEX "leave_encashments_id_key" ON "leave_encashments"("id");

-- CreateIndex
CREATE INDEX "leave_encashments_tenant_id_employee_id_status_idx" ON "leave_encashments"("tenant_id", "employee_id", "status");

-- CreateIndex
CREATE UNIQUE INDEX "holidays_id_key" ON "holidays"("id");

-- CreateIndex
CREATE INDEX "holidays_tenant_id_date_idx" ON "holidays"("tenant_id", "date");

-- CreateIndex
CREATE UNIQUE INDEX "wfh_requests_id_key" ON "wfh_requests"("id");

-- CreateIndex
CREATE INDEX "wfh_requests_tenant_id_employee_id_from_date_idx" ON "wfh_requests"("tenant_id", "employee_id", "from_date");

-- CreateIndex
CREATE UNIQUE INDEX "working_on_holiday_requests_id_key" ON "working_on_holiday_requests"("id");

-- CreateIndex
CREATE INDEX "working_on_holiday_requests_tenant_id_employee_id_date_idx" ON "working_on_holiday_requests"("tenant_id", "employee_id", "date");

-- AddForeignKey
ALTER TABLE "attendance_records" ADD CONSTRAINT "attendance_records_tenant_id_employee_id_fkey" FOREIGN KEY ("tenant_id", "employee_id") REFERENCES "employees"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "attendance_regularizations" ADD CONSTRAINT "attendance_regularizations_tenant_id_employee_id_fkey" FOREIGN KEY ("tenant_id", "employee_id") REFERENCES "employees"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "leave_policy_items" ADD CONSTRAINT "leave_policy_items_tenant_id_policy_id_fkey" FOREIGN KEY ("tenant_id", "policy_id") REFERENCES "leave_policies"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "leave_policy_items" ADD CONSTRAINT "leave_policy_items_tenant_id_leave_type_id_fkey" FOREIGN KEY ("tenant_id", "leave_type_id") REFERENCES "leave_types"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "leave_policy_employees" ADD CONSTRAINT "leave_policy_employees_tenant_id_policy_id_fkey" FOREIGN KEY ("tenant_id", "policy_id") REFERENCES "leave_policies"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "leave_policy_employees" ADD CONSTRAINT "leave_policy_employees_tenant_id_employee_id_fkey" FOREIGN KEY ("tenant_id", "employee_id") REFERENCES "employees"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "leave_allocations" ADD CONSTRAINT "leave_allocations_tenant_id_employee_id_fkey" FOREIGN KEY ("tenant_id", "employee_id") REFERENCES "employees"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "leave_allocations" ADD CONSTRAINT "leave_allocations_tenant_id_leave_type_id_fkey" FOREIGN KEY ("tenant_id", "leave_type_id") REFERENCES "leave_types"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "leave_allocations" ADD CONSTRAINT "leave_allocations_tenant_id_period_id_fkey" FOREIGN KEY ("tenant_id", "period_id") REFERENCES "leave_periods"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "leave_allocations" ADD CONSTRAINT "leave_allocations_tenant_id_policy_id_fkey" FOREIGN KEY ("tenant_id", "policy_id") REFERENCES "leave_policies"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "leave_ledger_entries" ADD CONSTRAINT "leave_ledger_entries_tenant_id_employee_id_fkey" FOREIGN KEY ("tenant_id", "employee_id") REFERENCES "employees"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "leave_ledger_entries" ADD CONSTRAINT "leave_ledger_entries_tenant_id_leave_type_id_fkey" FOREIGN KEY ("tenant_id", "leave_type_id") REFERENCES "leave_types"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "leave_ledger_entries" ADD CONSTRAINT "leave_ledger_entries_tenant_id_period_id_fkey" FOREIGN KEY ("tenant_id", "period_id") REFERENCES "leave_periods"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "leave_requests" ADD CONSTRAINT "leave_requests_tenant_id_employee_id_fkey" FOREIGN KEY ("tenant_id", "employee_id") REFERENCES "employees"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "leave_requests" ADD CONSTRAINT "leave_requests_tenant_id_leave_type_id_fkey" FOREIGN KEY ("tenant_id", "leave_type_id") REFERENCES "leave_types"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "leave_requests" ADD CONSTRAINT "leave_requests_tenant_id_period_id_fkey" FOREIGN KEY ("tenant_id", "period_id") REFERENCES "leave_periods"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "leave_encashments" ADD CONSTRAINT "leave_encashments_tenant_id_employee_id_fkey" FOREIGN KEY ("tenant_id", "employee_id") REFERENCES "employees"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "leave_encashments" ADD CONSTRAINT "leave_encashments_tenant_id_leave_type_id_fkey" FOREIGN KEY ("tenant_id", "leave_type_id") REFERENCES "leave_types"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "leave_encashments" ADD CONSTRAINT "leave_encashments_tenant_id_period_id_fkey" FOREIGN KEY ("tenant_id", "period_id") REFERENCES "leave_periods"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "wfh_requests" ADD CONSTRAINT "wfh_requests_tenant_id_employee_id_fkey" FOREIGN KEY ("tenant_id", "employee_id") REFERENCES "employees"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "working_on_holiday_requests" ADD CONSTRAINT "working_on_holiday_requests_tenant_id_employee_id_fkey" FOREIGN KEY ("tenant_id", "employee_id") REFERENCES "employees"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "working_on_holiday_requests" ADD CONSTRAINT "working_on_holiday_requests_tenant_id_leave_type_id_fkey" FOREIGN KEY ("tenant_id", "leave_type_id") REFERENCES "leave_types"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- The leave ledger is append-only: a balance is the sum of its entries, corrections are new
-- entries (reversals, adjustments with a reason). UPDATE and DELETE are refused.
CREATE FUNCTION leave_ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'leave_ledger_entries is append-only (% refused)', TG_OP;
END;
$$;

CREATE TRIGGER leave_ledger_entries_append_only
  BEFORE UPDATE OR DELETE ON "leave_ledger_entries"
  FOR EACH ROW EXECUTE FUNCTION leave_ledger_append_only();
