-- The balances page's figures of an account as JSON text (the LeaveBalance fields from `allocated`
-- to `available`, in the document's order and form: DECIMAL(10,1) prints "12.0"), kept by a row
-- trigger from the account's sums on every insert and update of leave_balance_totals, so that a page
-- of 100 employees copies 300 strings instead of formatting 3 000 numbers.

-- AlterTable
ALTER TABLE "leave_balance_totals" ADD COLUMN     "figures" TEXT NOT NULL DEFAULT '';

CREATE FUNCTION leave_balance_totals_figures() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.figures := '"allocated":"' || NEW.allocated || '","carried":"' || NEW.carried
    || '","accrued":"' || NEW.accrued || '","comp_off":"' || NEW.comp_off
    || '","adjusted":"' || NEW.adjusted || '","expired":"' || -NEW.expired
    || '","taken":"' || -NEW.taken || '","pending":"' || NEW.pending
    || '","encashed":"' || -NEW.encashed || '","available":"' || (NEW.ledger - NEW.pending) || '"';
  RETURN NEW;
END;
$$;

CREATE TRIGGER leave_balance_totals_figures
  BEFORE INSERT OR UPDATE ON "leave_balance_totals"
  FOR EACH ROW EXECUTE FUNCTION leave_balance_totals_figures();

UPDATE "leave_balance_totals" SET "figures" = '';
