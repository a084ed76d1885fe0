-- The billing provider's customer of each company, one each way (issue 14): the webhook binds a
-- company to the customer of its first live subscription event and ignores other customers'
-- events for it. Companies that already have a stored customer are bound to it (where two share
-- one, the one with the newest billing event keeps it).
-- CreateTable
CREATE TABLE "billing_customers" (
    "customer_id" TEXT NOT NULL,
    "tenant_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "billing_customers_pkey" PRIMARY KEY ("customer_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "billing_customers_tenant_id_key" ON "billing_customers"("tenant_id");

-- AddForeignKey
ALTER TABLE "billing_customers" ADD CONSTRAINT "billing_customers_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Backfill from the customer stored on each company so far.
INSERT INTO "billing_customers" ("customer_id", "tenant_id")
SELECT DISTINCT ON ("billing_customer_id") "billing_customer_id", "id"
  FROM "tenants"
 WHERE "billing_customer_id" IS NOT NULL
 ORDER BY "billing_customer_id", "billing_event_at" DESC NULLS LAST, "id"
ON CONFLICT DO NOTHING;
