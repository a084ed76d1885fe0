-- OSH Code 2020 s.32 (in force from 2025-11-21): leave carried forward is capped at 30 days and the
-- excess is encashed at the end of the year. A leave type may now say so: at the allocation of the
-- next period (the close of the previous one) the unused days above the carry-forward cap become an
-- approved leave encashment of the closing period, which the next payroll run pays. Off for every
-- existing type: nothing changes until a company switches it on.
ALTER TABLE "leave_types" ADD COLUMN "encash_carry_forward_excess" BOOLEAN NOT NULL DEFAULT false;
