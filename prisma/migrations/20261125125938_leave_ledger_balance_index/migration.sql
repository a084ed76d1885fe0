-- Leave balances of a page of employees (GET /api/leave-balances) sum the ledger per employee,
-- period, type and kind: with every column they read in one index, those are index-only scans
-- instead of a heap visit per ledger entry (the ledger is append-only, so the visibility map stays set).
-- CreateIndex
CREATE INDEX "leave_ledger_entries_balance_idx" ON "leave_ledger_entries"("tenant_id", "employee_id", "period_id", "leave_type_id", "entry_type", "days");
