-- Change stamps for cursor walks, updated_since and tombstones (issue 32 part 4; src/http/cursor.ts,
-- src/db/keyset.ts). Every INSERT and UPDATE of a stamped table - soft deletes, raw-SQL updates and
-- Prisma's alike - sets, in the database:
--   change_xid  the writing transaction's id (pg_current_xact_id(), 64 bits, never wraps): the walk's
--               order is (change_xid, id), and a walk only returns rows whose change_xid is below
--               every transaction of this database still in progress for the reading snapshot, so no
--               row can later appear behind a cursor (no hold-back timer; a transaction still open
--               holds the walk back until it ends: a short page, then on from the cursor);
--   changed_at  the database clock (clock_timestamp()) of the change: what `updated_since` filters.
-- Rows from before this migration get change_xid 1 (first in the walk) and the migration's time.
-- The keyset index has no `deleted_at IS NULL` predicate: tombstones are walked too.
CREATE FUNCTION change_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.change_xid := pg_current_xact_id();
  NEW.changed_at := clock_timestamp();
  RETURN NEW;
END
$$;

-- AlterTable
ALTER TABLE "employees" ADD COLUMN     "change_xid" xid8 NOT NULL DEFAULT '1'::xid8,
ADD COLUMN     "changed_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- CreateIndex
CREATE INDEX "employees_change_idx" ON "employees"("tenant_id", "change_xid", "id");

CREATE TRIGGER employees_change_stamp BEFORE INSERT OR UPDATE ON "employees"
  FOR EACH ROW EXECUTE FUNCTION change_stamp();

-- The other lists walked by cursor (issue 32: attendance, leave requests and ledger, the activity
-- log, candidates, tickets, assets, slips, claims, loans, notifications): the same stamp, index and trigger.
-- AlterTable
ALTER TABLE "assets" ADD COLUMN     "change_xid" xid8 NOT NULL DEFAULT '1'::xid8,
ADD COLUMN     "changed_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- AlterTable
ALTER TABLE "attendance_records" ADD COLUMN     "change_xid" xid8 NOT NULL DEFAULT '1'::xid8,
ADD COLUMN     "changed_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- AlterTable
ALTER TABLE "audit_logs" ADD COLUMN     "change_xid" xid8 NOT NULL DEFAULT '1'::xid8,
ADD COLUMN     "changed_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- AlterTable
ALTER TABLE "candidates" ADD COLUMN     "change_xid" xid8 NOT NULL DEFAULT '1'::xid8,
ADD COLUMN     "changed_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- AlterTable
ALTER TABLE "expense_claims" ADD COLUMN     "change_xid" xid8 NOT NULL DEFAULT '1'::xid8,
ADD COLUMN     "changed_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- AlterTable
ALTER TABLE "helpdesk_tickets" ADD COLUMN     "change_xid" xid8 NOT NULL DEFAULT '1'::xid8,
ADD COLUMN     "changed_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- AlterTable
ALTER TABLE "leave_ledger_entries" ADD COLUMN     "change_xid" xid8 NOT NULL DEFAULT '1'::xid8,
ADD COLUMN     "changed_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- AlterTable
ALTER TABLE "leave_requests" ADD COLUMN     "change_xid" xid8 NOT NULL DEFAULT '1'::xid8,
ADD COLUMN     "changed_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- AlterTable
ALTER TABLE "loan_advances" ADD COLUMN     "change_xid" xid8 NOT NULL DEFAULT '1'::xid8,
ADD COLUMN     "changed_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- AlterTable
ALTER TABLE "notifications" ADD COLUMN     "change_xid" xid8 NOT NULL DEFAULT '1'::xid8,
ADD COLUMN     "changed_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- AlterTable
ALTER TABLE "payroll_slips" ADD COLUMN     "change_xid" xid8 NOT NULL DEFAULT '1'::xid8,
ADD COLUMN     "changed_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- CreateIndex
CREATE INDEX "assets_change_idx" ON "assets"("tenant_id", "change_xid", "id");

-- CreateIndex
CREATE INDEX "attendance_records_change_idx" ON "attendance_records"("tenant_id", "change_xid", "id");

-- CreateIndex
CREATE INDEX "audit_logs_change_idx" ON "audit_logs"("tenant_id", "change_xid", "id");

-- CreateIndex
CREATE INDEX "candidates_change_idx" ON "candidates"("tenant_id", "change_xid", "id");

-- CreateIndex
CREATE INDEX "expense_claims_change_idx" ON "expense_claims"("tenant_id", "change_xid", "id");

-- CreateIndex
CREATE INDEX "helpdesk_tickets_change_idx" ON "helpdesk_tickets"("tenant_id", "change_xid", "id");

-- CreateIndex
CREATE INDEX "leave_ledger_entries_change_idx" ON "leave_ledger_entries"("tenant_id", "change_xid", "id");

-- CreateIndex
CREATE INDEX "leave_requests_change_idx" ON "leave_requests"("tenant_id", "change_xid", "id");

-- CreateIndex
CREATE INDEX "loan_advances_change_idx" ON "loan_advances"("tenant_id", "change_xid", "id");

-- CreateIndex
CREATE INDEX "notifications_change_idx" ON "notifications"("tenant_id", "change_xid", "id");

-- CreateIndex
CREATE INDEX "payroll_slips_change_idx" ON "payroll_slips"("tenant_id", "change_xid", "id");

CREATE TRIGGER assets_change_stamp BEFORE INSERT OR UPDATE ON "assets" FOR EACH ROW EXECUTE FUNCTION change_stamp();
CREATE TRIGGER attendance_records_change_stamp BEFORE INSERT OR UPDATE ON "attendance_records" FOR EACH ROW EXECUTE FUNCTION change_stamp();
CREATE TRIGGER audit_logs_change_stamp BEFORE INSERT OR UPDATE ON "audit_logs" FOR EACH ROW EXECUTE FUNCTION change_stamp();
CREATE TRIGGER candidates_change_stamp BEFORE INSERT OR UPDATE ON "candidates" FOR EACH ROW EXECUTE FUNCTION change_stamp();
CREATE TRIGGER expense_claims_change_stamp BEFORE INSERT OR UPDATE ON "expense_claims" FOR EACH ROW EXECUTE FUNCTION change_stamp();
CREATE TRIGGER helpdesk_tickets_change_stamp BEFORE INSERT OR UPDATE ON "helpdesk_tickets" FOR EACH ROW EXECUTE FUNCTION change_stamp();
CREATE TRIGGER leave_ledger_entries_change_stamp BEFORE INSERT OR UPDATE ON "leave_ledger_entries" FOR EACH ROW EXECUTE FUNCTION change_stamp();
CREATE TRIGGER leave_requests_change_stamp BEFORE INSERT OR UPDATE ON "leave_requests" FOR EACH ROW EXECUTE FUNCTION change_stamp();
CREATE TRIGGER loan_advances_change_stamp BEFORE INSERT OR UPDATE ON "loan_advances" FOR EACH ROW EXECUTE FUNCTION change_stamp();
CREATE TRIGGER notifications_change_stamp BEFORE INSERT OR UPDATE ON "notifications" FOR EACH ROW EXECUTE FUNCTION change_stamp();
CREATE TRIGGER payroll_slips_change_stamp BEFORE INSERT OR UPDATE ON "payroll_slips" FOR EACH ROW EXECUTE FUNCTION change_stamp();
