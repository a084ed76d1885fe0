-- CreateTable
CREATE TABLE "loan_types" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "name" TEXT NOT NULL,
    "description" TEXT,
    "max_amount" DECIMAL(14,2),
    "max_installments" INTEGER NOT NULL,
    "interest_rate" DECIMAL(7,4) NOT NULL DEFAULT 0,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "loan_types_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "expense_categories" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "name" TEXT NOT NULL,
    "description" TEXT,
    "max_claim_amount" DECIMAL(14,2),
    "requires_receipt" BOOLEAN NOT NULL DEFAULT true,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "expense_categories_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateIndex
CREATE UNIQUE INDEX "loan_types_id_key" ON "loan_types"("id");

-- CreateIndex
CREATE UNIQUE INDEX "loan_types_tenant_id_name_key" ON "loan_types"("tenant_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "expense_categories_id_key" ON "expense_categories"("id");

-- CreateIndex
CREATE UNIQUE INDEX "expense_categories_tenant_id_name_key" ON "expense_categories"("tenant_id", "name");
