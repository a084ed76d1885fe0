// Processing a draft: its stored slips are numbered and paid as they are when nothing they were
// calculated from changed (the inputs' digest, src/modules/payroll/inputs-digest.ts), and calculated
// again when something did - an absence, a salary revision, a loan approved after the draft.
import { beforeAll, describe, expect, it } from "vitest";
import { authOf } from "../support/auth-context.ts";
import { withTenant } from "../../src/db/tenancy.ts";
import type { AuthContext } from "../../src/http/types.ts";
import { submitClaim, reviseClaim } from "../../src/modules/payroll/claims.ts";
import { loanById } from "../../src/modules/payroll/loan-records.ts";
import { applyForLoan, reviseLoan } from "../../src/modules/payroll/loans.ts";
import { openRun, processRun, runBreakdown, runSlip } from "../../src/modules/payroll/runs.ts";
import { saveSalarySetup } from "../../src/modules/payroll/salary-setup.ts";
import { useTestApp } from "../support/app.ts";
import { memberFor, payrollEmployee, payrollWorld, type PayrollWorld } from "./fixtures.ts";
import { PAYROLL_FIGURES_DAY, useClock } from "../support/clock.ts";
import { api } from "../support/api.ts";

useClock(PAYROLL_FIGURES_DAY);
// a batch per employee: the draft's digests, pages and numbering across batches
const t = useTestApp({ config: { payrollBatchSize: 1 } });
let w: PayrollWorld;
let hr: AuthContext;
let asha: string; // CTC 30 000
let bala: string; // CTC 24 000
let ashaAuth: AuthContext;
let loanTypeId: string;
let categoryId: string;

const inTenant = <T>(fn: () => Promise<T>) => withTenant(w.owner.tenantId, fn);
const page = { page: 1, limit: 100, skip: 0 };

/** Every slip of the run, by employee code: id, number and figures. */
async function slipsOf(runId: string) {
  const bd = await inTenant(() => runBreakdown(runId, undefined, page));
  return Object.fromEntries(bd.employees.map((s) => [s.employee_code, s]));
}

beforeAll(async () => {
  w = await payrollWorld(t);
  hr = authOf(w.hr, "hr", { name: "hr" });
  asha = await payrollEmployee(t, w, "30000.00", { first_name: "Asha", last_name: "Rao", employee_code: "R-001", state: "Karnataka" });
  bala = await payrollEmployee(t, w, "24000.00", { first_name: "Bala", last_name: "Das", employee_code: "R-002", state: "Karnataka" });
  ashaAuth = authOf(await memberFor(t, w, asha), "employee", { employeeId: asha, name: "Asha" });
  loanTypeId = (
    await api(w.hr.agent)
      .op("createLoanType", { body: { name: "Salary advance", max_amount: "50000.00", max_installments: 12, interest_rate: "0" } })
      .expect(201)
  ).body.data.id;
  categoryId = (
    await api(w.hr.agent)
      .op("createExpenseCategory", { body: { name: "Travel", requires_receipt: false } })
      .expect(201)
  ).body.data.id;
});

describe("processPayrollRun: a draft whose inputs are unchanged", () => {
  it("keeps the draft's slips - the same records and figures - numbers them in code order and pays what they deduct", async () => {
    const loan = await inTenant(() =>
      applyForLoan(ashaAuth, { loan_type_id: loanTypeId, amount: "2000.00", installments: 2, start_month: "2027-01" }),
    );
    await inTenant(() => reviseLoan(hr, loan.id, { status: "approved" }));
    const claim = await inTenant(() =>
      submitClaim(ashaAuth, { category_id: categoryId, amount: "750.00", expense_date: "2026-11-20", description: "Cab" }),
    );
    await inTenant(() => reviseClaim(hr, claim.id, { status: "approved" }));
    const draft = await inTenant(() => openRun(hr, { period: "2027-01" }));
    const before = await slipsOf(draft.run.id);
    expect(before["R-001"]).toMatchObject({ slip_number: null, loan_deduction: "1000.00", reimbursements: "750.00" });

    const done = await inTenant(() => processRun(hr, draft.run.id));
    expect(done.run).toMatchObject({ status: "processed", total_net: draft.run.total_net, total_gross: draft.run.total_gross });
    const after = await slipsOf(draft.run.id);
    // the same stored slips (a calculation again would have written new ones), now numbered
    for (const code of ["R-001", "R-002"]) {
      const { slip_number: _was, run_status: _s, ...figures } = before[code];
      expect(after[code]).toMatchObject({ ...figures, run_status: "processed" });
    }
    expect([after["R-001"].slip_number, after["R-002"].slip_number]).toEqual(["PS-202701-00001", "PS-202701-00002"]);
    // what the slips deduct and reimburse is paid, once
    expect(await inTenant(() => loanById(ashaAuth, loan.id))).toMatchObject({ status: "active", repaid_amount: "1000.00" });
    const [c] = await t.query(`SELECT status, paid_run_id FROM expense_claims WHERE id = $1`, [claim.id]);
    expect(c).toEqual({ status: "paid", paid_run_id: draft.run.id });
    const [audit] = await t.query(`SELECT changes FROM audit_logs WHERE entity_id = $1 AND action = 'payroll_run.processed'`, [
      draft.run.id,
    ]);
    expect(audit.changes).toMatchObject({ employees: 2, loan_installments_paid: 1, expense_claims_paid: 1 });
  });
});

describe("processPayrollRun: a change of input between calculating and processing is honoured", () => {
  it("an absence recorded after the draft: loss of pay on the processed slip", async () => {
    const draft = await inTenant(() => openRun(hr, { period: "2027-02" }));
    const before = await slipsOf(draft.run.id);
    expect(before["R-001"].lop_days).toBe("0.0");
    await t.query(`INSERT INTO attendance_records (tenant_id, employee_id, date, status) VALUES ($1, $2, '2027-02-03', 'absent')`, [
      w.owner.tenantId,
      asha,
    ]);
    const done = await inTenant(() => processRun(hr, draft.run.id));
    const slip = await inTenant(() => runSlip(draft.run.id, asha));
    // one of February's 28 days unpaid: 30 000 × 27 / 28
    expect(slip).toMatchObject({ lop_days: "1.0", gross: "28928.57", slip_number: "PS-202702-00001" });
    expect(slip.id).not.toBe(before["R-001"].id);
    expect(done.run.total_gross).toBe("52928.57");
    expect(done.run.total_gross).not.toBe(draft.run.total_gross);
  });

  it("a salary revision after the draft: the processed slip pays the new salary", async () => {
    const draft = await inTenant(() => openRun(hr, { period: "2027-03" }));
    expect((await slipsOf(draft.run.id))["R-002"].gross).toBe("24000.00");
    await inTenant(() =>
      saveSalarySetup(hr, bala, {
        effective_from: "2027-03-01",
        monthly_ctc: "40000.00",
        components: Object.values(w.components).map((component_id) => ({ component_id })),
      }),
    );
    const done = await inTenant(() => processRun(hr, draft.run.id));
    expect(await inTenant(() => runSlip(draft.run.id, bala))).toMatchObject({ gross: "40000.00", slip_number: "PS-202703-00002" });
    expect(done.run.total_gross).toBe("70000.00");
  });

  it("a loan approved after the draft: its installment is deducted and paid", async () => {
    const draft = await inTenant(() => openRun(hr, { period: "2027-04" }));
    expect((await slipsOf(draft.run.id))["R-002"].loan_deduction).toBe("0.00");
    const balaAuth = authOf(await memberFor(t, w, bala), "employee", { employeeId: bala, name: "Bala" });
    const loan = await inTenant(() =>
      applyForLoan(balaAuth, { loan_type_id: loanTypeId, amount: "900.00", installments: 3, start_month: "2027-04" }),
    );
    await inTenant(() => reviseLoan(hr, loan.id, { status: "approved" }));
    await inTenant(() => processRun(hr, draft.run.id));
    expect(await inTenant(() => runSlip(draft.run.id, bala))).toMatchObject({ loan_deduction: "300.00" });
    expect(await inTenant(() => loanById(balaAuth, loan.id))).toMatchObject({ status: "active", repaid_amount: "300.00" });
  });
});

describe("processPayrollRun: a draft whose year to date holds processed slips", () => {
  it("is kept when those slips are unchanged, and calculated again when one of them changed after the draft", async () => {
    // April 2027 (processed above) is May's and June's year to date for income tax
    const may = await inTenant(() => openRun(hr, { period: "2027-05" }));
    const before = await slipsOf(may.run.id);
    await inTenant(() => processRun(hr, may.run.id));
    const after = await slipsOf(may.run.id);
    expect([after["R-001"].id, after["R-002"].id]).toEqual([before["R-001"].id, before["R-002"].id]);
    expect(after["R-001"].slip_number).toBe("PS-202705-00001");

    const june = await inTenant(() => openRun(hr, { period: "2027-06" }));
    const drafted = await slipsOf(june.run.id);
    // a paid month of the year changes after June's draft (its tax deducted corrected in the records)
    await t.query(`UPDATE payroll_slips SET income_tax = income_tax + 100 WHERE run_id = $1 AND employee_id = $2`, [may.run.id, asha]);
    await inTenant(() => processRun(hr, june.run.id));
    const processed = await slipsOf(june.run.id);
    expect(processed["R-001"].id).not.toBe(drafted["R-001"].id);
    expect(processed["R-001"].slip_number).toBe("PS-202706-00001");
  });
});
