-- Arrears of earlier years on the tax profile (s.89(1) relief), and Part A of Form 16 / Form 130 uploaded per employee and tax year.
-- AlterTable
ALTER TABLE "tax_profiles" ADD COLUMN     "arrears" JSONB NOT NULL DEFAULT '[]';

-- CreateTable
CREATE TABLE "form16_part_a" (
    "tenant_id" UUID NOT NULL DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "employee_id" UUID NOT NULL,
    "tax_year" VARCHAR(7) NOT NULL,
    "version" INTEGER NOT NULL,
    "file_id" UUID,
    "file_name" TEXT NOT NULL,
    "size_bytes" INTEGER NOT NULL,
    "sha256" VARCHAR(64) NOT NULL,
    "uploaded_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "replaced_at" TIMESTAMPTZ(3),
    "removed_at" TIMESTAMPTZ(3),
    "removed_by" UUID,

    CONSTRAINT "form16_part_a_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateIndex
CREATE UNIQUE INDEX "form16_part_a_tenant_id_employee_id_tax_year_version_key" ON "form16_part_a"("tenant_id", "employee_id", "tax_year", "version");

-- AddForeignKey
ALTER TABLE "form16_part_a" ADD CONSTRAINT "form16_part_a_tenant_id_employee_id_fkey" FOREIGN KEY ("tenant_id", "employee_id") REFERENCES "employees"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "form16_part_a" ADD CONSTRAINT "form16_part_a_tenant_id_file_id_fkey" FOREIGN KEY ("tenant_id", "file_id") REFERENCES "files"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;
