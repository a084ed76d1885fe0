-- The digest of the inputs a run's stored slips were calculated from (the company's facts, then one
-- per batch of employees): processing reuses the slips when the inputs read again give the same
-- digests, instead of calculating them a second time. Expand only: empty for existing runs, which
-- processing then calculates as before.
ALTER TABLE payroll_runs ADD COLUMN inputs_digest text[] NOT NULL DEFAULT '{}';
