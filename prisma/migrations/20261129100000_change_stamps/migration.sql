-- Change stamps for cursor walks, updated_since and tombstones (issue 32 part 4; src/http/cursor.ts,
-- src/db/keyset.ts). Every INSERT and UPDATE of a stamped table - soft deletes, raw-SQL updates and
-- Prisma's alike - sets, in the database:
--   change_xid  the writing transaction's id (pg_current_xact_id(), 64 bits, never wraps): the walk's
--               order is (change_xid, id), and a walk only returns rows whose change_xid is below
--               the reading snapshot's xmin - every transaction below it has finished, so no row can
--               later appear behind a cursor (no hold-back timer; a transaction still open holds the
--               walk back until it ends, at most DATABASE_TRANSACTION_TIMEOUT_MS);
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
