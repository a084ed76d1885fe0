-- CreateTable
CREATE TABLE "asset_categories" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "name" CITEXT NOT NULL,
    "description" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "asset_categories_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "assets" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "asset_tag" CITEXT NOT NULL,
    "name" TEXT NOT NULL,
    "category_id" UUID NOT NULL,
    "serial_number" CITEXT,
    "purchase_date" DATE,
    "purchase_cost" DECIMAL(15,2),
    "warranty_expires_on" DATE,
    "condition" TEXT NOT NULL DEFAULT 'new',
    "status" TEXT NOT NULL DEFAULT 'available',
    "notes" TEXT,
    "created_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "assets_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "asset_assignments" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "asset_id" UUID NOT NULL,
    "employee_id" UUID NOT NULL,
    "assigned_on" DATE NOT NULL,
    "expected_return_on" DATE,
    "condition_at_assignment" TEXT NOT NULL,
    "notes" TEXT,
    "assigned_by" UUID,
    "returned_on" DATE,
    "return_condition" TEXT,
    "return_notes" TEXT,
    "returned_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "asset_assignments_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "asset_return_requests" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "assignment_id" UUID NOT NULL,
    "requested_by" UUID NOT NULL,
    "reason" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "decision_notes" TEXT,
    "decided_by" UUID,
    "decided_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "asset_return_requests_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "asset_damage_reports" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "asset_id" UUID NOT NULL,
    "assignment_id" UUID,
    "severity" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "file_id" UUID,
    "status" TEXT NOT NULL DEFAULT 'open',
    "reported_by" UUID NOT NULL,
    "resolution_notes" TEXT,
    "repair_cost" DECIMAL(15,2),
    "resolved_by" UUID,
    "resolved_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "asset_damage_reports_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateIndex
CREATE UNIQUE INDEX "asset_categories_id_key" ON "asset_categories"("id");

-- CreateIndex
CREATE INDEX "asset_categories_tenant_id_name_idx" ON "asset_categories"("tenant_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "assets_id_key" ON "assets"("id");

-- CreateIndex
CREATE INDEX "assets_tenant_id_category_id_idx" ON "assets"("tenant_id", "category_id");

-- CreateIndex
CREATE INDEX "assets_tenant_id_status_idx" ON "assets"("tenant_id", "status");

-- CreateIndex
CREATE INDEX "assets_tenant_id_serial_number_idx" ON "assets"("tenant_id", "serial_number");

-- CreateIndex
CREATE UNIQUE INDEX "assets_tenant_id_asset_tag_key" ON "assets"("tenant_id", "asset_tag");

-- CreateIndex
CREATE UNIQUE INDEX "asset_assignments_id_key" ON "asset_assignments"("id");

-- CreateIndex
CREATE INDEX "asset_assignments_tenant_id_asset_id_assigned_on_idx" ON "asset_assignments"("tenant_id", "asset_id", "assigned_on" DESC);

-- CreateIndex
CREATE INDEX "asset_assignments_tenant_id_employee_id_assigned_on_idx" ON "asset_assignments"("tenant_id", "employee_id", "assigned_on" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "asset_return_requests_id_key" ON "asset_return_requests"("id");

-- CreateIndex
CREATE INDEX "asset_return_requests_tenant_id_assignment_id_idx" ON "asset_return_requests"("tenant_id", "assignment_id");

-- CreateIndex
CREATE INDEX "asset_return_requests_tenant_id_status_created_at_idx" ON "asset_return_requests"("tenant_id", "status", "created_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "asset_damage_reports_id_key" ON "asset_damage_reports"("id");

-- CreateIndex
CREATE INDEX "asset_damage_reports_tenant_id_asset_id_status_idx" ON "asset_damage_reports"("tenant_id", "asset_id", "status");

-- CreateIndex
CREATE INDEX "asset_damage_reports_tenant_id_assignment_id_idx" ON "asset_damage_reports"("tenant_id", "assignment_id");

-- CreateIndex
CREATE INDEX "asset_damage_reports_tenant_id_status_created_at_idx" ON "asset_damage_reports"("tenant_id", "status", "created_at" DESC);

-- AddForeignKey
ALTER TABLE "assets" ADD CONSTRAINT "assets_tenant_id_category_id_fkey" FOREIGN KEY ("tenant_id", "category_id") REFERENCES "asset_categories"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "asset_assignments" ADD CONSTRAINT "asset_assignments_tenant_id_asset_id_fkey" FOREIGN KEY ("tenant_id", "asset_id") REFERENCES "assets"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "asset_assignments" ADD CONSTRAINT "asset_assignments_tenant_id_employee_id_fkey" FOREIGN KEY ("tenant_id", "employee_id") REFERENCES "employees"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "asset_return_requests" ADD CONSTRAINT "asset_return_requests_tenant_id_assignment_id_fkey" FOREIGN KEY ("tenant_id", "assignment_id") REFERENCES "asset_assignments"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "asset_damage_reports" ADD CONSTRAINT "asset_damage_reports_tenant_id_asset_id_fkey" FOREIGN KEY ("tenant_id", "asset_id") REFERENCES "assets"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "asset_damage_reports" ADD CONSTRAINT "asset_damage_reports_tenant_id_assignment_id_fkey" FOREIGN KEY ("tenant_id", "assignment_id") REFERENCES "asset_assignments"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- Hand-written (not expressible in the Prisma schema): partial unique indexes and value checks.

-- Category names are unique among the company's live categories.
CREATE UNIQUE INDEX "asset_categories_live_name_key" ON "asset_categories"("tenant_id", "name") WHERE "deleted_at" IS NULL;

-- Serial numbers are unique among the company's live assets.
CREATE UNIQUE INDEX "assets_live_serial_number_key" ON "assets"("tenant_id", "serial_number") WHERE "deleted_at" IS NULL;

-- An asset is held by at most one employee at a time (backstop of the row lock taken when assigning).
CREATE UNIQUE INDEX "asset_assignments_active_asset_key" ON "asset_assignments"("tenant_id", "asset_id") WHERE "returned_on" IS NULL;

-- At most one pending return request per assignment.
CREATE UNIQUE INDEX "asset_return_requests_pending_key" ON "asset_return_requests"("tenant_id", "assignment_id") WHERE "status" = 'pending';

ALTER TABLE "assets" ADD CONSTRAINT "assets_status_check" CHECK ("status" IN ('available', 'assigned', 'under_repair', 'retired', 'lost'));
ALTER TABLE "assets" ADD CONSTRAINT "assets_condition_check" CHECK ("condition" IN ('new', 'good', 'fair', 'poor', 'damaged'));
ALTER TABLE "assets" ADD CONSTRAINT "assets_purchase_cost_check" CHECK ("purchase_cost" IS NULL OR "purchase_cost" >= 0);
ALTER TABLE "asset_assignments" ADD CONSTRAINT "asset_assignments_dates_check" CHECK (("expected_return_on" IS NULL OR "expected_return_on" >= "assigned_on") AND ("returned_on" IS NULL OR "returned_on" >= "assigned_on"));
ALTER TABLE "asset_return_requests" ADD CONSTRAINT "asset_return_requests_status_check" CHECK ("status" IN ('pending', 'approved', 'rejected'));
ALTER TABLE "asset_damage_reports" ADD CONSTRAINT "asset_damage_reports_severity_check" CHECK ("severity" IN ('minor', 'major'));
ALTER TABLE "asset_damage_reports" ADD CONSTRAINT "asset_damage_reports_status_check" CHECK ("status" IN ('open', 'repaired', 'written_off'));
