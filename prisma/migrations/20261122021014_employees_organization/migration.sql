/*
  Warnings:

  - A unique constraint covering the columns `[tenant_id,email]` on the table `employees` will be added. If there are existing duplicate values, this will fail.

*/
-- AlterTable
ALTER TABLE "employees" ADD COLUMN     "search_text" TEXT NOT NULL DEFAULT '';

-- CreateTable
CREATE TABLE "employee_department_counts" (
    "tenant_id" UUID NOT NULL,
    "department" TEXT NOT NULL,
    "live_count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "employee_department_counts_pkey" PRIMARY KEY ("tenant_id","department")
);

-- CreateTable
CREATE TABLE "employee_code_counters" (
    "tenant_id" UUID NOT NULL,
    "last_value" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "employee_code_counters_pkey" PRIMARY KEY ("tenant_id")
);

-- CreateTable
CREATE TABLE "employee_exits" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "employee_id" UUID NOT NULL,
    "resignation_date" DATE NOT NULL,
    "last_working_day" DATE NOT NULL,
    "reason" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'in_progress',
    "submitted_by" UUID,
    "completed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "employee_exits_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "exit_checklist_items" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "exit_id" UUID NOT NULL,
    "item" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "completed_at" TIMESTAMPTZ(3),
    "completed_by" UUID,
    "notes" TEXT,

    CONSTRAINT "exit_checklist_items_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "branches" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "name" CITEXT NOT NULL,
    "code" CITEXT,
    "address" TEXT,
    "city" TEXT,
    "state" TEXT,
    "country" VARCHAR(2),
    "phone" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "branches_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "work_locations" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "name" CITEXT NOT NULL,
    "branch_id" UUID,
    "address" TEXT,
    "city" TEXT,
    "state" TEXT,
    "country" VARCHAR(2),
    "latitude" DECIMAL(9,6),
    "longitude" DECIMAL(9,6),
    "geofence_radius_m" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "work_locations_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateIndex
CREATE UNIQUE INDEX "employee_exits_id_key" ON "employee_exits"("id");

-- CreateIndex
CREATE INDEX "employee_exits_tenant_id_status_last_working_day_idx" ON "employee_exits"("tenant_id", "status", "last_working_day");

-- CreateIndex
CREATE UNIQUE INDEX "employee_exits_tenant_id_employee_id_key" ON "employee_exits"("tenant_id", "employee_id");

-- CreateIndex
CREATE UNIQUE INDEX "exit_checklist_items_id_key" ON "exit_checklist_items"("id");

-- CreateIndex
CREATE UNIQUE INDEX "exit_checklist_items_tenant_id_exit_id_item_key" ON "exit_checklist_items"("tenant_id", "exit_id", "item");

-- CreateIndex
CREATE UNIQUE INDEX "branches_id_key" ON "branches"("id");

-- CreateIndex
CREATE UNIQUE INDEX "branches_live_name_key" ON "branches"("tenant_id", "name") WHERE (deleted_at IS NULL);

-- CreateIndex
CREATE UNIQUE INDEX "branches_live_code_key" ON "branches"("tenant_id", "code") WHERE (deleted_at IS NULL);

-- CreateIndex
CREATE UNIQUE INDEX "work_locations_id_key" ON "work_locations"("id");

-- CreateIndex
CREATE INDEX "work_locations_tenant_id_branch_id_idx" ON "work_locations"("tenant_id", "branch_id");

-- CreateIndex
CREATE UNIQUE INDEX "work_locations_tenant_id_name_key" ON "work_locations"("tenant_id", "name");

-- CreateIndex
CREATE INDEX "employees_tenant_id_branch_id_idx" ON "employees"("tenant_id", "branch_id");

-- CreateIndex
CREATE INDEX "employees_tenant_id_work_location_id_idx" ON "employees"("tenant_id", "work_location_id");

-- CreateIndex
CREATE INDEX "employees_live_name_idx" ON "employees"("tenant_id", "last_name", "first_name", "id") WHERE (deleted_at IS NULL);

-- CreateIndex
CREATE INDEX "employees_live_department_idx" ON "employees"("tenant_id", "department", "last_name", "first_name", "id") WHERE (deleted_at IS NULL);

-- CreateIndex
CREATE INDEX "employees_live_status_idx" ON "employees"("tenant_id", "status", "last_name", "first_name", "id") WHERE (deleted_at IS NULL);

-- CreateIndex
CREATE INDEX "employees_live_joining_idx" ON "employees"("tenant_id", "joining_date", "id") WHERE (deleted_at IS NULL);

-- CreateIndex
CREATE INDEX "employees_live_created_idx" ON "employees"("tenant_id", "created_at", "id") WHERE (deleted_at IS NULL);

-- CreateIndex
CREATE INDEX "employees_live_search_trgm_idx" ON "employees" USING GIN ("search_text" gin_trgm_ops) WHERE (deleted_at IS NULL);

-- CreateIndex
CREATE UNIQUE INDEX "employees_live_email_key" ON "employees"("tenant_id", "email") WHERE (deleted_at IS NULL);

-- AddForeignKey
ALTER TABLE "employees" ADD CONSTRAINT "employees_tenant_id_branch_id_fkey" FOREIGN KEY ("tenant_id", "branch_id") REFERENCES "branches"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "employees" ADD CONSTRAINT "employees_tenant_id_work_location_id_fkey" FOREIGN KEY ("tenant_id", "work_location_id") REFERENCES "work_locations"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "employee_exits" ADD CONSTRAINT "employee_exits_tenant_id_employee_id_fkey" FOREIGN KEY ("tenant_id", "employee_id") REFERENCES "employees"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "exit_checklist_items" ADD CONSTRAINT "exit_checklist_items_tenant_id_exit_id_fkey" FOREIGN KEY ("tenant_id", "exit_id") REFERENCES "employee_exits"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "work_locations" ADD CONSTRAINT "work_locations_tenant_id_branch_id_fkey" FOREIGN KEY ("tenant_id", "branch_id") REFERENCES "branches"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- Written by hand (Prisma does not model triggers): employee_department_counts stays equal to
-- the number of live (deleted_at IS NULL) employees per (tenant, department), whatever writes the
-- employees table. Statement-level triggers with transition tables: one aggregated upsert per
-- statement (bulk inserts stay fast), and an update that moves no one (e.g. a new designation)
-- writes nothing. Rows are upserted in key order so concurrent statements cannot deadlock.
CREATE FUNCTION "employees_department_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "employee_department_counts" AS c ("tenant_id", "department", "live_count")
    SELECT "tenant_id", "department", count(*) FROM new_rows WHERE "deleted_at" IS NULL
    GROUP BY "tenant_id", "department" ORDER BY "tenant_id", "department"
    ON CONFLICT ("tenant_id", "department") DO UPDATE SET "live_count" = c."live_count" + EXCLUDED."live_count";
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO "employee_department_counts" AS c ("tenant_id", "department", "live_count")
    SELECT "tenant_id", "department", sum(d) FROM (
      SELECT "tenant_id", "department", 1 AS d FROM new_rows WHERE "deleted_at" IS NULL
      UNION ALL
      SELECT "tenant_id", "department", -1 AS d FROM old_rows WHERE "deleted_at" IS NULL
    ) x
    GROUP BY "tenant_id", "department" HAVING sum(d) <> 0 ORDER BY "tenant_id", "department"
    ON CONFLICT ("tenant_id", "department") DO UPDATE SET "live_count" = c."live_count" + EXCLUDED."live_count";
  ELSE
    INSERT INTO "employee_department_counts" AS c ("tenant_id", "department", "live_count")
    SELECT "tenant_id", "department", -count(*) FROM old_rows WHERE "deleted_at" IS NULL
    GROUP BY "tenant_id", "department" ORDER BY "tenant_id", "department"
    ON CONFLICT ("tenant_id", "department") DO UPDATE SET "live_count" = c."live_count" + EXCLUDED."live_count";
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "employees_department_counts_insert" AFTER INSERT ON "employees"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "employees_department_counts"();
CREATE TRIGGER "employees_department_counts_update" AFTER UPDATE ON "employees"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "employees_department_counts"();
CREATE TRIGGER "employees_department_counts_delete" AFTER DELETE ON "employees"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "employees_department_counts"();

-- Employees that existed before the counts did.
INSERT INTO "employee_department_counts" ("tenant_id", "department", "live_count")
SELECT "tenant_id", "department", count(*) FROM "employees" WHERE "deleted_at" IS NULL GROUP BY "tenant_id", "department";
