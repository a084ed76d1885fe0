-- Access tokens of the OAuth 2.0 client-credentials grant (issue 31; src/platform/identity/oauth.ts):
-- short-lived, stored as their SHA-256 only, bound to the credential secret they were issued with.
-- CreateTable
CREATE TABLE "oauth_access_tokens" (
    "tenant_id" UUID NOT NULL DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "credential_id" UUID NOT NULL,
    "token_hash" TEXT NOT NULL,
    "secret_hash" TEXT NOT NULL,
    "scopes" TEXT[],
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth_access_tokens_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateIndex
CREATE UNIQUE INDEX "oauth_access_tokens_tenant_id_token_hash_key" ON "oauth_access_tokens"("tenant_id", "token_hash");

-- CreateIndex
CREATE INDEX "oauth_access_tokens_token_hash_idx" ON "oauth_access_tokens"("token_hash");

-- CreateIndex
CREATE INDEX "oauth_access_tokens_expires_at_idx" ON "oauth_access_tokens"("expires_at");

-- AddForeignKey
ALTER TABLE "oauth_access_tokens" ADD CONSTRAINT "oauth_access_tokens_tenant_id_credential_id_fkey" FOREIGN KEY ("tenant_id", "credential_id") REFERENCES "api_credentials"("tenant_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;
