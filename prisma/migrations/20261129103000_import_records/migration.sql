-- Bulk imports: what each row created or changed (its record id, an employee's code), so the import's
-- answer maps a client's rows to the server's ids. Written with the row's chunk; pruned with the import.
-- CreateTable
CREATE TABLE "import_records" (
    "tenant_id" UUID NOT NULL DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid,
    "import_id" UUID NOT NULL,
    "row" INTEGER NOT NULL,
    "record_id" UUID NOT NULL,
    "code" TEXT,

    CONSTRAINT "import_records_pkey" PRIMARY KEY ("tenant_id","import_id","row","record_id")
);
