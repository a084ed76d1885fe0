// Loans and expense claims without HTTP: the approval rules of src/modules/payroll/loans.ts and
// claims.ts (on the shared submit → decide → cancel flow) called directly inside the tenant -
// who is told of a new request, who may decide and cancel in which state (and in which order the
// checks answer), what a decision and a cancellation write, audit and tell.
import { beforeAll, describe, expect, it } from "vitest";
import { authOf } from "../support/auth-context.ts";
import { withTenant } from "../../src/db/tenancy.ts";
import type { AuthContext, Role } from "../../src/http/types.ts";
import { cancelClaim, reviseClaim, submitClaim } from "../../src/modules/payroll/claims.ts";
import { applyForLoan, cancelLoan, reviseLoan } from "../../src/modules/payroll/loans.ts";
import { addMember, useTestApp, type TenantSession } from "../support/app.ts";
import { memberFor, payrollEmployee, payrollWorld, type PayrollWorld } from "./fixtures.ts";
import { PAYROLL_FIGURES_DAY, today, useClock } from "../support/clock.ts";
import { api } from "../support/api.ts";

// the months below (loans, runs) are worked out by hand from this day
useClock(PAYROLL_FIGURES_DAY);
const t = useTestApp();
let w: PayrollWorld;
let owner: AuthContext;
let hr: AuthContext;
let mgr: AuthContext; // manages emp
let emp: AuthContext;
let solo: AuthContext; // no manager
let hrSelf: AuthContext; // an hr member who is an employee too
let meals: string;
let loanTypeId: string;

const as = (s: TenantSession, role: Role, employeeId: string | null = null): AuthContext => authOf(s, role, { employeeId, name: role });
const inTenant = <T>(fn: () => Promise<T>) => withTenant(w.owner.tenantId, fn);
const noticesOf = async (user: AuthContext, kind: string) =>
  await t.query(`SELECT title, body, link FROM notifications WHERE user_id = $1 AND kind = $2 ORDER BY created_at`, [user.userId, kind]);
const actionsOf = async (entityId: string) =>
  (await t.query<{ action: string }>(`SELECT action FROM audit_logs WHERE entity_id = $1 ORDER BY created_at, id`, [entityId])).map(
    (r) => r.action,
  );

beforeAll(async () => {
  w = await payrollWorld(t);
  owner = as(w.owner, "owner");
  hr = as(w.hr, "hr");
  const mgrId = await payrollEmployee(t, w, "60000.00", { first_name: "Maya", last_name: "Manager" });
  const empId = await payrollEmployee(t, w, "30000.00", { first_name: "Eli", last_name: "Employee", reports_to: mgrId });
  const soloId = await payrollEmployee(t, w, "30000.00", { first_name: "Sol", last_name: "Alone" });
  const hrEmpId = await payrollEmployee(t, w, "50000.00", { first_name: "Hari", last_name: "Personnel" });
  mgr = as(await memberFor(t, w, mgrId, "manager"), "manager", mgrId);
  emp = as(await memberFor(t, w, empId), "employee", empId);
  solo = as(await memberFor(t, w, soloId), "employee", soloId);
  hrSelf = as(await addMember(t, w.owner, "hr", { employeeId: hrEmpId }), "hr", hrEmpId);
  meals = (
    await api(w.hr.agent)
      .op("createExpenseCategory", { body: { name: "Meals", requires_receipt: false } })
      .expect(201)
  ).body.data.id;
  loanTypeId = (
    await api(w.hr.agent)
      .op("createLoanType", { body: { name: "Personal loan", max_amount: "100000.00", max_installments: 6, interest_rate: "12" } })
      .expect(201)
  ).body.data.id;
});

const claim = (by: AuthContext, amount = "100.00", employee_id?: string) =>
  inTenant(() =>
    submitClaim(by, {
      category_id: meals,
      amount,
      expense_date: "2026-11-02",
      description: "Lunch",
      ...(employee_id ? { employee_id } : {}),
    }),
  );
const loan = (by: AuthContext, employee_id?: string) =>
  inTenant(() =>
    applyForLoan(by, {
      loan_type_id: loanTypeId,
      amount: "1200.00",
      installments: 2,
      start_month: "2027-01",
      ...(employee_id ? { employee_id } : {}),
    }),
  );

describe("createExpenseClaim: who is told", () => {
  it("the claimant's manager when there is one, else every hr/admin/owner member but the one who filed it", async () => {
    const c = await claim(emp, "640.50");
    expect(c).toMatchObject({
      claim_number: "EXP-00001",
      status: "pending",
      amount: "640.50",
      employee_id: emp.employeeId,
      requested_by: emp.userId,
    });
    expect(await noticesOf(mgr, "expense_claim.submitted")).toEqual([
      { title: "EXP-00001: Meals claim of 640.50 from Eli Employee", body: null, link: `/api/payroll/expense-claims/${c.id}` },
    ]);
    expect(await noticesOf(hr, "expense_claim.submitted")).toEqual([]);
    expect(await actionsOf(c.id)).toEqual(["expense_claim.created"]);

    const s = await claim(solo);
    for (const member of [hr, owner, hrSelf])
      expect((await noticesOf(member, "expense_claim.submitted")).map((n) => n.link)).toEqual([`/api/payroll/expense-claims/${s.id}`]);
    // hr filing for an employee without a manager: the other hr/admin/owner members are told, not the filer
    const f = await claim(hr, "50.00", solo.employeeId!);
    expect((await noticesOf(hr, "expense_claim.submitted")).map((n) => n.link)).toEqual([`/api/payroll/expense-claims/${s.id}`]);
    expect((await noticesOf(owner, "expense_claim.submitted")).map((n) => n.link)).toEqual([
      `/api/payroll/expense-claims/${s.id}`,
      `/api/payroll/expense-claims/${f.id}`,
    ]);
  });
});

describe("updateExpenseClaim: deciding a claim", () => {
  it("the claimant's manager or hr decides, never the claimant; only once; a decision and a change never go together", async () => {
    const c = await claim(emp);
    await expect(inTenant(() => reviseClaim(emp, c.id, { status: "approved" }))).rejects.toMatchObject({
      status: 403,
      message: "You cannot decide your own request: only the company's owner may decide on their own record",
    });
    // not theirs to see
    await expect(inTenant(() => reviseClaim(solo, c.id, { status: "approved" }))).rejects.toMatchObject({ status: 404 });
    await expect(inTenant(() => reviseClaim(mgr, c.id, { status: "approved", amount: "1.00" }))).rejects.toMatchObject({
      status: 400,
      message: "Decide (status) or change the claim, not both",
    });
    await expect(inTenant(() => reviseClaim(emp, c.id, { comment: "why" }))).rejects.toMatchObject({ status: 400 });

    const ap = await inTenant(() => reviseClaim(mgr, c.id, { status: "approved", comment: "fine" }));
    expect(ap).toMatchObject({ status: "approved", decided_by: mgr.userId, decision_comment: "fine" });
    expect(ap.decided_at).toBeTruthy();
    expect(await noticesOf(emp, "expense_claim.approved")).toEqual([
      { title: `Your expense claim ${c.claim_number} was approved`, body: "fine", link: `/api/payroll/expense-claims/${c.id}` },
    ]);
    const [entry] = await t.query(`SELECT changes FROM audit_logs WHERE entity_id = $1 AND action = 'expense_claim.approved'`, [c.id]);
    expect(entry.changes).toEqual({ status: { from: "pending", to: "approved" }, comment: "fine" });

    await expect(inTenant(() => reviseClaim(hr, c.id, { status: "rejected" }))).rejects.toMatchObject({
      status: 409,
      message: "The claim is approved; only a pending claim can be decided",
    });
    await expect(inTenant(() => reviseClaim(emp, c.id, { amount: "1.00" }))).rejects.toMatchObject({
      status: 409,
      message: "The claim is approved; only a pending claim can be changed",
    });
  });
});

describe("cancelExpenseClaim: who may cancel in which state", () => {
  it(
    "a pending claim by the claimant (no notice to themself); an " + "approved one by hr only (the claimant is told); nothing else",
    async () => {
      const p = await claim(emp, "10.00");
      expect(await inTenant(() => cancelClaim(emp, p.id))).toMatchObject({ status: "cancelled", cancelled_by: emp.userId });
      expect(await noticesOf(emp, "expense_claim.cancelled")).toEqual([]);
      expect(await actionsOf(p.id)).toEqual(["expense_claim.created", "expense_claim.cancelled"]);

      const a = await claim(emp, "20.00");
      await inTenant(() => reviseClaim(hr, a.id, { status: "approved" }));
      await expect(inTenant(() => cancelClaim(emp, a.id))).rejects.toMatchObject({
        status: 403,
        message: "Only hr, admin or owner can cancel an approved claim",
      });
      await expect(inTenant(() => cancelClaim(mgr, a.id))).rejects.toMatchObject({ status: 403 });
      expect(await inTenant(() => cancelClaim(hr, a.id))).toMatchObject({ status: "cancelled", cancelled_by: hr.userId });
      expect(await noticesOf(emp, "expense_claim.cancelled")).toEqual([
        { title: `Your expense claim ${a.claim_number} was cancelled`, body: null, link: `/api/payroll/expense-claims/${a.id}` },
      ]);
      const [entry] = await t.query(`SELECT changes FROM audit_logs WHERE entity_id = $1 AND action = 'expense_claim.cancelled'`, [a.id]);
      expect(entry.changes).toEqual({ status: { from: "approved", to: "cancelled" } });

      const r = await claim(emp, "30.00");
      await inTenant(() => reviseClaim(mgr, r.id, { status: "rejected", comment: "personal" }));
      await expect(inTenant(() => cancelClaim(hr, r.id))).rejects.toMatchObject({
        status: 409,
        message: "A rejected claim cannot be cancelled",
      });
      await expect(inTenant(() => cancelClaim(hr, a.id))).rejects.toMatchObject({
        status: 409,
        message: "A cancelled claim cannot be cancelled",
      });
    },
  );
});

describe("createLoanAdvance: who is told", () => {
  it("every hr/admin/owner member but the one who filed it; never the manager", async () => {
    const l = await loan(emp);
    expect(l).toMatchObject({ status: "pending", total_repayable: "1224.00", installment_amount: "612.00", schedule: [] });
    for (const member of [hr, owner, hrSelf])
      expect(await noticesOf(member, "loan.submitted")).toEqual([
        {
          title: `${l.loan_number}: Personal loan of 1200.00 requested by Eli Employee`,
          body: null,
          link: `/api/payroll/loan-advances/${l.id}`,
        },
      ]);
    expect(await noticesOf(mgr, "loan.submitted")).toEqual([]);
    const byHr = await loan(hr, solo.employeeId!);
    expect((await noticesOf(hr, "loan.submitted")).map((n) => n.link)).toEqual([`/api/payroll/loan-advances/${l.id}`]);
    expect((await noticesOf(owner, "loan.submitted")).map((n) => n.link)).toEqual([
      `/api/payroll/loan-advances/${l.id}`,
      `/api/payroll/loan-advances/${byHr.id}`,
    ]);
  });
});

describe("updateLoanAdvance: deciding a loan", () => {
  it("hr/admin/owner only, never on their own loan - checked after the pending check", async () => {
    const l = await loan(emp);
    await expect(inTenant(() => reviseLoan(emp, l.id, { status: "approved" }))).rejects.toMatchObject({
      status: 403,
      message: "Only hr, admin or owner can decide a loan application",
    });
    // a manager does not see a report's loan
    await expect(inTenant(() => reviseLoan(mgr, l.id, { status: "approved" }))).rejects.toMatchObject({ status: 404 });
    const own = await loan(hrSelf);
    await expect(inTenant(() => reviseLoan(hrSelf, own.id, { status: "approved" }))).rejects.toMatchObject({
      status: 403,
      message: "You cannot decide your own loan application: only the company's owner may decide on their own record",
    });
    expect(await inTenant(() => reviseLoan(hr, own.id, { status: "rejected", comment: "not now" }))).toMatchObject({
      status: "rejected",
      decided_by: hr.userId,
      decision_comment: "not now",
      schedule: [],
    });
    // once decided, a 409 answers first - even to someone who could never decide it
    await expect(inTenant(() => reviseLoan(hrSelf, own.id, { status: "approved" }))).rejects.toMatchObject({
      status: 409,
      message: "The loan is rejected; only a pending application can be decided",
    });
    expect(await noticesOf(hrSelf, "loan.rejected")).toEqual([
      { title: `Your loan application ${own.loan_number} was rejected`, body: "not now", link: `/api/payroll/loan-advances/${own.id}` },
    ]);
  });

  it("approval writes the schedule from the start month, or from this month once that has passed", async () => {
    const l = await loan(emp);
    const ap = await inTenant(() => reviseLoan(owner, l.id, { status: "approved", comment: "ok" }));
    expect(ap).toMatchObject({ status: "approved", start_month: "2027-01", outstanding_amount: "1224.00" });
    expect(ap.schedule.map((i) => [i.seq, i.due_month, i.amount, i.status])).toEqual([
      [1, "2027-01", "612.00", "pending"],
      [2, "2027-02", "612.00", "pending"],
    ]);
    expect(await actionsOf(l.id)).toEqual(["loan_advance.created", "loan_advance.approved"]);

    const late = await loan(emp);
    await t.query(`UPDATE loan_advances SET start_month = '2026-01-01' WHERE id = $1`, [late.id]);
    const month = today().slice(0, 7); // this month in the tenant's time zone by the server's clock
    const moved = await inTenant(() => reviseLoan(hr, late.id, { status: "approved" }));
    expect(moved.start_month).toBe(month);
    expect(moved.schedule[0].due_month).toBe(month);
  });
});

describe("cancelLoanAdvance: who may cancel in which state", () => {
  it(
    "a pending application by its employee; an approved loan by hr only, " + "while nothing was deducted (its schedule goes); nothing else",
    async () => {
      const p = await loan(emp);
      await expect(inTenant(() => cancelLoan(solo, p.id))).rejects.toMatchObject({ status: 404 });
      expect(await inTenant(() => cancelLoan(emp, p.id))).toMatchObject({ status: "cancelled", cancelled_by: emp.userId });
      expect(await noticesOf(emp, "loan.cancelled")).toEqual([]);

      const a = await loan(emp);
      await inTenant(() => reviseLoan(hr, a.id, { status: "approved" }));
      await expect(inTenant(() => cancelLoan(emp, a.id))).rejects.toMatchObject({
        status: 403,
        message: "Only hr, admin or owner can cancel an approved loan",
      });
      const x = await inTenant(() => cancelLoan(hr, a.id));
      expect(x).toMatchObject({ status: "cancelled", cancelled_by: hr.userId, schedule: [], outstanding_amount: "0.00" });
      const [{ n }] = await t.query(`SELECT count(*)::int AS n FROM loan_installments WHERE loan_id = $1`, [a.id]);
      expect(n).toBe(0);
      expect(await noticesOf(emp, "loan.cancelled")).toEqual([
        { title: `Your loan ${a.loan_number} was cancelled`, body: null, link: `/api/payroll/loan-advances/${a.id}` },
      ]);
      const [entry] = await t.query(`SELECT changes FROM audit_logs WHERE entity_id = $1 AND action = 'loan_advance.cancelled'`, [a.id]);
      expect(entry.changes).toEqual({ status: { from: "approved", to: "cancelled" } });
      await expect(inTenant(() => cancelLoan(hr, a.id))).rejects.toMatchObject({
        status: 409,
        message: "A cancelled loan cannot be cancelled",
      });

      const d = await loan(emp);
      await inTenant(() => reviseLoan(hr, d.id, { status: "approved" }));
      await t.query(`UPDATE loan_installments SET status = 'paid' WHERE loan_id = $1 AND seq = 1`, [d.id]);
      await expect(inTenant(() => cancelLoan(hr, d.id))).rejects.toMatchObject({
        status: 409,
        message: "Installments were already deducted; the loan cannot be cancelled",
      });
      const [{ m }] = await t.query(`SELECT count(*)::int AS m FROM loan_installments WHERE loan_id = $1`, [d.id]);
      expect(m).toBe(2); // nothing removed
    },
  );
});
