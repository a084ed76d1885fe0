-- Issue 28 (sign-in lockout): the browsers and devices a user has proven themselves from.
-- CreateTable
CREATE TABLE "known_clients" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "user_id" UUID NOT NULL,
    "token_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "known_clients_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "known_clients_token_hash_key" ON "known_clients"("token_hash");

-- CreateIndex
CREATE INDEX "known_clients_user_id_last_used_at_idx" ON "known_clients"("user_id", "last_used_at");

-- AddForeignKey
ALTER TABLE "known_clients" ADD CONSTRAINT "known_clients_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
