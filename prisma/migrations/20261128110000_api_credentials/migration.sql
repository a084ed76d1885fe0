-- AlterTable
ALTER TABLE "audit_logs" ADD COLUMN     "actor_credential_id" UUID,
ADD COLUMN     "actor_credential_name" TEXT;

-- CreateTable
CREATE TABLE "api_credentials" (
    "tenant_id" UUID NOT NULL DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "name" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "scopes" TEXT[],
    "prefix" TEXT NOT NULL,
    "secret_hash" TEXT NOT NULL,
    "previous_prefix" TEXT,
    "previous_secret_hash" TEXT,
    "previous_expires_at" TIMESTAMPTZ(3),
    "expires_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    "created_by" UUID NOT NULL,
    "last_write_lsn" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "api_credentials_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateIndex
CREATE INDEX "api_credentials_tenant_id_created_at_idx" ON "api_credentials"("tenant_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "api_credentials_secret_hash_idx" ON "api_credentials"("secret_hash");

-- CreateIndex
CREATE INDEX "api_credentials_previous_secret_hash_idx" ON "api_credentials"("previous_secret_hash");
