// Payroll runs through the API: the worked example to the paisa (LOP from leave and attendance,
// loan, claim, encashment), processing (atomic, concurrent calls, 409s), my-salary isolation,
// the PDF, the module gate and cross-tenant 404s.
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { expectError, signupTenant, useTestApp, type TenantSession } from "../support/app.ts";
import { expectServerError } from "../support/recorder.ts";
import { memberFor, payrollEmployee, payrollWorld, type PayrollWorld } from "./support.ts";
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
  const [period] = await t.query(
    `INSERT INTO leave_periods (tenant_id, name, start_date, end_date) VALUES ($1, 'FY', '2027-01-01', '2027-12-31') RETURNING id`,
    [tenant],
  );
  const [lwp] = await t.query(
    `INSERT INTO leave_types (tenant_id, name, code, is_paid) VALUES ($1, 'Leave without pay', 'LWP', false) RETURNING id`,
    [tenant],
  );
  const [el] = await t.query(
    `INSERT INTO leave_types (tenant_id, name, code, encashable) VALUES ($1, 'Earned leave', 'EL', true) RETURNING id`,
    [tenant],
  );
  await t.query(
    `INSERT INTO leave_requests (tenant_id, employee_id, leave_type_id, period_id, from_date, ` +
      `to_date, days, status) VALUES ($1, $2, $3, $4, '2027-02-10', '2027-02-11', 2.0, 'approved')`,
    [tenant, a, lwp.id, period.id],
  );
  const [enc] = await t.query(
    `INSERT INTO leave_encashments (tenant_id, employee_id, leave_type_id, ` +
      `period_id, days, status) VALUES ($1, $2, $3, $4, 2.0, 'approved') RETURNING id`,
    [tenant, a, el.id, period.id],
  );
  encashmentId = enc.id;
  await t.query(
    `INSERT INTO attendance_records (tenant_id, employee_id, date, status) ` +
      `VALUES ($1, $2, '2027-02-03', 'absent'), ($1, $2, '2027-02-06', 'absent')`,
    [tenant, a],
  );
  // loan: 6 000 in 3 installments from February
  const type = await w.hr.agent
    .post("/api/configuration/payroll/loan-types")
    .send({ name: "Advance", max_amount: "50000.00", max_installments: 12 })
    .expect(201);
  const loan = await aUser.agent
    .post("/api/payroll/loan-advances")
    .send({ loan_type_id: type.body.data.id, amount: "6000.00", installments: 3, start_month: "2027-02" })
    .expect(201);
  loanId = loan.body.data.id;
  await w.hr.agent.put(`/api/payroll/loan-advances/${loanId}`).send({ status: "approved" }).expect(200);
  // claim: 1 250 approved
  const cat = await w.hr.agent
    .post("/api/configuration/payroll/expense-categories")
    .send({ name: "Travel", max_claim_amount: "5000.00", requires_receipt: false })
    .expect(201);
  const claim = await aUser.agent
    .post("/api/payroll/expense-claims")
    .send({ category_id: cat.body.data.id, amount: "1250.00", expense_date: "2026-11-02", description: "Taxi" })
    .expect(201);
  claimId = claim.body.data.id;
  await w.hr.agent.put(`/api/payroll/expense-claims/${claimId}`).send({ status: "approved" }).expect(200);
});

describe(
  "createPayrollRun, getPayrollRun, updatePayrollRun, getPayrollRunBreakdown, listPayrollRunEmployees, " +
    "getPayrollRunEmployee: draft run: the worked example (February 2027)",
  () => {
    it("calculates every line to the paisa", async () => {
      const res = await w.hr.agent.post("/api/payroll/draft-runs").send({ period: "2027-02", notes: "Feb" }).expect(201);
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
      expectError(await w.hr.agent.post("/api/payroll/draft-runs").send({ period: "2027-02" }), 409, "conflict");
      const u = await w.hr.agent
        .put(`/api/payroll/draft-runs/${runId}`)
        .send({ employee_ids: [b], notes: "only B" })
        .expect(200);
      expect(u.body.data).toMatchObject({ employee_count: 1, employee_ids: [b], notes: "only B", total_net: "16785.00" });
      expectError(await w.hr.agent.get(`/api/payroll/draft-runs/${runId}/employees/${a}`), 404, "not_found");
      const back = await w.hr.agent.put(`/api/payroll/draft-runs/${runId}`).send({ employee_ids: [] }).expect(200);
      expect(back.body.data.employee_count).toBe(2);
      expectError(await aUser.agent.get(`/api/payroll/my-salary/${runId}`), 404, "not_found");
      expect((await api(aUser.agent).op("listMySalary").expect(200)).body.data).toEqual([]);
      expectError(await aUser.agent.get("/api/payroll/draft-runs"), 403, "forbidden");
      expectError(
        await w.hr.agent.put(`/api/payroll/draft-runs/${runId}`).send({ employee_ids: ["00000000-0000-4000-8000-000000000000"] }),
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
      const again = await w.hr.agent.put(`/api/payroll/draft-runs/${runId}`).send({}).expect(200);
      expect(again.body.data).toMatchObject({ employee_count: before.employee_count, total_net: before.total_net });
      expect(again.body.data.calculated_at > before.calculated_at!).toBe(true);
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
      expectError(await w.hr.agent.post(`/api/payroll/draft-runs/${runId}/process`), 500, "internal");
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
    const res = await w.hr.agent.post(`/api/payroll/draft-runs/${runId}/process`).expect(200);
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

    expectError(await w.hr.agent.post(`/api/payroll/draft-runs/${runId}/process`), 409, "conflict");
    expectError(await w.hr.agent.delete(`/api/payroll/draft-runs/${runId}`), 409, "conflict");
    expectError(await w.hr.agent.put(`/api/payroll/draft-runs/${runId}`).send({ notes: "x" }), 409, "conflict");
  });

  it("two concurrent process calls: exactly one succeeds, the other is a 409, nothing is paid twice", async () => {
    const r = await w.hr.agent.post("/api/payroll/draft-runs").send({ period: "2027-03" }).expect(201);
    const [x, y] = await Promise.all([
      w.hr.agent.post(`/api/payroll/draft-runs/${r.body.data.id}/process`),
      w.owner.agent.post(`/api/payroll/draft-runs/${r.body.data.id}/process`),
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
    const r = await w.hr.agent.post("/api/payroll/draft-runs").send({ period: "2027-05" }).expect(201);
    await w.hr.agent.delete(`/api/payroll/draft-runs/${r.body.data.id}`).expect(200);
    expectError(await w.hr.agent.get(`/api/payroll/draft-runs/${r.body.data.id}`), 404, "not_found");
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
    expectError(await aUser.agent.get(`/api/payroll/draft-runs/${runId}/employees/${b}`), 403, "forbidden");
    expectError(await aUser.agent.get(`/api/payroll/draft-runs/${runId}/breakdown`), 403, "forbidden");
    // hr without an employee record has no slips
    expect((await api(w.hr.agent).op("listMySalary").expect(200)).body.data).toEqual([]);
    expectError(await w.hr.agent.get(`/api/payroll/my-salary/${runId}`), 404, "not_found");
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
    expectError(await aUser.agent.get(`/api/payroll/draft-runs/${runId}/employees/${b}/pdf`), 403, "forbidden");
    expectError(await aUser.agent.get(`/api/payroll/draft-runs/${runId}/employees/${a}/pdf`), 403, "forbidden");
  });

  it("a draft run has no slip to download yet (409); an employee not in the run is a 404", async () => {
    const draft = await w.hr.agent.post("/api/payroll/draft-runs").send({ period: "2027-06" }).expect(201);
    expectError(await w.hr.agent.get(`/api/payroll/draft-runs/${draft.body.data.id}/employees/${a}/pdf`), 409, "conflict");
    await w.hr.agent.delete(`/api/payroll/draft-runs/${draft.body.data.id}`).expect(200);
    expectError(await w.hr.agent.get(`/api/payroll/draft-runs/${runId}/employees/${w.owner.userId}/pdf`), 404, "not_found");
  });
});

describe("module gate and tenancy", () => {
  it("a company without the module gets 403 module_disabled", async () => {
    const other = await signupTenant(t);
    expectError(await other.agent.get("/api/payroll/draft-runs"), 403, "module_disabled");
    expectError(await other.agent.get("/api/payroll/my-salary"), 403, "module_disabled");
    expectError(
      await other.agent
        .post("/api/payroll/salary-components")
        .send({ name: "X", code: "X", type: "earning", calculation: "fixed", amount: "1.00" }),
      403,
      "module_disabled",
    );
  });

  it("another company's ids are 404 on every id-taking operation", async () => {
    const other = await signupTenant(t);
    await other.agent
      .post("/api/configuration/company-settings")
      .send({ modules: ["payroll"] })
      .expect(200);
    const o = other.agent;
    const comp = w.components.BASIC;
    const checks = [
      o.get(`/api/payroll/salary-components/${comp}`),
      o.put(`/api/payroll/salary-components/${comp}`).send({ name: "Mine" }),
      o.delete(`/api/payroll/salary-components/${comp}`),
      o.get(`/api/payroll/employee-setup/${a}`),
      o.put(`/api/payroll/employee-setup/${a}`).send({ effective_from: "2027-01-01" }),
      o.get(`/api/payroll/draft-runs/${runId}`),
      o.put(`/api/payroll/draft-runs/${runId}`).send({}),
      o.delete(`/api/payroll/draft-runs/${runId}`),
      o.post(`/api/payroll/draft-runs/${runId}/process`),
      o.get(`/api/payroll/draft-runs/${runId}/breakdown`),
      o.get(`/api/payroll/draft-runs/${runId}/employees/${a}`),
      o.get(`/api/payroll/draft-runs/${runId}/employees/${a}/pdf`),
      o.get(`/api/payroll/my-salary/${runId}`),
      o.get(`/api/payroll/my-salary/${runId}/pdf`),
      o.get(`/api/payroll/loan-advances/${loanId}`),
      o.put(`/api/payroll/loan-advances/${loanId}`).send({ status: "rejected" }),
      o.delete(`/api/payroll/loan-advances/${loanId}`),
      o.post(`/api/payroll/loan-advances/${loanId}/defer`).send({}),
      o.get(`/api/payroll/expense-claims/${claimId}`),
      o.put(`/api/payroll/expense-claims/${claimId}`).send({ status: "rejected" }),
      o.delete(`/api/payroll/expense-claims/${claimId}`),
      o.get(`/api/payroll/wps/${runId}`),
    ];
    for (const res of await Promise.all(checks)) expectError(res, 404, "not_found");
    expect((await o.get("/api/payroll/draft-runs").expect(200)).body.data).toEqual([]);
    expect((await o.get("/api/payroll/loan-advances").expect(200)).body.data).toEqual([]);
    expect((await o.get("/api/payroll/expense-claims").expect(200)).body.data).toEqual([]);
    expect((await o.get("/api/payroll/salary-components").expect(200)).body.data).toEqual([]);
  });
});
