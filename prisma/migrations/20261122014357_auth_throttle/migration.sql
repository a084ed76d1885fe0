-- CreateTable
CREATE TABLE "auth_throttle" (
    "key" TEXT NOT NULL,
    "failures" INTEGER NOT NULL,
    "window_start" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "auth_throttle_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "auth_throttle_window_start_idx" ON "auth_throttle"("window_start");
