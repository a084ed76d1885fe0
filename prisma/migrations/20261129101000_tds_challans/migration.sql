-- CreateTable
CREATE TABLE "tds_challans" (
    "tenant_id" UUID NOT NULL DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "period_year" INTEGER NOT NULL,
    "period_month" INTEGER NOT NULL,
    "bsr_code" VARCHAR(7) NOT NULL,
    "challan_serial" VARCHAR(5) NOT NULL,
    "deposited_on" DATE NOT NULL,
    "tax" DECIMAL(14,2) NOT NULL,
    "surcharge" DECIMAL(14,2) NOT NULL DEFAULT 0,
    "cess" DECIMAL(14,2) NOT NULL DEFAULT 0,
    "interest" DECIMAL(14,2) NOT NULL DEFAULT 0,
    "fee" DECIMAL(14,2) NOT NULL DEFAULT 0,
    "deductees" JSONB NOT NULL DEFAULT '[]',
    "created_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tds_challans_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateIndex
CREATE UNIQUE INDEX "tds_challans_tenant_id_bsr_code_deposited_on_challan_serial_key" ON "tds_challans"("tenant_id", "bsr_code", "deposited_on", "challan_serial");

-- CreateIndex
CREATE INDEX "tds_challans_tenant_id_period_year_period_month_idx" ON "tds_challans"("tenant_id", "period_year", "period_month");
