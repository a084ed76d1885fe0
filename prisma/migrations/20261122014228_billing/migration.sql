-- AlterTable
ALTER TABLE "tenants" ADD COLUMN     "billing_customer_id" TEXT,
ADD COLUMN     "billing_event_at" TIMESTAMPTZ(3),
ADD COLUMN     "billing_subscription_id" TEXT,
ADD COLUMN     "subscription_status" TEXT;

-- CreateTable
CREATE TABLE "billing_events" (
    "id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "tenant_id" UUID,
    "handled" BOOLEAN NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "billing_events_pkey" PRIMARY KEY ("id")
);
