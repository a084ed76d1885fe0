-- The filing of a quarterly TDS statement (24Q / Form 138): date and receipt number, one per tax year and quarter.
-- CreateTable
CREATE TABLE "tds_return_filings" (
    "tenant_id" UUID NOT NULL DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "tax_year" VARCHAR(7) NOT NULL,
    "quarter" VARCHAR(2) NOT NULL,
    "filed_on" DATE NOT NULL,
    "receipt_number" VARCHAR(15) NOT NULL,
    "created_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tds_return_filings_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateIndex
CREATE UNIQUE INDEX "tds_return_filings_tenant_id_tax_year_quarter_key" ON "tds_return_filings"("tenant_id", "tax_year", "quarter");
