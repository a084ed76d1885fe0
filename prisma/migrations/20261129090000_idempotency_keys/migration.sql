-- Idempotency keys of POST requests (issue 32; src/http/idempotency.ts): the primary key claims a key
-- for its first request, the row then holds that request's answer for a retry to replay.
-- CreateTable
CREATE TABLE "idempotency_keys" (
    "tenant_id" UUID NOT NULL DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid,
    "caller" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "operation_id" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "status" INTEGER,
    "body" TEXT,
    "headers" JSONB,
    "locked_until" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("tenant_id","caller","key")
);

-- CreateIndex
CREATE INDEX "idempotency_keys_expires_at_idx" ON "idempotency_keys"("expires_at");
