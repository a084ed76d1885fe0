-- Fixed-window usage counters shared by every server instance (uploads and AI helpers per user and per
-- company, src/platform/limits.ts), and the indexes of the storage quota and the unattached-file cleanup.
-- CreateTable
CREATE TABLE "usage_counters" (
    "key" TEXT NOT NULL,
    "uses" INTEGER NOT NULL,
    "window_ends" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "usage_counters_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "usage_counters_window_ends_idx" ON "usage_counters"("window_ends");

-- CreateIndex
CREATE INDEX "files_tenant_id_created_at_idx" ON "files"("tenant_id", "created_at");

-- CreateIndex
CREATE INDEX "files_sha256_idx" ON "files"("sha256");
