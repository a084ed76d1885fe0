// Payroll runs without HTTP: the use cases (src/modules/payroll/runs.ts, my-salary.ts) called
// directly inside the tenant, against the test database. One employee's slip worked out by hand -
// a mid-month joiner with PF, ESI, professional tax, a loan installment and a reimbursement -
// processing paying the installment and the claim once, ESI coverage carried through the
// contribution period, loss of pay from leave across the month's start and from absence, and
// the state rules of a processed run. (test/payroll/runs.test.ts covers the same through the API.)
import { beforeAll, describe, expect, it } from "vitest";
import { authOf } from "../support/auth-context.ts";
import { withTenant } from "../../src/db/tenancy.ts";
import type { AuthContext, Role } from "../../src/http/types.ts";
import { submitClaim, reviseClaim } from "../../src/modules/payroll/claims.ts";
import { loanById } from "../../src/modules/payroll/loan-records.ts";
import { applyForLoan, reviseLoan } from "../../src/modules/payroll/loans.ts";
import { mySlip } from "../../src/modules/payroll/my-salary.ts";
import { changeRun, discardRun, openRun, processRun, runBreakdown, runSlip } from "../../src/modules/payroll/runs.ts";
import { saveSalarySetup } from "../../src/modules/payroll/salary-setup.ts";
import { useTestApp, type TenantSession } from "../support/app.ts";
import { memberFor, payrollEmployee, payrollWorld, type PayrollWorld, unpaidLeave2027 } from "./fixtures.ts";
import { PAYROLL_FIGURES_DAY, useClock } from "../support/clock.ts";
import { api } from "../support/api.ts";

// the months below (loans, runs) are worked out by hand from this day
useClock(PAYROLL_FIGURES_DAY);
const t = useTestApp();
let w: PayrollWorld;
let hr: AuthContext;
let kavya: string; // female, Karnataka, CTC 20 000, joins 15 Feb 2027
let ravi: string; // male, Karnataka, CTC 24 000
let kavyaAuth: AuthContext;
let loanTypeId: string;

const as = (s: TenantSession, role: Role, employeeId: string | null = null): AuthContext => authOf(s, role, { employeeId, name: role });
const inTenant = <T>(fn: () => Promise<T>) => withTenant(w.owner.tenantId, fn);
const page = { page: 1, limit: 100, skip: 0 };

beforeAll(async () => {
  w = await payrollWorld(t);
  hr = as(w.hr, "hr");
  kavya = await payrollEmployee(t, w, "20000.00", {
    first_name: "Kavya",
    last_name: "Iyer",
    employee_code: "U-001",
    gender: "female",
    state: "Karnataka",
    joining_date: "2027-02-15",
  });
  ravi = await payrollEmployee(t, w, "24000.00", {
    first_name: "Ravi",
    last_name: "Nair",
    employee_code: "U-002",
    gender: "male",
    state: "Karnataka",
  });
  kavyaAuth = as(await memberFor(t, w, kavya), "employee", kavya);
  const tenant = w.owner.tenantId;
  // Ravi: unpaid leave Fri 26 Feb - Tue 2 Mar (3 working days, 2 of them in March) and an absence on Wed 3 Mar
  const { periodId, lwpId } = await unpaidLeave2027(t, tenant);
  await t.query(
    `INSERT INTO leave_requests (tenant_id, employee_id, leave_type_id, period_id, from_date, ` +
      `to_date, days, status) VALUES ($1, $2, $3, $4, '2027-02-26', '2027-03-02', 3.0, 'approved')`,
    [tenant, ravi, lwpId, periodId],
  );
  await t.query(
    `INSERT INTO attendance_records (tenant_id, employee_id, date, status) ` +
      `VALUES ($1, $2, '2027-03-03', 'absent'), ($1, $2, '2027-03-06', 'absent')`,
    [tenant, ravi],
  );
  loanTypeId = (
    await api(w.hr.agent)
      .op("createLoanType", { body: { name: "Salary advance", max_amount: "50000.00", max_installments: 12, interest_rate: "0" } })
      .expect(201)
  ).body.data.id;
});

let febRunId: string;
let loanId: string;
let claimId: string;

describe("createPayrollRun: one employee's slip, worked out by hand (February 2027)", () => {
  beforeAll(async () => {
    await inTenant(async () => {
      const loan = await applyForLoan(kavyaAuth, { loan_type_id: loanTypeId, amount: "3000.00", installments: 3, start_month: "2027-02" });
      loanId = loan.id;
      await reviseLoan(hr, loan.id, { status: "approved" });
      const category = (await api(w.hr.agent).op("createExpenseCategory", { body: { name: "Travel", requires_receipt: false } })).body.data
        .id;
      const claim = await submitClaim(kavyaAuth, {
        category_id: category,
        amount: "500.00",
        expense_date: "2026-11-02",
        description: "Train",
      });
      claimId = claim.id;
      await reviseClaim(hr, claim.id, { status: "approved" });
    });
  });

  it("prorates a mid-month joiner and deducts PF, ESI, professional tax and the installment; reimburses the claim", async () => {
    const r = await inTenant(() => openRun(hr, { period: "2027-02", employee_ids: [kavya] }));
    expect(r.background).toBe(false);
    febRunId = r.run.id;
    expect(r.run).toMatchObject({ status: "draft", employee_count: 1, total_gross: "10000.00", total_net: "8825.00" });
    const slip = await inTenant(() => runSlip(febRunId, kavya));
    // 14 of 28 days employed: every component at half
    expect(slip).toMatchObject({
      pay_start: "2027-02-15",
      pay_end: "2027-02-28",
      days_in_period: 28,
      payable_days: "14.0",
      lop_days: "0.0",
      gross: "10000.00",
    });
    expect(slip.earnings.map((l) => [l.code, l.full_amount, l.amount])).toEqual([
      ["BASIC", "10000.00", "5000.00"],
      ["HRA", "4000.00", "2000.00"],
      ["SPECIAL", "6000.00", "3000.00"],
    ]);
    // PF on the basic (12 %); employer 12 % split EPS 8.33 % (416.50 → 417) and EPF; EDLI and admin 0.5 %
    expect(slip.pf).toMatchObject({
      applicable: true,
      wages: "5000.00",
      base: "5000.00",
      employee: "600.00",
      employer_total: "600.00",
      employer_eps: "417.00",
      employer_epf: "183.00",
      edli: "25.00",
      admin_charges: "25.00",
    });
    // ESI: full-month wages 20 000 ≤ 21 000, so covered; 0.75 % / 3.25 % of the month's 10 000
    expect(slip.esi).toEqual({
      applicable: true,
      covered: true,
      wages: "10000.00",
      employee: "75.00",
      employer: "325.00",
      period_start_wages: "20000.00", // at joining (15 February, within the October-March period)
    });
    // Karnataka: nothing below 25 000
    expect(slip.professional_tax_detail).toEqual({ state: "Karnataka", amount: "0.00" });
    expect(slip.loans).toEqual([{ loan_id: loanId, loan_number: "LN-00001", installment_ids: [expect.any(String)], amount: "1000.00" }]);
    expect(slip.reimbursement_lines).toEqual([{ claim_id: claimId, claim_number: "EXP-00001", category: "Travel", amount: "500.00" }]);
    expect(slip).toMatchObject({
      pf_employee: "600.00",
      esi_employee: "75.00",
      professional_tax: "0.00",
      loan_deduction: "1000.00",
      reimbursements: "500.00",
      total_deductions: "1675.00",
      net_pay: "8825.00",
    });
    // employer cost: gross + 975 contributions + the reimbursement; the run raises PF admin to the ₹500 minimum
    expect(slip.employer_contributions).toBe("975.00");
    expect(slip.employer_cost).toBe("11475.00");
    const bd = await inTenant(() => runBreakdown(febRunId, undefined, page));
    expect(bd.totals).toMatchObject({
      employee_count: 1,
      employer_cost: "11950.00",
      pf: { admin_charges: "500.00", admin_charges_minimum_applied: true },
      esi: { members: 1 },
    });
    // a draft pays nothing and shows nothing to the employee
    expect((await inTenant(() => loanById(kavyaAuth, loanId))).status).toBe("approved");
    await expect(inTenant(() => mySlip(kavyaAuth, febRunId))).rejects.toMatchObject({ status: 404 });
  });
});

describe("processPayrollRun: pays what the slips deduct and reimburse", () => {
  it("pays the installment and the claim once, numbers the slip and tells the employee", async () => {
    const r = await inTenant(() => processRun(hr, febRunId));
    expect(r.run).toMatchObject({ status: "processed", processed_by: w.hr.userId, total_net: "8825.00" });
    const loan = await inTenant(() => loanById(kavyaAuth, loanId));
    expect(loan).toMatchObject({ status: "active", repaid_amount: "1000.00", outstanding_amount: "2000.00" });
    expect(loan.schedule.map((i) => [i.seq, i.status, i.paid_run_id])).toEqual([
      [1, "paid", febRunId],
      [2, "pending", null],
      [3, "pending", null],
    ]);
    const [claim] = await t.query(`SELECT status, paid_run_id FROM expense_claims WHERE id = $1`, [claimId]);
    expect(claim).toEqual({ status: "paid", paid_run_id: febRunId });
    expect(await inTenant(() => mySlip(kavyaAuth, febRunId))).toMatchObject({
      slip_number: "PS-202702-00001",
      run_status: "processed",
      net_pay: "8825.00",
    });
    const notes = await t.query(`SELECT kind, title, link FROM notifications WHERE user_id = $1 AND kind = 'payroll.slip_ready'`, [
      kavyaAuth.userId,
    ]);
    expect(notes).toEqual([
      { kind: "payroll.slip_ready", title: "Your salary slip for February 2027 is ready", link: `/api/payroll/my-salary/${febRunId}` },
    ]);
    const [audit] = await t.query(`SELECT changes FROM audit_logs WHERE entity_id = $1 AND action = 'payroll_run.processed'`, [febRunId]);
    expect(audit.changes).toMatchObject({
      status: { from: "draft", to: "processed" },
      employees: 1,
      loan_installments_paid: 1,
      expense_claims_paid: 1,
      leave_encashments_paid: 0,
    });
  });
});

describe("updatePayrollRun, deletePayrollRun, processPayrollRun, createPayrollRun: a processed run is final", () => {
  it("refuses every change with a 409, and a second run of the month", async () => {
    await expect(inTenant(() => changeRun(hr, febRunId, { notes: "again" }))).rejects.toMatchObject({
      status: 409,
      message: "The run is processed; it can no longer be changed",
    });
    await expect(inTenant(() => discardRun(febRunId))).rejects.toMatchObject({
      status: 409,
      message: "A processed payroll run cannot be deleted",
    });
    await expect(inTenant(() => processRun(hr, febRunId))).rejects.toMatchObject({ status: 409, message: "The run is already processed" });
    await expect(inTenant(() => openRun(hr, { period: "2027-02" }))).rejects.toMatchObject({
      status: 409,
      message: "A payroll run for 2027-02 already exists",
    });
  });
});

describe("createPayrollRun: the next month (March 2027)", () => {
  it(
    "ESI stays with an employee covered earlier in the contribution period, " +
      "the next installment is due, the paid claim is not paid again",
    async () => {
      // Kavya's CTC rises above the ESI threshold from March; Ravi (never covered) earns as much
      await inTenant(() =>
        saveSalarySetup(hr, kavya, {
          effective_from: "2027-03-01",
          monthly_ctc: "24000.00",
          components: Object.values(w.components).map((component_id) => ({ component_id })),
        }),
      );
      const r = await inTenant(() => openRun(hr, { period: "2027-03" }));
      expect(r.run.employee_count).toBe(2);
      const k = await inTenant(() => runSlip(r.run.id, kavya));
      expect(k).toMatchObject({
        payable_days: "31.0",
        gross: "24000.00",
        pf_employee: "1440.00",
        esi_employee: "180.00",
        professional_tax: "0.00",
        loan_deduction: "1000.00",
        reimbursements: "0.00",
        total_deductions: "2620.00",
        net_pay: "21380.00",
      });
      // covered since joining on 20 000 (the setup in force then), so on the full 24 000 to 31 March
      expect(k.esi).toEqual({
        applicable: true,
        covered: true,
        wages: "24000.00",
        employee: "180.00",
        employer: "780.00",
        period_start_wages: "20000.00",
      });
      expect(k.pf).toMatchObject({ employer_eps: "1000.00", employer_epf: "440.00", edli: "60.00" });
      // Ravi: 2 days of the leave fall in March, 1 absence on a working day (the Saturday one does not count)
      const v = await inTenant(() => runSlip(r.run.id, ravi));
      expect(v.lop).toEqual({ leave_days: "2.0", absent_days: "1.0" });
      expect(v).toMatchObject({
        lop_days: "3.0",
        payable_days: "28.0",
        gross: "21677.42",
        pf_employee: "1301.00",
        esi_employee: "0.00",
        professional_tax: "0.00",
        net_pay: "20376.42",
      });
      expect(v.earnings.map((l) => l.amount)).toEqual(["10838.71", "4335.48", "6503.23"]);
      expect(v.esi).toMatchObject({ applicable: true, covered: false });
    },
  );
});
