// Loans and advances (limits, decisions, schedule, defer, cancel) and expense claims (limits,
// receipts, manager approval, visibility, payment by payroll, cancel).
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { expectDetails, expectError, useTestApp, type TenantSession } from "../support/app.ts";
import { memberFor, payrollEmployee, payrollWorld, type PayrollWorld } from "./fixtures.ts";
import { PAYROLL_FIGURES_DAY, useClock } from "../support/clock.ts";

// the months below (loans, runs) are worked out by hand from this day
useClock(PAYROLL_FIGURES_DAY);
const t = useTestApp();
let w: PayrollWorld;
let mgrId: string;
let empId: string;
let otherId: string;
let mgr: TenantSession;
let emp: TenantSession;
let other: TenantSession;
let loanTypeId: string;

beforeAll(async () => {
  w = await payrollWorld(t);
  mgrId = await payrollEmployee(t, w, "60000.00", { first_name: "Maya", last_name: "Manager" });
  empId = await payrollEmployee(t, w, "30000.00", { first_name: "Eli", last_name: "Employee", reports_to: mgrId });
  otherId = await payrollEmployee(t, w, "30000.00", { first_name: "Oli", last_name: "Other" });
  [mgr, emp, other] = await Promise.all([memberFor(t, w, mgrId, "manager"), memberFor(t, w, empId), memberFor(t, w, otherId)]);
  loanTypeId = (
    await api(w.hr.agent)
      .op("createLoanType", { body: { name: "Personal loan", max_amount: "100000.00", max_installments: 6, interest_rate: "12" } })
      .expect(201)
  ).body.data.id;
});

describe(
  "listLoanAdvances, createLoanAdvance, getLoanAdvance, updateLoanAdvance, " + "cancelLoanAdvance, deferLoanAdvance: loans and advances",
  () => {
    it("applies within the loan type's limits", async () => {
      const e1 = expectDetails(
        await api(emp.agent).op("createLoanAdvance", { body: { loan_type_id: loanTypeId, amount: "100000.01", installments: 3 } }),
        400,
        "validation_failed",
      );
      expect(e1.details[0].path).toBe("body.amount");
      const e2 = expectDetails(
        await api(emp.agent).op("createLoanAdvance", { body: { loan_type_id: loanTypeId, amount: "1000.00", installments: 7 } }),
        400,
        "validation_failed",
      );
      expect(e2.details[0].path).toBe("body.installments");
      expectError(
        await api(emp.agent).op("createLoanAdvance", {
          body: { loan_type_id: loanTypeId, amount: "1000.00", installments: 2, start_month: "2020-01" },
        }),
        400,
        "validation_failed",
      );
      expectError(
        await api(emp.agent).op("createLoanAdvance", {
          body: { employee_id: otherId, loan_type_id: loanTypeId, amount: "1000.00", installments: 2 },
        }),
        403,
        "forbidden",
      );
      // hr applying for an employee that does not exist (or is another company's): a documented 404, not a 500
      const foreign = await payrollEmployee(t, await payrollWorld(t), null);
      for (const employee_id of ["00000000-0000-4000-8000-000000000000", foreign])
        expectError(
          await api(w.hr.agent).op("createLoanAdvance", {
            body: { employee_id, loan_type_id: loanTypeId, amount: "1000.00", installments: 2 },
          }),
          404,
          "not_found",
        );
      const inactive = await api(w.hr.agent)
        .op("createLoanType", { body: { name: "Old", max_installments: 3, active: false } })
        .expect(201);
      expectError(
        await api(emp.agent).op("createLoanAdvance", { body: { loan_type_id: inactive.body.data.id, amount: "1000.00", installments: 2 } }),
        409,
        "conflict",
      );
    });

    it("pending → approved with a schedule; defer moves the next installment and extends the schedule", async () => {
      const c = await api(emp.agent)
        .op("createLoanAdvance", {
          body: { loan_type_id: loanTypeId, amount: "30000.00", installments: 6, start_month: "2027-01", reason: "Repairs" },
        })
        .expect(201);
      const loan = c.body.data;
      // 12 % simple interest for 6 months: 30 000 + 1 800
      expect(loan).toMatchObject({
        loan_number: "LN-00001",
        status: "pending",
        total_repayable: "31800.00",
        installment_amount: "5300.00",
        start_month: "2027-01",
        schedule: [],
        outstanding_amount: "31800.00",
        interest_rate: "12.00",
      });
      // the applicant may change a pending application, not decide it
      const ch = await api(emp.agent)
        .op("updateLoanAdvance", { params: { id: loan.id }, body: { installments: 4 } })
        .expect(200);
      expect(ch.body.data).toMatchObject({ installments: 4, total_repayable: "31200.00", installment_amount: "7800.00" });
      expectError(
        await api(emp.agent).op("updateLoanAdvance", { params: { id: loan.id }, body: { status: "approved" } }),
        403,
        "forbidden",
      );
      expectError(
        await api(w.hr.agent).op("updateLoanAdvance", { params: { id: loan.id }, body: { status: "approved", amount: "1.00" } }),
        400,
        "validation_failed",
      );
      // pending: nothing to defer
      expectError(await api(w.hr.agent).op("deferLoanAdvance", { params: { id: loan.id }, body: {} }), 409, "conflict");
      const ap = await api(w.hr.agent)
        .op("updateLoanAdvance", { params: { id: loan.id }, body: { status: "approved", comment: "ok" } })
        .expect(200);
      expect(ap.body.data).toMatchObject({ status: "approved", decision_comment: "ok" });
      expect(ap.body.data.schedule.map((i) => [i.seq, i.due_month, i.amount])).toEqual([
        [1, "2027-01", "7800.00"],
        [2, "2027-02", "7800.00"],
        [3, "2027-03", "7800.00"],
        [4, "2027-04", "7800.00"],
      ]);
      expectError(
        await api(w.hr.agent).op("updateLoanAdvance", { params: { id: loan.id }, body: { status: "rejected" } }),
        409,
        "conflict",
      );
      expectError(await api(emp.agent).op("deferLoanAdvance", { params: { id: loan.id }, body: {} }), 403, "forbidden");
      const d = await api(w.hr.agent)
        .op("deferLoanAdvance", { params: { id: loan.id }, body: { reason: "Festival month" } })
        .expect(200);
      expect(d.body.data.schedule.map((i) => [i.seq, i.due_month, i.deferrals])).toEqual([
        [1, "2027-02", 1],
        [2, "2027-03", 0],
        [3, "2027-04", 0],
        [4, "2027-05", 0],
      ]);
      // a January run deducts nothing, February deducts installment 1
      const jan = await api(w.hr.agent)
        .op("createPayrollRun", { body: { period: "2027-01", employee_ids: [empId] } })
        .expect(201);
      expect(
        (
          await api(w.hr.agent)
            .op("getPayrollRunEmployee", { params: { id: jan.body.data.id, employeeId: empId } })
            .expect(200)
        ).body.data.loan_deduction,
      ).toBe("0.00");
      const notes = await api(emp.agent).op("listNotifications").expect(200);
      expect(notes.body.data.map((n) => n.kind)).toEqual(expect.arrayContaining(["loan.approved", "loan.deferred"]));
      const log = await api(w.owner.agent)
        .op("listActivityLog", { query: { entity_id: loan.id } })
        .expect(200);
      expect(log.body.data.map((e) => e.action)).toEqual([
        "loan_advance.deferred",
        "loan_advance.approved",
        "loan_advance.updated",
        "loan_advance.created",
      ]);
      // the approved loan can be cancelled by hr while nothing is repaid
      expectError(await api(emp.agent).op("cancelLoanAdvance", { params: { id: loan.id } }), 403, "forbidden");
      const x = await api(w.hr.agent)
        .op("cancelLoanAdvance", { params: { id: loan.id } })
        .expect(200);
      expect(x.body.data).toMatchObject({ status: "cancelled", schedule: [], outstanding_amount: "0.00" });
      expectError(await api(w.hr.agent).op("cancelLoanAdvance", { params: { id: loan.id } }), 409, "conflict");
      expectError(await api(w.hr.agent).op("deferLoanAdvance", { params: { id: loan.id }, body: {} }), 409, "conflict");
    });

    it("runs to closed through payroll; defer with nothing left is a 409; visibility is own-only", async () => {
      const c = await api(w.hr.agent)
        .op("createLoanAdvance", {
          body: { employee_id: otherId, loan_type_id: loanTypeId, amount: "1000.00", installments: 1, start_month: "2027-06" },
        })
        .expect(201);
      expectError(
        await api(other.agent).op("updateLoanAdvance", { params: { id: c.body.data.id }, body: { status: "approved" } }),
        403,
        "forbidden",
      );
      await api(w.hr.agent)
        .op("updateLoanAdvance", { params: { id: c.body.data.id }, body: { status: "approved" } })
        .expect(200);
      const run = await api(w.hr.agent)
        .op("createPayrollRun", { body: { period: "2027-06", employee_ids: [otherId] } })
        .expect(201);
      await api(w.hr.agent)
        .op("processPayrollRun", { params: { id: run.body.data.id } })
        .expect(200);
      const l = (
        await api(other.agent)
          .op("getLoanAdvance", { params: { id: c.body.data.id } })
          .expect(200)
      ).body.data;
      expect(l).toMatchObject({ status: "closed", repaid_amount: "1010.00", outstanding_amount: "0.00" }); // 1 000 + 12 %/12
      expect(l.closed_at).toBeTruthy();
      expectError(await api(w.hr.agent).op("deferLoanAdvance", { params: { id: c.body.data.id }, body: {} }), 409, "conflict");
      expectError(await api(w.hr.agent).op("cancelLoanAdvance", { params: { id: c.body.data.id } }), 409, "conflict");
      // employees and managers see only their own loans
      expectError(await api(emp.agent).op("getLoanAdvance", { params: { id: c.body.data.id } }), 404, "not_found");
      expectError(await api(mgr.agent).op("getLoanAdvance", { params: { id: c.body.data.id } }), 404, "not_found");
      expect((await api(other.agent).op("listLoanAdvances").expect(200)).body.data.map((x) => x.employee_id)).toEqual([otherId]);
      expect(
        (
          await api(emp.agent)
            .op("listLoanAdvances", { query: { employee_id: otherId } })
            .expect(200)
        ).body.data,
      ).toEqual([]);
      expect(
        (
          await api(w.hr.agent)
            .op("listLoanAdvances", { query: { status: "closed" } })
            .expect(200)
        ).body.data,
      ).toHaveLength(1);
      // a withdrawn pending application
      const p = await api(other.agent)
        .op("createLoanAdvance", { body: { loan_type_id: loanTypeId, amount: "500.00", installments: 1 } })
        .expect(201);
      expect(
        (
          await api(other.agent)
            .op("cancelLoanAdvance", { params: { id: p.body.data.id } })
            .expect(200)
        ).body.data.status,
      ).toBe("cancelled");
    });
  },
);

describe("listExpenseClaims, createExpenseClaim, getExpenseClaim, updateExpenseClaim, cancelExpenseClaim: expense claims", () => {
  let travel: string;
  let meals: string;
  let receipt: string;
  beforeAll(async () => {
    travel = (
      await api(w.hr.agent)
        .op("createExpenseCategory", { body: { name: "Travel", max_claim_amount: "5000.00", requires_receipt: true } })
        .expect(201)
    ).body.data.id;
    meals = (
      await api(w.hr.agent)
        .op("createExpenseCategory", { body: { name: "Meals", requires_receipt: false } })
        .expect(201)
    ).body.data.id;
    receipt = (
      await emp.agent
        .post("/api/upload")
        .attach("file", Buffer.from("Taxi receipt 1250.00"), { filename: "receipt.txt", contentType: "text/plain" })
        .expect(201)
    ).body.data.id;
  });

  it("enforces the category's limit and receipt rule", async () => {
    const base = { category_id: travel, amount: "1250.00", expense_date: "2026-10-01", description: "Taxi" };
    expect(expectDetails(await api(emp.agent).op("createExpenseClaim", { body: base }), 400).details[0].path).toBe("body.receipt_file_id");
    expect(
      expectDetails(await api(emp.agent).op("createExpenseClaim", { body: { ...base, amount: "5000.01", receipt_file_id: receipt } }), 400)
        .details[0].path,
    ).toBe("body.amount");
    expect(
      expectDetails(
        await api(emp.agent).op("createExpenseClaim", { body: { ...base, receipt_file_id: "00000000-0000-4000-8000-000000000000" } }),
        400,
      ).details[0].path,
    ).toBe("body.receipt_file_id");
    // another member's upload is not the claimant's receipt
    const othersUpload = (
      await other.agent
        .post("/api/upload")
        .attach("file", Buffer.from("Someone else's receipt"), { filename: "theirs.txt", contentType: "text/plain" })
        .expect(201)
    ).body.data.id;
    const notMine = expectDetails(await api(emp.agent).op("createExpenseClaim", { body: { ...base, receipt_file_id: othersUpload } }), 400);
    expect(notMine.details[0]).toEqual({ path: "body.receipt_file_id", message: "is not a file you or the claimant uploaded" });
    expect(
      expectDetails(
        await api(emp.agent).op("createExpenseClaim", { body: { ...base, receipt_file_id: receipt, expense_date: "2099-01-01" } }),
        400,
      ).details[0].path,
    ).toBe("body.expense_date");
    expectError(
      await api(emp.agent).op("createExpenseClaim", { body: { ...base, amount: "12.5", receipt_file_id: receipt } }),
      400,
      "validation_failed",
    );
    // hr claiming for an employee that does not exist: a documented 404, not a 500
    expectError(
      await api(w.hr.agent).op("createExpenseClaim", {
        body: { ...base, employee_id: "00000000-0000-4000-8000-000000000000", receipt_file_id: receipt },
      }),
      404,
      "not_found",
    );
    const ok = await api(emp.agent)
      .op("createExpenseClaim", { body: { ...base, receipt_file_id: receipt } })
      .expect(201);
    expect(ok.body.data).toMatchObject({
      claim_number: "EXP-00001",
      status: "pending",
      amount: "1250.00",
      category_name: "Travel",
      employee_id: empId,
      receipt_file_id: receipt,
    });
    await api(emp.agent)
      .op("createExpenseClaim", {
        body: { category_id: meals, amount: "99999.00", expense_date: "2026-10-02", description: "Team dinner" },
      })
      .expect(201); // no limit, no receipt needed
  });

  it("manager approves a report's claim, never their own; visibility by role; payroll pays it", async () => {
    const c = await api(emp.agent)
      .op("createExpenseClaim", { body: { category_id: meals, amount: "640.50", expense_date: "2026-10-05", description: "Client lunch" } })
      .expect(201);
    const own = await api(mgr.agent)
      .op("createExpenseClaim", { body: { category_id: meals, amount: "100.00", expense_date: "2026-10-05", description: "Coffee" } })
      .expect(201);
    const theirs = await api(other.agent)
      .op("createExpenseClaim", { body: { category_id: meals, amount: "80.00", expense_date: "2026-10-05", description: "Snacks" } })
      .expect(201);
    expectError(
      await api(mgr.agent).op("updateExpenseClaim", { params: { id: own.body.data.id }, body: { status: "approved" } }),
      403,
      "forbidden",
    );
    expectError(
      await api(emp.agent).op("updateExpenseClaim", { params: { id: c.body.data.id }, body: { status: "approved" } }),
      403,
      "forbidden",
    );
    expectError(await api(mgr.agent).op("getExpenseClaim", { params: { id: theirs.body.data.id } }), 404, "not_found");
    expectError(await api(emp.agent).op("getExpenseClaim", { params: { id: theirs.body.data.id } }), 404, "not_found");
    const mgrList = (await api(mgr.agent).op("listExpenseClaims").expect(200)).body.data.map((x) => x.employee_id);
    expect(new Set(mgrList)).toEqual(new Set([mgrId, empId]));
    expect(new Set((await api(emp.agent).op("listExpenseClaims").expect(200)).body.data.map((x) => x.employee_id))).toEqual(
      new Set([empId]),
    );
    expect((await api(w.hr.agent).op("listExpenseClaims").expect(200)).body.pagination!.total).toBe(5);
    // the claimant edits while pending
    const ed = await api(emp.agent)
      .op("updateExpenseClaim", { params: { id: c.body.data.id }, body: { amount: "650.50" } })
      .expect(200);
    expect(ed.body.data.amount).toBe("650.50");
    const ap = await api(mgr.agent)
      .op("updateExpenseClaim", { params: { id: c.body.data.id }, body: { status: "approved", comment: "fine" } })
      .expect(200);
    expect(ap.body.data).toMatchObject({ status: "approved", decision_comment: "fine" });
    expectError(
      await api(emp.agent).op("updateExpenseClaim", { params: { id: c.body.data.id }, body: { amount: "1.00" } }),
      409,
      "conflict",
    );
    expectError(await api(emp.agent).op("cancelExpenseClaim", { params: { id: c.body.data.id } }), 403, "forbidden");
    await api(w.hr.agent)
      .op("updateExpenseClaim", { params: { id: theirs.body.data.id }, body: { status: "rejected", comment: "personal" } })
      .expect(200);
    expectError(await api(w.hr.agent).op("cancelExpenseClaim", { params: { id: theirs.body.data.id } }), 409, "conflict");
    // payroll reimburses approved claims once
    const run = await api(w.hr.agent)
      .op("createPayrollRun", { body: { period: "2026-12", employee_ids: [empId] } })
      .expect(201);
    const slip = (
      await api(w.hr.agent)
        .op("getPayrollRunEmployee", { params: { id: run.body.data.id, employeeId: empId } })
        .expect(200)
    ).body.data;
    expect(slip.reimbursement_lines.map((x) => [x.claim_id, x.amount])).toEqual([[c.body.data.id, "650.50"]]);
    await api(w.hr.agent)
      .op("processPayrollRun", { params: { id: run.body.data.id } })
      .expect(200);
    const paid = (
      await api(emp.agent)
        .op("getExpenseClaim", { params: { id: c.body.data.id } })
        .expect(200)
    ).body.data;
    expect(paid).toMatchObject({ status: "paid", paid_run_id: run.body.data.id });
    expectError(await api(w.hr.agent).op("cancelExpenseClaim", { params: { id: c.body.data.id } }), 409, "conflict");
    const next = await api(w.hr.agent)
      .op("createPayrollRun", { body: { period: "2027-07", employee_ids: [empId] } })
      .expect(201);
    expect(
      (
        await api(w.hr.agent)
          .op("getPayrollRunEmployee", { params: { id: next.body.data.id, employeeId: empId } })
          .expect(200)
      ).body.data.reimbursements,
    ).toBe("0.00");
    expect(
      (
        await api(emp.agent)
          .op("listExpenseClaims", { query: { status: "paid" } })
          .expect(200)
      ).body.data,
    ).toHaveLength(1);
    const log = await api(w.owner.agent)
      .op("listActivityLog", { query: { entity_id: c.body.data.id } })
      .expect(200);
    expect(log.body.data.map((e) => e.action)).toEqual(["expense_claim.approved", "expense_claim.updated", "expense_claim.created"]);
  });

  it("cancels pending claims (claimant) and approved unpaid ones (hr)", async () => {
    const p = await api(emp.agent)
      .op("createExpenseClaim", { body: { category_id: meals, amount: "10.00", expense_date: "2026-10-06", description: "Tea" } })
      .expect(201);
    expect(
      (
        await api(emp.agent)
          .op("cancelExpenseClaim", { params: { id: p.body.data.id } })
          .expect(200)
      ).body.data.status,
    ).toBe("cancelled");
    const q = await api(emp.agent)
      .op("createExpenseClaim", { body: { category_id: meals, amount: "20.00", expense_date: "2026-10-06", description: "Tea" } })
      .expect(201);
    await api(w.hr.agent)
      .op("updateExpenseClaim", { params: { id: q.body.data.id }, body: { status: "approved" } })
      .expect(200);
    expect(
      (
        await api(w.hr.agent)
          .op("cancelExpenseClaim", { params: { id: q.body.data.id } })
          .expect(200)
      ).body.data,
    ).toMatchObject({
      status: "cancelled",
      cancelled_by: w.hr.userId,
    });
  });
});
