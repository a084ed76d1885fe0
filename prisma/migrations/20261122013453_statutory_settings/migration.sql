-- CreateTable
CREATE TABLE "statutory_settings" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "kind" TEXT NOT NULL,
    "settings" JSONB NOT NULL,
    "updated_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "statutory_settings_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateIndex
CREATE UNIQUE INDEX "statutory_settings_id_key" ON "statutory_settings"("id");

-- CreateIndex
CREATE UNIQUE INDEX "statutory_settings_tenant_id_kind_key" ON "statutory_settings"("tenant_id", "kind");
