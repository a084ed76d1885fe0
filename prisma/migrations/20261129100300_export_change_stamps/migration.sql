-- The change stamp of the cursor walks (20261129100000_change_stamps) on the tables bulk exports
-- filter by `updated_since` but no list walks: holidays, leave allocations (which had no updated_at)
-- and salary setups. Set by the same trigger on every INSERT and UPDATE, raw SQL included; no keyset
-- index (an export reads the company's rows in order of id anyway).
-- AlterTable
ALTER TABLE "employee_salary_setups" ADD COLUMN     "change_xid" xid8 NOT NULL DEFAULT '1'::xid8,
ADD COLUMN     "changed_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- AlterTable
ALTER TABLE "holidays" ADD COLUMN     "change_xid" xid8 NOT NULL DEFAULT '1'::xid8,
ADD COLUMN     "changed_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- AlterTable
ALTER TABLE "leave_allocations" ADD COLUMN     "change_xid" xid8 NOT NULL DEFAULT '1'::xid8,
ADD COLUMN     "changed_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP;

CREATE TRIGGER employee_salary_setups_change_stamp BEFORE INSERT OR UPDATE ON "employee_salary_setups"
  FOR EACH ROW EXECUTE FUNCTION change_stamp();
CREATE TRIGGER holidays_change_stamp BEFORE INSERT OR UPDATE ON "holidays"
  FOR EACH ROW EXECUTE FUNCTION change_stamp();
CREATE TRIGGER leave_allocations_change_stamp BEFORE INSERT OR UPDATE ON "leave_allocations"
  FOR EACH ROW EXECUTE FUNCTION change_stamp();
