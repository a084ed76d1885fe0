-- Leave balances page (GET /api/leave-balances) without re-aggregating the ledger on every request:
-- per account (employee, period, leave type) the sums it shows, kept by statement-level triggers in
-- the transaction of every write they derive from (see prisma/schema/leave.prisma, LeaveBalanceTotal).
-- The ledger is append-only (UPDATE and DELETE are refused), so its totals change only by INSERT;
-- pending reservations change by any write to leave_requests or leave_encashments. Each statement
-- adds its rows' net change per account, accounts in key order (concurrent statements lock the rows
-- of the accounts they share in the same order). Existing data is summed at the end.

-- CreateTable
CREATE TABLE "leave_balance_totals" (
    "tenant_id" UUID NOT NULL DEFAULT (NULLIF(current_setting('hrms.tenant_id'::text, true), ''::text))::uuid,
    "employee_id" UUID NOT NULL,
    "period_id" UUID NOT NULL,
    "leave_type_id" UUID NOT NULL,
    "allocated" DECIMAL(10,1) NOT NULL DEFAULT 0,
    "carried" DECIMAL(10,1) NOT NULL DEFAULT 0,
    "accrued" DECIMAL(10,1) NOT NULL DEFAULT 0,
    "comp_off" DECIMAL(10,1) NOT NULL DEFAULT 0,
    "adjusted" DECIMAL(10,1) NOT NULL DEFAULT 0,
    "expired" DECIMAL(10,1) NOT NULL DEFAULT 0,
    "taken" DECIMAL(10,1) NOT NULL DEFAULT 0,
    "encashed" DECIMAL(10,1) NOT NULL DEFAULT 0,
    "ledger" DECIMAL(10,1) NOT NULL DEFAULT 0,
    "entries" INTEGER NOT NULL DEFAULT 0,
    "expiring" INTEGER NOT NULL DEFAULT 0,
    "pending" DECIMAL(10,1) NOT NULL DEFAULT 0,
    "pendings" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "leave_balance_totals_pkey" PRIMARY KEY ("tenant_id","employee_id","period_id","leave_type_id")
);

-- AddForeignKey
ALTER TABLE "leave_balance_totals" ADD CONSTRAINT "leave_balance_totals_tenant_id_employee_id_fkey" FOREIGN KEY ("tenant_id", "employee_id") REFERENCES "employees"("tenant_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "leave_balance_totals" ADD CONSTRAINT "leave_balance_totals_tenant_id_leave_type_id_fkey" FOREIGN KEY ("tenant_id", "leave_type_id") REFERENCES "leave_types"("tenant_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "leave_balance_totals" ADD CONSTRAINT "leave_balance_totals_tenant_id_period_id_fkey" FOREIGN KEY ("tenant_id", "period_id") REFERENCES "leave_periods"("tenant_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- Ledger entries: their days by kind, added per account.
CREATE FUNCTION leave_balance_totals_add_entries() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO leave_balance_totals AS b (tenant_id, employee_id, period_id, leave_type_id, allocated, carried, accrued,
                                         comp_off, adjusted, expired, taken, encashed, ledger, entries, expiring)
  SELECT n.tenant_id, n.employee_id, n.period_id, n.leave_type_id,
         coalesce(sum(n.days) FILTER (WHERE n.entry_type = 'allocation'), 0),
         coalesce(sum(n.days) FILTER (WHERE n.entry_type = 'carry_forward'), 0),
         coalesce(sum(n.days) FILTER (WHERE n.entry_type = 'accrual'), 0),
         coalesce(sum(n.days) FILTER (WHERE n.entry_type = 'comp_off'), 0),
         coalesce(sum(n.days) FILTER (WHERE n.entry_type = 'adjustment'), 0),
         coalesce(sum(n.days) FILTER (WHERE n.entry_type = 'expiry'), 0),
         coalesce(sum(n.days) FILTER (WHERE n.entry_type IN ('taken', 'cancelled')), 0),
         coalesce(sum(n.days) FILTER (WHERE n.entry_type = 'encashed'), 0),
         sum(n.days), count(*),
         count(*) FILTER (WHERE n.entry_type IN ('carry_forward', 'comp_off') AND n.expires_on IS NOT NULL)
    FROM new_entries n
   GROUP BY n.tenant_id, n.employee_id, n.period_id, n.leave_type_id
   ORDER BY n.tenant_id, n.employee_id, n.period_id, n.leave_type_id
  ON CONFLICT (tenant_id, employee_id, period_id, leave_type_id) DO UPDATE
     SET allocated = b.allocated + excluded.allocated, carried = b.carried + excluded.carried,
         accrued = b.accrued + excluded.accrued, comp_off = b.comp_off + excluded.comp_off,
         adjusted = b.adjusted + excluded.adjusted, expired = b.expired + excluded.expired,
         taken = b.taken + excluded.taken, encashed = b.encashed + excluded.encashed,
         ledger = b.ledger + excluded.ledger, entries = b.entries + excluded.entries,
         expiring = b.expiring + excluded.expiring;
  RETURN NULL;
END;
$$;

CREATE TRIGGER leave_ledger_entries_balance_totals
  AFTER INSERT ON "leave_ledger_entries" REFERENCING NEW TABLE AS new_entries
  FOR EACH STATEMENT EXECUTE FUNCTION leave_balance_totals_add_entries();

-- Pending leave requests and pending encashments (same columns): a row counts while its status is
-- 'pending'; a statement adds its new rows that are pending and takes away its old rows that were
-- (an update moves the days when it changes the status, the days or the account).
CREATE FUNCTION leave_balance_totals_move_reservations() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO leave_balance_totals AS b (tenant_id, employee_id, period_id, leave_type_id, pending, pendings)
    SELECT n.tenant_id, n.employee_id, n.period_id, n.leave_type_id, sum(n.days), count(*)
      FROM new_rows n WHERE n.status = 'pending'
     GROUP BY n.tenant_id, n.employee_id, n.period_id, n.leave_type_id
     ORDER BY n.tenant_id, n.employee_id, n.period_id, n.leave_type_id
    ON CONFLICT (tenant_id, employee_id, period_id, leave_type_id) DO UPDATE
       SET pending = b.pending + excluded.pending, pendings = b.pendings + excluded.pendings;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO leave_balance_totals AS b (tenant_id, employee_id, period_id, leave_type_id, pending, pendings)
    SELECT o.tenant_id, o.employee_id, o.period_id, o.leave_type_id, -sum(o.days), -count(*)
      FROM old_rows o WHERE o.status = 'pending'
     GROUP BY o.tenant_id, o.employee_id, o.period_id, o.leave_type_id
     ORDER BY o.tenant_id, o.employee_id, o.period_id, o.leave_type_id
    ON CONFLICT (tenant_id, employee_id, period_id, leave_type_id) DO UPDATE
       SET pending = b.pending + excluded.pending, pendings = b.pendings + excluded.pendings;
  ELSE
    INSERT INTO leave_balance_totals AS b (tenant_id, employee_id, period_id, leave_type_id, pending, pendings)
    SELECT d.tenant_id, d.employee_id, d.period_id, d.leave_type_id, sum(d.days), sum(d.n)
      FROM (SELECT n.tenant_id, n.employee_id, n.period_id, n.leave_type_id, n.days, 1 AS n
              FROM new_rows n WHERE n.status = 'pending'
            UNION ALL
            SELECT o.tenant_id, o.employee_id, o.period_id, o.leave_type_id, -o.days, -1
              FROM old_rows o WHERE o.status = 'pending') d
     GROUP BY d.tenant_id, d.employee_id, d.period_id, d.leave_type_id
    HAVING sum(d.days) <> 0 OR sum(d.n) <> 0
     ORDER BY d.tenant_id, d.employee_id, d.period_id, d.leave_type_id
    ON CONFLICT (tenant_id, employee_id, period_id, leave_type_id) DO UPDATE
       SET pending = b.pending + excluded.pending, pendings = b.pendings + excluded.pendings;
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER leave_requests_balance_totals_insert
  AFTER INSERT ON "leave_requests" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION leave_balance_totals_move_reservations();
CREATE TRIGGER leave_requests_balance_totals_update
  AFTER UPDATE ON "leave_requests" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION leave_balance_totals_move_reservations();
CREATE TRIGGER leave_requests_balance_totals_delete
  AFTER DELETE ON "leave_requests" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION leave_balance_totals_move_reservations();
CREATE TRIGGER leave_encashments_balance_totals_insert
  AFTER INSERT ON "leave_encashments" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION leave_balance_totals_move_reservations();
CREATE TRIGGER leave_encashments_balance_totals_update
  AFTER UPDATE ON "leave_encashments" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION leave_balance_totals_move_reservations();
CREATE TRIGGER leave_encashments_balance_totals_delete
  AFTER DELETE ON "leave_encashments" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION leave_balance_totals_move_reservations();

-- Every account's totals summed afresh from the three tables (the backfill below; and after a TRUNCATE
-- of one of them, which row and statement triggers do not see).
CREATE FUNCTION leave_balance_totals_rebuild() RETURNS void LANGUAGE sql AS $$
DELETE FROM leave_balance_totals;
INSERT INTO leave_balance_totals (tenant_id, employee_id, period_id, leave_type_id, allocated, carried, accrued, comp_off,
                                  adjusted, expired, taken, encashed, ledger, entries, expiring, pending, pendings)
SELECT u.tenant_id, u.employee_id, u.period_id, u.leave_type_id,
       coalesce(sum(u.days) FILTER (WHERE u.kind = 'allocation'), 0),
       coalesce(sum(u.days) FILTER (WHERE u.kind = 'carry_forward'), 0),
       coalesce(sum(u.days) FILTER (WHERE u.kind = 'accrual'), 0),
       coalesce(sum(u.days) FILTER (WHERE u.kind = 'comp_off'), 0),
       coalesce(sum(u.days) FILTER (WHERE u.kind = 'adjustment'), 0),
       coalesce(sum(u.days) FILTER (WHERE u.kind = 'expiry'), 0),
       coalesce(sum(u.days) FILTER (WHERE u.kind IN ('taken', 'cancelled')), 0),
       coalesce(sum(u.days) FILTER (WHERE u.kind = 'encashed'), 0),
       coalesce(sum(u.days) FILTER (WHERE u.kind <> 'pending'), 0),
       count(*) FILTER (WHERE u.kind <> 'pending'),
       count(*) FILTER (WHERE u.kind IN ('carry_forward', 'comp_off') AND u.expires_on IS NOT NULL),
       coalesce(sum(u.days) FILTER (WHERE u.kind = 'pending'), 0),
       count(*) FILTER (WHERE u.kind = 'pending')
  FROM (SELECT l.tenant_id, l.employee_id, l.period_id, l.leave_type_id, l.entry_type AS kind, l.days, l.expires_on
          FROM leave_ledger_entries l
        UNION ALL
        SELECT q.tenant_id, q.employee_id, q.period_id, q.leave_type_id, 'pending', q.days, NULL FROM leave_requests q
         WHERE q.status = 'pending'
        UNION ALL
        SELECT x.tenant_id, x.employee_id, x.period_id, x.leave_type_id, 'pending', x.days, NULL FROM leave_encashments x
         WHERE x.status = 'pending') u
 GROUP BY u.tenant_id, u.employee_id, u.period_id, u.leave_type_id;
$$;

CREATE FUNCTION leave_balance_totals_after_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM leave_balance_totals_rebuild();
  RETURN NULL;
END;
$$;
CREATE TRIGGER leave_ledger_entries_balance_totals_truncate AFTER TRUNCATE ON "leave_ledger_entries"
  FOR EACH STATEMENT EXECUTE FUNCTION leave_balance_totals_after_truncate();
CREATE TRIGGER leave_requests_balance_totals_truncate AFTER TRUNCATE ON "leave_requests"
  FOR EACH STATEMENT EXECUTE FUNCTION leave_balance_totals_after_truncate();
CREATE TRIGGER leave_encashments_balance_totals_truncate AFTER TRUNCATE ON "leave_encashments"
  FOR EACH STATEMENT EXECUTE FUNCTION leave_balance_totals_after_truncate();

-- The totals of the data already there (the tables locked first: no write slips between the sums
-- and the triggers).
LOCK TABLE "leave_ledger_entries", "leave_requests", "leave_encashments" IN SHARE ROW EXCLUSIVE MODE;
SELECT leave_balance_totals_rebuild();
