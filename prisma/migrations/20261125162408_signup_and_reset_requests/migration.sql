-- Signup confirmed by e-mail and password-reset requests handled after the response (issue 14,
-- item 7): POST /api/auth/signup and POST /api/auth/forgot-password write one row whether or not
-- the address has an account; the jobs auth.signup-requests and auth.password-reset-requests do the
-- look-up and the mail.
-- CreateTable
CREATE TABLE "signup_requests" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "email" CITEXT NOT NULL,
    "name" TEXT NOT NULL,
    "company_name" TEXT,
    "password_hash" TEXT NOT NULL,
    "token_hash" TEXT,
    "mailed_at" TIMESTAMPTZ(3),
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "signup_requests_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "password_reset_requests" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "email" CITEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "password_reset_requests_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "signup_requests_token_hash_key" ON "signup_requests"("token_hash");

-- CreateIndex
CREATE INDEX "signup_requests_email_idx" ON "signup_requests"("email");

-- CreateIndex
CREATE INDEX "signup_requests_mailed_at_created_at_idx" ON "signup_requests"("mailed_at", "created_at");

-- CreateIndex
CREATE INDEX "signup_requests_expires_at_idx" ON "signup_requests"("expires_at");

-- CreateIndex
CREATE INDEX "password_reset_requests_created_at_idx" ON "password_reset_requests"("created_at");
