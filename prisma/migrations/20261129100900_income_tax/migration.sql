/*
  Warnings:

  - A unique constraint covering the columns `[tenant_id,asset_id]` on the table `asset_assignments` will be added. If there are existing duplicate values, this will fail.
  - A unique constraint covering the columns `[tenant_id,name]` on the table `asset_categories` will be added. If there are existing duplicate values, this will fail.
  - A unique constraint covering the columns `[tenant_id,assignment_id]` on the table `asset_return_requests` will be added. If there are existing duplicate values, this will fail.
  - A unique constraint covering the columns `[tenant_id,serial_number]` on the table `assets` will be added. If there are existing duplicate values, this will fail.
  - A unique constraint covering the columns `[tenant_id,name]` on the table `branches` will be added. If there are existing duplicate values, this will fail.
  - A unique constraint covering the columns `[tenant_id,code]` on the table `branches` will be added. If there are existing duplicate values, this will fail.
  - A unique constraint covering the columns `[tenant_id,posting_id,email]` on the table `candidates` will be added. If there are existing duplicate values, this will fail.
  - A unique constraint covering the columns `[tenant_id,email]` on the table `employees` will be added. If there are existing duplicate values, this will fail.
  - A unique constraint covering the columns `[tenant_id,candidate_id]` on the table `job_offers` will be added. If there are existing duplicate values, this will fail.
  - A unique constraint covering the columns `[tenant_id,email]` on the table `talent_pool_candidates` will be added. If there are existing duplicate values, this will fail.

*/
-- AlterTable
ALTER TABLE "payroll_slips" ADD COLUMN     "income_tax" DECIMAL(14,2) NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "tax_profiles" (
    "tenant_id" UUID NOT NULL DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "employee_id" UUID NOT NULL,
    "tax_year" VARCHAR(7) NOT NULL,
    "regime" TEXT NOT NULL DEFAULT 'new',
    "pan" VARCHAR(10),
    "resident" BOOLEAN NOT NULL DEFAULT true,
    "age_band" TEXT,
    "city" TEXT,
    "parents_senior" BOOLEAN NOT NULL DEFAULT false,
    "previous_employer_salary" DECIMAL(14,2) NOT NULL DEFAULT 0,
    "previous_employer_tds" DECIMAL(14,2) NOT NULL DEFAULT 0,
    "previous_employer_pf" DECIMAL(14,2) NOT NULL DEFAULT 0,
    "previous_employer_professional_tax" DECIMAL(14,2) NOT NULL DEFAULT 0,
    "other_income" DECIMAL(14,2) NOT NULL DEFAULT 0,
    "version" INTEGER NOT NULL DEFAULT 1,
    "updated_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tax_profiles_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "tax_declarations" (
    "tenant_id" UUID NOT NULL DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "employee_id" UUID NOT NULL,
    "tax_year" VARCHAR(7) NOT NULL,
    "section" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "amount" DECIMAL(14,2) NOT NULL,
    "proof_file_id" UUID,
    "status" TEXT NOT NULL DEFAULT 'submitted',
    "verified_amount" DECIMAL(14,2),
    "rejection_reason" TEXT,
    "decided_by" UUID,
    "decided_at" TIMESTAMPTZ(3),
    "created_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tax_declarations_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateIndex
CREATE UNIQUE INDEX "tax_profiles_tenant_id_employee_id_tax_year_key" ON "tax_profiles"("tenant_id", "employee_id", "tax_year");

-- CreateIndex
CREATE INDEX "tax_declarations_tenant_id_employee_id_tax_year_idx" ON "tax_declarations"("tenant_id", "employee_id", "tax_year");

-- CreateIndex
CREATE INDEX "tax_declarations_tenant_id_tax_year_status_idx" ON "tax_declarations"("tenant_id", "tax_year", "status");

-- AddForeignKey
ALTER TABLE "tax_profiles" ADD CONSTRAINT "tax_profiles_tenant_id_employee_id_fkey" FOREIGN KEY ("tenant_id", "employee_id") REFERENCES "employees"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "tax_declarations" ADD CONSTRAINT "tax_declarations_tenant_id_employee_id_fkey" FOREIGN KEY ("tenant_id", "employee_id") REFERENCES "employees"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;
