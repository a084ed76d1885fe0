// Payroll runs through the API: the worked example to the paisa (LOP from leave and attendance,
// loan, claim, encashment), processing (atomic, concurrent calls, 409s), my-salary isolation,
// the PDF, the module gate and cross-tenant 404s.
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { expectError, signupTenant, useTestApp, type TenantSession } from "../support/app.ts";
import { expectServerError } from "../support/recorder.ts";
import { memberFor, payrollEmployee, payrollWorld, type PayrollWorld, unpaidLeave2027 } from "./fixtures.ts";
import { PAYROLL_FIGURES_DAY, useClock } from "../support/clock.ts";

// the months below (loans, runs) are worked out by hand from this day
useClock(PAYROLL_FIGURES_DAY);
const t = useTestApp();
let w: PayrollWorld;
let a: string; // male, Maharashtra, CTC 40 000
let b: string; // female, CTC 18 000
let aUser: TenantSession;
let bUser: TenantSession;
let loanId: string;
let claimId: string;
let encashmentId: string;
let runId: string;

beforeAll(async () => {
  w = await payrollWorld(t);
  a = await payrollEmployee(t, w, "40000.00", { first_name: "Arjun", last_name: "Rao", employee_code: "P-001" });
  b = await payrollEmployee(t, w, "18000.00", { first_name: "Bela", last_name: "Shah", employee_code: "P-002", gender: "female" });
  aUser = await memberFor(t, w, a);
  bUser = await memberFor(t, w, b);
  const tenant = w.owner.tenantId;
  // leave: a period covering 2027, an unpaid type (Feb 10-11, 2 days) and an encashable one (2 days approved, unpriced)
  const { periodId, lwpId } = await unpaidLeave2027(t, tenant);
  const [el] = await t.query(
    `INSERT INTO leave_types (tenant_id, name, code, encashable) VALUES ($1, 'Earned leave', 'EL', true) RETURNING id`,
    [tenant],
  );
  await t.query(
    `INSERT INTO leave_requests (tenant_id, employee_id, leave_type_id, period_id, from_date, ` +
      `to_date, days, status) VALUES ($1, $2, $3, $4, '2027-02-10', '2027-02-11', 2.0, 'approved')`,
    [tenant, a, lwpId, periodId],
  );
  const [enc] = await t.query<{ id: string }>(
    `INSERT INTO leave_encashments (tenant_id, employee_id, leave_type_id, ` +
      `period_id, days, status) VALUES ($1, $2, $3, $4, 2.0, 'approved') RETURNING id`,
    [tenant, a, el.id, periodId],
  );
  encashmentId = enc.id;
  await t.query(
    `INSERT INTO attendance_records (tenant_id, employee_id, date, status) ` +
      `VALUES ($1, $2, '2027-02-03', 'absent'), ($1, $2, '2027-02-06', 'absent')`,
    [tenant, a],
  );
  // loan: 6 000 in 3 installments from February
  const type = await api(w.hr.agent)
    .op("createLoanType", { body: { name: "Advance", max_amount: "50000.00", max_installments: 12 } })
    .expect(201);
  const loan = await api(aUser.agent)
    .op("createLoanAdvance", { body: { loan_type_id: type.body.data.id, amount: "6000.00", installments: 3, start_month: "2027-02" } })
    .expect(201);
  loanId = loan.body.data.id;
  await api(w.hr.agent)
    .op("updateLoanAdvance", { params: { id: loanId }, body: { status: "approved" } })
    .expect(200);
  // claim: 1 250 approved
  const cat = await api(w.hr.agent)
    .op("createExpenseCategory", { body: { name: "Travel", max_claim_amount: "5000.00", requires_receipt: false } })
    .expect(201);
  const claim = await api(aUser.agent)
    .op("createExpenseClaim", {
      body: { category_id: cat.body.data.id, amount: "1250.00", expense_date: "2026-11-02", description: "Taxi" },
    })
    .expect(201);
  claimId = claim.body.data.id;
  await api(w.hr.agent)
    .op("updateExpenseClaim", { params: { id: claimId }, body: { status: "approved" } })
    .expect(200);
});

describe(
  "createPayrollRun, getPayrollRun, updatePayrollRun, getPayrollRunBreakdown, listPayrollRunEmployees, " +
    "getPayrollRunEmployee: draft run: the worked example (February 2027)",
  () => {
    it("calculates every line to the paisa", async () => {
      const res = await api(w.hr.agent)
        .op("createPayrollRun", { body: { period: "2027-02", notes: "Feb" } })
        .expect(201);
      runId = res.body.data.id;
      expect(res.body.data).toMatchObject({
        period: "2027-02",
        period_start: "2027-02-01",
        period_end: "2027-02-28",
        status: "draft",
        employee_count: 2,
        total_gross: "53714.29",
      });
      const slipA = (
        await api(w.hr.agent)
          .op("getPayrollRunEmployee", { params: { id: runId, employeeId: a } })
          .expect(200)
      ).body.data;
      expect(slipA).toMatchObject({
        slip_number: null,
        run_status: "draft",
        days_in_period: 28,
        lop_days: "3.0",
        payable_days: "25.0",
        gross: "35714.29",
        pf_employee: "1800.00",
        esi_employee: "0.00",
        professional_tax: "300.00",
        loan_deduction: "2000.00",
        reimbursements: "1250.00",
        // the approved 2 days at basic + DA ÷ 26 a day: 2 × 20 000 ÷ 26 = 1 538.4615… → 1 538.46 (rounded once, on the total)
        leave_encashment: "1538.46",
        total_deductions: "4100.00",
        // 35 714.29 − 4 100.00 + 1 250.00 + 1 538.46
        net_pay: "34402.75",
      });
      expect(slipA.lop).toEqual({ leave_days: "2.0", absent_days: "1.0" }); // the Saturday absence does not count
      expect(slipA.earnings.map((l) => l.amount)).toEqual(["17857.14", "7142.86", "10714.29"]);
      expect(slipA.pf).toMatchObject({ base: "15000.00", employer_eps: "1250.00", employer_epf: "550.00", edli: "75.00" });
      expect(slipA.encashments).toEqual([{ encashment_id: encashmentId, leave_type: "Earned leave", days: "2.0", amount: "1538.46" }]);
      const slipB = (
        await api(w.hr.agent)
          .op("getPayrollRunEmployee", { params: { id: runId, employeeId: b } })
          .expect(200)
      ).body.data;
      expect(slipB).toMatchObject({
        gross: "18000.00",
        pf_employee: "1080.00",
        esi_employee: "135.00",
        professional_tax: "0.00",
        net_pay: "16785.00",
      });
      expect(slipB.esi).toMatchObject({ covered: true, employer: "585.00" });
      const bd = (
        await api(w.hr.agent)
          .op("getPayrollRunBreakdown", { params: { id: runId }, query: { limit: 1 } })
          .expect(200)
      ).body;
      expect(bd.pagination).toEqual({ page: 1, limit: 1, total: 2, total_pages: 2 });
      expect(bd.data.employees.map((e) => e.employee_code)).toEqual(["P-001"]);
      expect(bd.data.totals).toMatchObject({
        employee_count: 2,
        net_pay: "51187.75", // 34 402.75 + 16 785.00
        leave_encashment: "1538.46",
        professional_tax: "300.00",
        pf: { admin_charges: "500.00", admin_charges_minimum_applied: true },
        esi: { members: 1, employee: "135.00", employer: "585.00" },
      });
      // the run's employees, with the ids the slip and its PDF take
      const listed = (
        await api(w.hr.agent)
          .op("listPayrollRunEmployees", { params: { id: runId } })
          .expect(200)
      ).body;
      expect(listed.pagination).toEqual({ page: 1, limit: 20, total: 2, total_pages: 1 });
      expect(listed.data.map((e) => [e.employee_code, e.employee_id, e.net_pay])).toEqual([
        ["P-001", a, "34402.75"],
        [expect.any(String), b, "16785.00"],
      ]);
      await api(w.hr.agent)
        .op("getPayrollRunEmployee", { params: { id: runId, employeeId: listed.data[0].employee_id } })
        .expect(200);
      expect(bd.data.totals.components.map((c) => [c.code, c.amount])).toEqual([
        ["BASIC", "26857.14"],
        ["HRA", "10742.86"],
        ["SPECIAL", "16114.29"],
      ]);
      // nothing is paid by a draft
      expect(
        (
          await api(aUser.agent)
            .op("getLoanAdvance", { params: { id: loanId } })
            .expect(200)
        ).body.data.status,
      ).toBe("approved");
    });

    it("one run per month; PUT recalculates and limits employees; drafts are invisible to employees", async () => {
      expectError(await api(w.hr.agent).op("createPayrollRun", { body: { period: "2027-02" } }), 409, "conflict");
      const u = await api(w.hr.agent)
        .op("updatePayrollRun", { params: { id: runId }, body: { employee_ids: [b], notes: "only B" } })
        .expect(200);
      expect(u.body.data).toMatchObject({ employee_count: 1, employee_ids: [b], notes: "only B", total_net: "16785.00" });
      expectError(await api(w.hr.agent).op("getPayrollRunEmployee", { params: { id: runId, employeeId: a } }), 404, "not_found");
      const back = await api(w.hr.agent)
        .op("updatePayrollRun", { params: { id: runId }, body: { employee_ids: [] } })
        .expect(200);
      expect(back.body.data.employee_count).toBe(2);
      expectError(await api(aUser.agent).op("getMySalarySlip", { params: { draftId: runId } }), 404, "not_found");
      expect((await api(aUser.agent).op("listMySalary").expect(200)).body.data).toEqual([]);
      expectError(await api(aUser.agent).op("listPayrollRuns"), 403, "forbidden");
      expectError(
        await api(w.hr.agent).op("updatePayrollRun", {
          params: { id: runId },
          body: { employee_ids: ["00000000-0000-4000-8000-000000000000"] },
        }),
        400,
        "validation_failed",
      );
    });

    it("PUT needs its body: an empty payload is a 400 (the parser would make it {}), {} just recalculates", async () => {
      const before = (
        await api(w.hr.agent)
          .op("getPayrollRun", { params: { id: runId } })
          .expect(200)
      ).body.data;
      const e = expectError(
        await w.hr.agent.put(`/api/payroll/draft-runs/${runId}`).set("Content-Type", "application/json").send(""),
        400,
        "validation_failed",
      );
      expect(e.details).toEqual([{ path: "body", message: "is required" }]);
      expect(
        (
          await api(w.hr.agent)
            .op("getPayrollRun", { params: { id: runId } })
            .expect(200)
        ).body.data.calculated_at,
      ).toBe(before.calculated_at);
      const again = await api(w.hr.agent)
        .op("updatePayrollRun", { params: { id: runId }, body: {} })
        .expect(200);
      expect(again.body.data).toMatchObject({ employee_count: before.employee_count, total_net: before.total_net });
      expect(again.body.data.calculated_at! > before.calculated_at!).toBe(true);
    });
  },
);

describe("processPayrollRun, listPayrollRuns, deletePayrollRun: processing", () => {
  it("is atomic: a failure part-way leaves the draft, loans, claims and encashments untouched", async () => {
    await t.query(`CREATE FUNCTION payroll_test_fail() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'boom'; END $$`);
    await t.query(
      `CREATE TRIGGER payroll_test_fail BEFORE UPDATE OF status ON payroll_runs FOR ` +
        `EACH ROW WHEN (NEW.status = 'processed') EXECUTE FUNCTION payroll_test_fail()`,
    );
    try {
      expectServerError(); // the injected failure is the point of this test
      expectError(await api(w.hr.agent).op("processPayrollRun", { params: { id: runId } }), 500, "internal");
    } finally {
      await t.query(`DROP TRIGGER payroll_test_fail ON payroll_runs`);
      await t.query(`DROP FUNCTION payroll_test_fail()`);
    }
    expect(
      (
        await api(w.hr.agent)
          .op("getPayrollRun", { params: { id: runId } })
          .expect(200)
      ).body.data.status,
    ).toBe("draft");
    const [inst] = await t.query(`SELECT count(*)::int AS n FROM loan_installments WHERE loan_id = $1 AND status = 'paid'`, [loanId]);
    expect(inst.n).toBe(0);
    const [claim] = await t.query(`SELECT status FROM expense_claims WHERE id = $1`, [claimId]);
    expect(claim.status).toBe("approved");
    const [enc] = await t.query(`SELECT amount FROM leave_encashments WHERE id = $1`, [encashmentId]);
    expect(enc.amount).toBeNull();
    const [slips] = await t.query(`SELECT count(*)::int AS n FROM payroll_slips WHERE run_id = $1 AND slip_number IS NOT NULL`, [runId]);
    expect(slips.n).toBe(0);
  });

  it("finalizes: slips numbered, installment paid (loan active), claim paid, encashment priced, audited, notified; then 409s", async () => {
    const res = await api(w.hr.agent)
      .op("processPayrollRun", { params: { id: runId } })
      .expect(200);
    expect(res.body.data).toMatchObject({ status: "processed", employee_count: 2, total_net: "51187.75" });
    expect(res.body.data.processed_at).toBeTruthy();
    const slip = (
      await api(w.hr.agent)
        .op("getPayrollRunEmployee", { params: { id: runId, employeeId: a } })
        .expect(200)
    ).body.data;
    expect(slip.slip_number).toBe("PS-202702-00001");
    const loan = (
      await api(aUser.agent)
        .op("getLoanAdvance", { params: { id: loanId } })
        .expect(200)
    ).body.data;
    expect(loan).toMatchObject({ status: "active", repaid_amount: "2000.00", outstanding_amount: "4000.00" });
    expect(loan.schedule.map((i) => [i.due_month, i.status, i.paid_run_id])).toEqual([
      ["2027-02", "paid", runId],
      ["2027-03", "pending", null],
      ["2027-04", "pending", null],
    ]);
    expect(
      (
        await api(aUser.agent)
          .op("getExpenseClaim", { params: { id: claimId } })
          .expect(200)
      ).body.data,
    ).toMatchObject({
      status: "paid",
      paid_run_id: runId,
    });
    const [enc] = await t.query(`SELECT amount::text FROM leave_encashments WHERE id = $1`, [encashmentId]);
    expect(enc.amount).toBe("1538.46");
    const log = await api(w.owner.agent)
      .op("listActivityLog", { query: { entity_id: runId } })
      .expect(200);
    expect(log.body.data.map((e) => e.action)).toContain("payroll_run.processed");
    const notes = await api(aUser.agent).op("listNotifications").expect(200);
    expect(notes.body.data.some((n) => n.kind === "payroll.slip_ready")).toBe(true);

    expectError(await api(w.hr.agent).op("processPayrollRun", { params: { id: runId } }), 409, "conflict");
    expectError(await api(w.hr.agent).op("deletePayrollRun", { params: { id: runId } }), 409, "conflict");
    expectError(await api(w.hr.agent).op("updatePayrollRun", { params: { id: runId }, body: { notes: "x" } }), 409, "conflict");
  });

  it("two concurrent process calls: exactly one succeeds, the other is a 409, nothing is paid twice", async () => {
    const r = await api(w.hr.agent)
      .op("createPayrollRun", { body: { period: "2027-03" } })
      .expect(201);
    const [x, y] = await Promise.all([
      api(w.hr.agent).op("processPayrollRun", { params: { id: r.body.data.id } }),
      api(w.owner.agent).op("processPayrollRun", { params: { id: r.body.data.id } }),
    ]);
    expect([x.status, y.status].sort()).toEqual([200, 409]);
    const loan = (
      await api(aUser.agent)
        .op("getLoanAdvance", { params: { id: loanId } })
        .expect(200)
    ).body.data;
    expect(loan).toMatchObject({ status: "active", repaid_amount: "4000.00" });
    const slip = (
      await api(aUser.agent)
        .op("getMySalarySlip", { params: { draftId: r.body.data.id } })
        .expect(200)
    ).body.data;
    expect(slip).toMatchObject({
      loan_deduction: "2000.00",
      reimbursements: "0.00",
      leave_encashment: "0.00",
      lop_days: "0.0",
      net_pay: "36000.00",
    }); // 40 000 − PF 1 800 − PT 200 − loan 2 000
  });

  it("a deleted draft disappears with its slips", async () => {
    const r = await api(w.hr.agent)
      .op("createPayrollRun", { body: { period: "2027-05" } })
      .expect(201);
    await api(w.hr.agent)
      .op("deletePayrollRun", { params: { id: r.body.data.id } })
      .expect(200);
    expectError(await api(w.hr.agent).op("getPayrollRun", { params: { id: r.body.data.id } }), 404, "not_found");
    const [n] = await t.query(`SELECT count(*)::int AS n FROM payroll_slips WHERE run_id = $1`, [r.body.data.id]);
    expect(n.n).toBe(0);
    const list = await api(w.hr.agent)
      .op("listPayrollRuns", { query: { status: "processed" } })
      .expect(200);
    expect(list.body.data.map((x) => x.period)).toEqual(["2027-03", "2027-02"]);
  });
});

describe("listMySalary, getMySalarySlip, downloadMySalarySlip: my salary", () => {
  it("shows only the caller's own slips; a colleague's stays hidden", async () => {
    const mine = await api(aUser.agent).op("listMySalary").expect(200);
    expect(mine.body.data.map((s) => [s.period, s.employee_id])).toEqual([
      ["2027-03", a],
      ["2027-02", a],
    ]);
    const slip = (
      await api(bUser.agent)
        .op("getMySalarySlip", { params: { draftId: runId } })
        .expect(200)
    ).body.data;
    expect(slip).toMatchObject({ employee_id: b, net_pay: "16785.00" });
    // nobody reaches another employee's slip: no path takes an employee id, run-level reads are hr-only
    expectError(await api(aUser.agent).op("getPayrollRunEmployee", { params: { id: runId, employeeId: b } }), 403, "forbidden");
    expectError(await api(aUser.agent).op("getPayrollRunBreakdown", { params: { id: runId } }), 403, "forbidden");
    // hr without an employee record has no slips
    expect((await api(w.hr.agent).op("listMySalary").expect(200)).body.data).toEqual([]);
    expectError(await api(w.hr.agent).op("getMySalarySlip", { params: { draftId: runId } }), 404, "not_found");
  });

  it("downloads the payslip as PDF", async () => {
    const res = await aUser.agent
      .get(`/api/payroll/my-salary/${runId}/pdf`)
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on("data", (c: Buffer) => chunks.push(c));
        r.on("end", () => cb(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(res.headers["content-type"]).toBe("application/pdf");
    expect(res.headers["content-disposition"]).toContain("payslip-PS-202702-00001.pdf");
    expect((res.body as Buffer).subarray(0, 5).toString()).toBe("%PDF-");
  });
});

describe("downloadPayrollRunEmployeeSlip: HR downloads any employee's slip PDF", () => {
  const pdfOf = (req: ReturnType<TenantSession["agent"]["get"]>) =>
    req.buffer(true).parse((r, cb) => {
      const chunks: Buffer[] = [];
      r.on("data", (c: Buffer) => chunks.push(c));
      r.on("end", () => cb(null, Buffer.concat(chunks)));
    });

  it("serves hr and the owner the same slip the employee downloads; the employee gets 403", async () => {
    const own = await pdfOf(bUser.agent.get(`/api/payroll/my-salary/${runId}/pdf`)).expect(200);
    for (const who of [w.hr, w.owner]) {
      const res = await pdfOf(who.agent.get(`/api/payroll/draft-runs/${runId}/employees/${b}/pdf`)).expect(200);
      expect(res.headers["content-type"]).toBe("application/pdf");
      expect(res.headers["content-disposition"]).toBe(own.headers["content-disposition"]);
      expect((res.body as Buffer).subarray(0, 5).toString()).toBe("%PDF-");
    }
    // the own-record rule stays: an employee reaches no colleague's slip, nor their own this way
    expectError(await api(aUser.agent).op("downloadPayrollRunEmployeeSlip", { params: { id: runId, employeeId: b } }), 403, "forbidden");
    expectError(await api(aUser.agent).op("downloadPayrollRunEmployeeSlip", { params: { id: runId, employeeId: a } }), 403, "forbidden");
  });

  it("a draft run has no slip to download yet (409); an employee not in the run is a 404", async () => {
    const draft = await api(w.hr.agent)
      .op("createPayrollRun", { body: { period: "2027-06" } })
      .expect(201);
    expectError(
      await api(w.hr.agent).op("downloadPayrollRunEmployeeSlip", { params: { id: draft.body.data.id, employeeId: a } }),
      409,
      "conflict",
    );
    await api(w.hr.agent)
      .op("deletePayrollRun", { params: { id: draft.body.data.id } })
      .expect(200);
    expectError(
      await api(w.hr.agent).op("downloadPayrollRunEmployeeSlip", { params: { id: runId, employeeId: w.owner.userId } }),
      404,
      "not_found",
    );
  });
});

describe("module gate and tenancy", () => {
  it("a company without the module gets 403 module_disabled", async () => {
    const other = await signupTenant(t);
    expectError(await api(other.agent).op("listPayrollRuns"), 403, "module_disabled");
    expectError(await api(other.agent).op("listMySalary"), 403, "module_disabled");
    expectError(
      await api(other.agent).op("createSalaryComponent", {
        body: { name: "X", code: "X", type: "earning", calculation: "fixed", amount: "1.00" },
      }),
      403,
      "module_disabled",
    );
  });

  it("another company's ids are 404 on every id-taking operation", async () => {
    const other = await signupTenant(t);
    await api(other.agent)
      .op("updateCompanySettings", { body: { modules: ["payroll"] } })
      .expect(200);
    const o = other.agent;
    const comp = w.components.BASIC;
    const checks = [
      api(o).op("getSalaryComponent", { params: { id: comp } }),
      api(o).op("updateSalaryComponent", { params: { id: comp }, body: { name: "Mine" } }),
      api(o).op("deleteSalaryComponent", { params: { id: comp } }),
      api(o).op("getEmployeeSalarySetup", { params: { employeeId: a } }),
      api(o).op("setEmployeeSalarySetup", { params: { employeeId: a }, body: { effective_from: "2027-01-01" } }),
      api(o).op("getPayrollRun", { params: { id: runId } }),
      api(o).op("updatePayrollRun", { params: { id: runId }, body: {} }),
      api(o).op("deletePayrollRun", { params: { id: runId } }),
      api(o).op("processPayrollRun", { params: { id: runId } }),
      api(o).op("getPayrollRunBreakdown", { params: { id: runId } }),
      api(o).op("getPayrollRunEmployee", { params: { id: runId, employeeId: a } }),
      api(o).op("downloadPayrollRunEmployeeSlip", { params: { id: runId, employeeId: a } }),
      api(o).op("getMySalarySlip", { params: { draftId: runId } }),
      api(o).op("downloadMySalarySlip", { params: { draftId: runId } }),
      api(o).op("getLoanAdvance", { params: { id: loanId } }),
      api(o).op("updateLoanAdvance", { params: { id: loanId }, body: { status: "rejected" } }),
      api(o).op("cancelLoanAdvance", { params: { id: loanId } }),
      api(o).op("deferLoanAdvance", { params: { id: loanId }, body: {} }),
      api(o).op("getExpenseClaim", { params: { id: claimId } }),
      api(o).op("updateExpenseClaim", { params: { id: claimId }, body: { status: "rejected" } }),
      api(o).op("cancelExpenseClaim", { params: { id: claimId } }),
      api(o).op("exportWpsSif", { params: { draftId: runId } }),
    ];
    for (const res of await Promise.all(checks)) expectError(res, 404, "not_found");
    expect((await api(o).op("listPayrollRuns").expect(200)).body.data).toEqual([]);
    expect((await api(o).op("listLoanAdvances").expect(200)).body.data).toEqual([]);
    expect((await api(o).op("listExpenseClaims").expect(200)).body.data).toEqual([]);
    expect((await api(o).op("listSalaryComponents").expect(200)).body.data).toEqual([]);
  });
});
