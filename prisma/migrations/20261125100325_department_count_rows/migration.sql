-- Department counts without a hot row: concurrent creates in one department used to upsert the
-- same (tenant, department) row, so each waited until the previous create's transaction ended.
-- A department's count is now the sum of its rows; each write adds its change to a row no other
-- transaction holds, or to a new row when all are held.

-- AlterTable
ALTER TABLE "employee_department_counts" DROP CONSTRAINT "employee_department_counts_pkey",
ADD COLUMN     "id" BIGSERIAL NOT NULL,
ADD CONSTRAINT "employee_department_counts_pkey" PRIMARY KEY ("id");

-- CreateIndex
CREATE INDEX "employee_department_counts_tenant_id_department_idx" ON "employee_department_counts"("tenant_id", "department");

-- Written by hand (Prisma does not model triggers); the triggers of 20261122021014 call it.
-- Per (tenant, department) changed by the statement: add the change to one of the department's
-- rows that no other transaction has locked (FOR UPDATE SKIP LOCKED: never waits, so never
-- deadlocks; rows this transaction already holds are reused), else insert a new row. A department
-- thus has at most as many rows as writes that overlapped in it; the list sums them.
CREATE FUNCTION "employee_department_counts_add"(t uuid, dep text, n int) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  target bigint;
BEGIN
  SELECT c."id" INTO target FROM "employee_department_counts" c
   WHERE c."tenant_id" = t AND c."department" = dep
   ORDER BY c."id" LIMIT 1 FOR UPDATE SKIP LOCKED;
  IF FOUND THEN
    UPDATE "employee_department_counts" SET "live_count" = "live_count" + n WHERE "id" = target;
  ELSE
    INSERT INTO "employee_department_counts" ("tenant_id", "department", "live_count") VALUES (t, dep, n);
  END IF;
END
$$;

CREATE OR REPLACE FUNCTION "employees_department_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  IF TG_OP = 'INSERT' THEN
    FOR r IN SELECT "tenant_id", "department", count(*)::int AS n FROM new_rows WHERE "deleted_at" IS NULL
             GROUP BY "tenant_id", "department" ORDER BY "tenant_id", "department" LOOP
      PERFORM "employee_department_counts_add"(r."tenant_id", r."department", r.n);
    END LOOP;
  ELSIF TG_OP = 'UPDATE' THEN
    FOR r IN SELECT "tenant_id", "department", sum(d)::int AS n FROM (
               SELECT "tenant_id", "department", 1 AS d FROM new_rows WHERE "deleted_at" IS NULL
               UNION ALL
               SELECT "tenant_id", "department", -1 AS d FROM old_rows WHERE "deleted_at" IS NULL
             ) x
             GROUP BY "tenant_id", "department" HAVING sum(d) <> 0 ORDER BY "tenant_id", "department" LOOP
      PERFORM "employee_department_counts_add"(r."tenant_id", r."department", r.n);
    END LOOP;
  ELSE
    FOR r IN SELECT "tenant_id", "department", -count(*)::int AS n FROM old_rows WHERE "deleted_at" IS NULL
             GROUP BY "tenant_id", "department" ORDER BY "tenant_id", "department" LOOP
      PERFORM "employee_department_counts_add"(r."tenant_id", r."department", r.n);
    END LOOP;
  END IF;
  RETURN NULL;
END
$$;
