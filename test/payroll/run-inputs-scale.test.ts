// The inputs a run reads for every employee of the company at once: each read must take any number
// of employees. A list of ids in one statement is one bind parameter per id, and PostgreSQL takes at
// most 65 535 - a run of 100 000 employees failed with an internal error before its first slip.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { db, withTenant } from "../../src/db/tenancy.ts";
import { absencesBetween } from "../../src/modules/attendance/index.ts";
import { approvedLeaveBetween, encashmentsToPay } from "../../src/modules/leave/index.ts";
import { yearFacts } from "../../src/modules/payroll/income-tax/year.ts";
import { useTestApp } from "../support/app.ts";
import { payrollEmployee, payrollWorld, type PayrollWorld } from "./fixtures.ts";

const t = useTestApp();
let w: PayrollWorld;
let a: string;
let encashmentId: string;
// ids of no employee around the one that has the records: more than a statement can bind
const many = () => [...Array.from({ length: 40_000 }, randomUUID), a, ...Array.from({ length: 30_000 }, randomUUID)];

beforeAll(async () => {
  w = await payrollWorld(t);
  a = await payrollEmployee(t, w, "40000.00", { first_name: "Arjun", last_name: "Rao", employee_code: "S-001" });
  const tenant = w.owner.tenantId;
  const [period] = await t.query(
    `INSERT INTO leave_periods (tenant_id, name, start_date, end_date) VALUES ($1, 'FY', '2027-01-01', '2027-12-31') RETURNING id`,
    [tenant],
  );
  const [el] = await t.query(
    `INSERT INTO leave_types (tenant_id, name, code, encashable, is_paid) VALUES ($1, 'Earned leave', 'EL', true, false) RETURNING id`,
    [tenant],
  );
  const [enc] = await t.query<{ id: string }>(
    `INSERT INTO leave_encashments (tenant_id, employee_id, leave_type_id, period_id, days, status)
     VALUES ($1, $2, $3, $4, 2.0, 'approved') RETURNING id`,
    [tenant, a, el.id, period.id],
  );
  encashmentId = enc.id;
  await t.query(
    `INSERT INTO leave_requests (tenant_id, employee_id, leave_type_id, period_id, from_date, to_date, days, status)
     VALUES ($1, $2, $3, $4, '2027-02-10', '2027-02-11', 2.0, 'approved')`,
    [tenant, a, el.id, period.id],
  );
  await t.query(`INSERT INTO tax_profiles (tenant_id, employee_id, tax_year, regime) VALUES ($1, $2, '2026-27', 'old')`, [tenant, a]);
  await t.query(
    `INSERT INTO tax_declarations (tenant_id, employee_id, tax_year, section, description, amount)
                 VALUES ($1, $2, '2026-27', '80C', 'PPF', 150000)`,
    [tenant, a],
  );
  await t.query(`UPDATE employees SET pan_number = 'ABCPR1234F' WHERE tenant_id = $1 AND id = $2`, [tenant, a]);
  await t.query(`INSERT INTO attendance_records (tenant_id, employee_id, date, status) VALUES ($1, $2, '2027-02-03', 'absent')`, [
    tenant,
    a,
  ]);
});

describe("a run's inputs for 70 000 employees", () => {
  it("reads the income-tax facts of the year (profile, declarations, PAN) of every one of them", async () => {
    const employees = many().map((id) => ({ id, date_of_birth: null }));
    const facts = await withTenant(w.owner.tenantId, () => yearFacts(db, "2026-27", employees, null, "declared", () => null));
    expect(facts.size).toBe(70_001);
    const f = facts.get(a)!;
    expect([f.profile.regime, f.profile.pan, f.declared["80C"]?.toFixed(2)]).toEqual(["old", "ABCPR1234F", "150000.00"]);
  });

  it("reads the encashments to pay, the approved leave and the absences of every one of them", async () => {
    await withTenant(w.owner.tenantId, async () => {
      expect((await encashmentsToPay(db, many())).map((x) => [x.id, x.employee_id, x.days])).toEqual([[encashmentId, a, "2.0"]]);
      expect((await approvedLeaveBetween(db, many(), "2027-02-01", "2027-02-28")).map((l) => [l.employee_id, l.from, l.days])).toEqual([
        [a, "2027-02-10", "2.0"],
      ]);
      expect((await absencesBetween(db, many(), "2027-02-01", "2027-02-28")).map((x) => [x.employee_id, x.date])).toEqual([
        [a, "2027-02-03"],
      ]);
    });
  });
});
