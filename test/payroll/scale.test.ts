// A run over a few hundred employees (PAYROLL_SCALE_EMPLOYEES to change, e.g. 5000 for a
// measurement): the calculation is set-based, so the number of statements does not grow with the
// number of employees. No timing assertion - the measured figure goes into the report.
// The run is calculated and processed within the request (the limit is raised to N for a
// larger measurement); test/payroll/jobs.test.ts covers queued runs, scripts/measure/bench-payroll.ts
// measures 10 000 employees through the queue.
import { beforeAll, describe, expect, it } from "vitest";
import { processConfig } from "../../src/config.ts";
import { useTestApp } from "../support/app.ts";
import { payrollWorld, type PayrollWorld, unpaidLeave2027 } from "./fixtures.ts";
import { api } from "../support/api.ts";

const N = Number(process.env.PAYROLL_SCALE_EMPLOYEES ?? 300);
const t = useTestApp({ config: { payrollSyncLimit: Math.max(processConfig.payrollSyncLimit, N) } });
let w: PayrollWorld;

beforeAll(async () => {
  w = await payrollWorld(t);
  const tenant = w.owner.tenantId;
  await t.query(
    `INSERT INTO employees (tenant_id, employee_code, first_name, last_name, ` +
      `email, department, designation, joining_date, gender, state, date_of_birth)
     SELECT $1, 'S-' || lpad(g::text, 6, '0'), 'Scale', 'Person ' || g, 'scale' || g || '@example.test', 'Ops', 'Associate',
            CASE WHEN g % 10 = 0 THEN DATE '2027-03-16' ELSE DATE '2021-01-04' END,
            CASE WHEN g % 2 = 0 THEN 'female' ELSE 'male' END, CASE WHEN g % 3 = 0 THEN 'Karnataka' ELSE 'Maharashtra' END,
            CASE WHEN g % 25 = 0 THEN DATE '1960-01-01' ELSE DATE '1992-06-01' END
       FROM generate_series(1, $2::int) g`,
    [tenant, N],
  );
  await t.query(
    `INSERT INTO employee_salary_setups (tenant_id, employee_id, effective_from, monthly_ctc, all_components, esi_enabled)
     SELECT $1, id, DATE '2024-04-01', 12000 + (substring(employee_code from 3)::int % 40) ` +
      `* 1000, true, true FROM employees WHERE tenant_id = $1 AND employee_code LIKE 'S-%'`,
    [tenant],
  );
  const { periodId, lwpId } = await unpaidLeave2027(t, tenant);
  await t.query(
    `INSERT INTO leave_requests (tenant_id, employee_id, leave_type_id, period_id, from_date, to_date, days, status)
     SELECT $1, id, $2, $3, DATE '2027-03-09', DATE '2027-03-10', 2.0, 'approved' FROM employees WHERE ` +
      `tenant_id = $1 AND employee_code LIKE 'S-%' AND substring(employee_code from 3)::int % 7 = 0`,
    [tenant, lwpId, periodId],
  );
  await t.query(
    `INSERT INTO attendance_records (tenant_id, employee_id, date, status)
     SELECT $1, id, DATE '2027-03-03', 'absent' FROM employees WHERE tenant_id = $1 ` +
      `AND employee_code LIKE 'S-%' AND substring(employee_code from 3)::int % 5 = 0`,
    [tenant],
  );
});

describe(`a run of ${N} employees`, () => {
  it("calculates and processes every employee set-based, totals equal the sum of the slips", async () => {
    const t0 = Date.now();
    const run = await api(w.hr.agent)
      .op("createPayrollRun", { body: { period: "2027-03" } })
      .expect(201);
    const t1 = Date.now();
    expect(run.body.data.employee_count).toBe(N);
    const processed = await api(w.hr.agent)
      .op("processPayrollRun", { params: { id: run.body.data.id } })
      .expect(200);
    const t2 = Date.now();
    if (process.env.PAYROLL_SCALE_EMPLOYEES) console.log(`payroll scale: ${N} employees - draft ${t1 - t0} ms, process ${t2 - t1} ms`);
    expect(processed.body.data.status).toBe("processed");
    const [sum] = await t.query(
      `SELECT count(*)::int AS n, sum(gross)::text AS gross, sum(net_pay)::text AS net, ` +
        `count(slip_number)::int AS numbered, count(*) FILTER (WHERE lop_days > 0)::int AS with_lop
         FROM payroll_slips WHERE run_id = $1`,
      [run.body.data.id],
    );
    expect(sum.n).toBe(N);
    expect(sum.numbered).toBe(N);
    // numbered gap-free in employee-code order: PS-202703-00001 to N
    const [order] = await t.query(
      `SELECT count(*) FILTER (WHERE slip_number <> 'PS-202703-' || lpad(seq::text, 5, '0'))::int AS out_of_order
         FROM (SELECT slip_number, row_number() OVER (ORDER BY employee_code) AS seq FROM payroll_slips WHERE run_id = $1) q`,
      [run.body.data.id],
    );
    expect(order.out_of_order).toBe(0);
    expect(sum.with_lop).toBeGreaterThan(0);
    expect(sum.gross).toBe(processed.body.data.total_gross);
    expect(sum.net).toBe(processed.body.data.total_net);
    const t3 = processed.body.data.totals!;
    expect(t3.pf.members).toBe(N);
    expect(t3.esi.members).toBeGreaterThan(0);
    const page = await api(w.hr.agent)
      .op("getPayrollRunBreakdown", { params: { id: run.body.data.id }, query: { page: 2, limit: 100 } })
      .expect(200);
    expect(page.body.data.employees).toHaveLength(Math.min(100, Math.max(0, N - 100)));
  });
});
