-- The labour codes' single definition of wages (Code on Wages 2019 s.2(y), Code on Social Security
-- 2020 s.2(88)): each salary component says what it is for it - `wages` (basic pay, DA, retaining
-- allowance), `excluded` (clauses (a) to (i): HRA, conveyance, commission, overtime, ...; tested
-- against the 50 % limit), `gratuity_retrenchment` (clauses (j), (k)) or `outside_remuneration`.
-- Existing components are classified from the flag that priced gratuity, encashment and PF until
-- now: an earning flagged `pf_wage` (basic + DA) is `wages`, a deduction is outside remuneration
-- (its class is not read), any other earning an exclusion. Nothing stored is recomputed: processed
-- runs and settlements keep their figures in their rows.
-- AlterTable
ALTER TABLE "salary_components" ADD COLUMN     "wage_class" TEXT NOT NULL DEFAULT 'excluded';

UPDATE "salary_components" SET "wage_class" = 'wages' WHERE "pf_wage" AND "type" = 'earning';
UPDATE "salary_components" SET "wage_class" = 'outside_remuneration' WHERE "type" = 'deduction';
