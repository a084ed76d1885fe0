-- The leave ledger is append-only: a balance is the sum of its entries, corrections are new
-- entries (reversals, adjustments with a reason). UPDATE and DELETE are refused.
CREATE FUNCTION leave_ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'leave_ledger_entries is append-only (% refused)', TG_OP;
END;
$$;

CREATE TRIGGER leave_ledger_entries_append_only
  BEFORE UPDATE OR DELETE ON "leave_ledger_entries"
  FOR EACH ROW EXECUTE FUNCTION leave_ledger_append_only();
