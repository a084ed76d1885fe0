// Loans and advances: application within the loan type's limits, decision by hr/admin/owner
// (approval creates the installment schedule), deduction by payroll (approved → active →
// closed), deferral of the next installment, cancellation.
import type { Prisma } from "../../../generated/prisma/client.ts";
import { audit } from "../../audit.ts";
import { currentTenantId, db, tenantTx, type ScopedTx } from "../../db/tenancy.ts";
import { created, ok, pageOf, paginated } from "../../http/envelope.ts";
import { badRequest, conflict, forbidden, invalidField, notFound } from "../../http/errors.ts";
import type { AreaHandlers, AuthContext } from "../../http/types.ts";
import { parseDate, toDateString } from "../../lib/dates.ts";
import { Decimal, moneyString, percentString } from "../../lib/money.ts";
import { nextNumber } from "../../lib/sequences.ts";
import { notify } from "../../notify.ts";
import { loadAttendanceSettings, tenantToday } from "../shared/work-settings.ts";
import { notifyEmployee } from "../shared/notices.ts";
import { targetEmployee } from "../shared/people.ts";
import { hrMemberIds, isHr } from "../shared/access.ts";

const include = { employee: { select: { first_name: true, last_name: true } }, loan_type: { select: { name: true } }, schedule: { orderBy: { seq: "asc" } } } as const satisfies Prisma.LoanAdvanceInclude;
type LoanRow = Prisma.LoanAdvanceGetPayload<{ include: typeof include }>;

const month = (d: Date) => toDateString(d).slice(0, 7);
const firstOf = (ym: string) => parseDate(`${ym}-01`);
function addMonth(ym: string, n: number): string {
  const [y, m] = ym.split("-").map(Number);
  const t = y * 12 + (m - 1) + n;
  return `${Math.floor(t / 12)}-${String((t % 12) + 1).padStart(2, "0")}`;
}

export function loanJson(l: LoanRow) {
  const repaid = new Decimal(l.repaid_amount.toString());
  const cancelled = l.status === "cancelled" || l.status === "rejected";
  return {
    id: l.id,
    loan_number: l.loan_number,
    employee_id: l.employee_id,
    employee_name: `${l.employee.first_name} ${l.employee.last_name}`.trim(),
    loan_type_id: l.loan_type_id,
    loan_type_name: l.loan_type.name,
    amount: moneyString(l.amount),
    installments: l.installments,
    interest_rate: percentString(l.interest_rate),
    total_repayable: moneyString(l.total_repayable),
    installment_amount: moneyString(l.installment_amount),
    start_month: month(l.start_month),
    reason: l.reason,
    status: l.status as "pending",
    repaid_amount: moneyString(repaid),
    outstanding_amount: moneyString(cancelled ? 0 : new Decimal(l.total_repayable.toString()).minus(repaid)),
    schedule: l.schedule.map((i) => ({
      id: i.id,
      seq: i.seq,
      due_month: month(i.due_month),
      amount: moneyString(i.amount),
      status: i.status as "pending" | "paid",
      deferrals: i.deferrals,
      paid_run_id: i.paid_run_id,
      paid_at: i.paid_at?.toISOString() ?? null,
    })),
    requested_by: l.requested_by,
    decided_by: l.decided_by,
    decided_at: l.decided_at?.toISOString() ?? null,
    decision_comment: l.decision_comment,
    cancelled_by: l.cancelled_by,
    cancelled_at: l.cancelled_at?.toISOString() ?? null,
    closed_at: l.closed_at?.toISOString() ?? null,
    created_at: l.created_at.toISOString(),
    updated_at: l.updated_at.toISOString(),
  };
}

/** Simple interest over the term: amount × rate% × installments ÷ 12; installments rounded to paise, the last absorbs the rest. */
export function loanTerms(amount: Decimal.Value, installments: number, ratePercent: Decimal.Value) {
  const a = new Decimal(amount);
  const total = a.plus(a.times(ratePercent).div(100).times(installments).div(12)).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  const each = total.div(installments).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  const schedule = Array.from({ length: installments }, (_, i) => (i < installments - 1 ? each : total.minus(each.times(installments - 1))));
  return { total, each, schedule };
}

/** Loans visible to the caller: hr/admin/owner all, everyone else their own. */
async function visibleLoan(auth: AuthContext, id: string): Promise<LoanRow> {
  const l = await db.loanAdvance.findFirst({ where: { id, ...(isHr(auth) ? {} : { employee_id: auth.employeeId ?? "00000000-0000-0000-0000-000000000000" }) }, include });
  if (!l) throw notFound("Loan");
  return l;
}

async function lockLoan(tx: ScopedTx, id: string): Promise<LoanRow> {
  await tx.$queryRaw`SELECT id FROM loan_advances WHERE tenant_id = ${currentTenantId()}::uuid AND id = ${id}::uuid FOR UPDATE`;
  return tx.loanAdvance.findFirstOrThrow({ where: { id }, include });
}

function checkLimits(type: { name: string; max_amount: Prisma.Decimal | null; max_installments: number }, amount: string, installments: number) {
  if (new Decimal(amount).lte(0)) throw invalidField("body.amount", "must be greater than zero");
  if (type.max_amount !== null && new Decimal(amount).gt(type.max_amount.toString())) throw invalidField("body.amount", `exceeds the limit of ${type.name} (${moneyString(type.max_amount)})`);
  if (installments > type.max_installments) throw invalidField("body.installments", `exceeds the limit of ${type.name} (${type.max_installments} installments)`);
}

export const loanHandlers = {
  async listLoanAdvances({ query, auth }) {
    const page = pageOf(query);
    const where: Prisma.LoanAdvanceWhereInput = {};
    if (!isHr(auth)) where.employee_id = auth.employeeId && (!query.employee_id || query.employee_id === auth.employeeId) ? auth.employeeId : { in: [] };
    else if (query.employee_id) where.employee_id = query.employee_id;
    if (query.status) where.status = query.status;
    const [rows, total] = await Promise.all([db.loanAdvance.findMany({ where, include, orderBy: [{ created_at: "desc" }, { id: "desc" }], skip: page.skip, take: page.limit }), db.loanAdvance.count({ where })]);
    return paginated(rows.map(loanJson), page, total);
  },

  async createLoanAdvance({ body, auth }) {
    const employeeId = targetEmployee(auth, body.employee_id);
    const employee = await db.employee.findFirst({ where: { id: employeeId, deleted_at: null }, select: { id: true, status: true, first_name: true, last_name: true } });
    if (!employee) throw notFound("Employee");
    if (employee.status === "exited" || employee.status === "inactive") throw conflict(`The employee is ${employee.status}; loans are only for current employees`);
    const type = await db.loanType.findFirst({ where: { id: body.loan_type_id } });
    if (!type) throw invalidField("body.loan_type_id", "is not a loan type of the company");
    if (!type.active) throw conflict(`${type.name} is not taking applications (inactive loan type)`);
    checkLimits(type, body.amount, body.installments);
    const today = tenantToday(await loadAttendanceSettings());
    const start = body.start_month ?? addMonth(today.slice(0, 7), 1);
    if (start < today.slice(0, 7)) throw invalidField("body.start_month", "must not be in the past");
    const terms = loanTerms(body.amount, body.installments, type.interest_rate.toString());
    const loan = await tenantTx(async (tx) => {
      const loan_number = await nextNumber(tx, "loan_advance", "LN-");
      const l = await tx.loanAdvance.create({
        data: {
          loan_number,
          employee_id: employeeId,
          loan_type_id: type.id,
          amount: body.amount,
          installments: body.installments,
          interest_rate: type.interest_rate,
          total_repayable: terms.total.toFixed(2),
          installment_amount: terms.each.toFixed(2),
          start_month: firstOf(start),
          reason: body.reason ?? null,
          requested_by: auth.userId,
        } as any,
        include,
      });
      await audit({ action: "loan_advance.created", entity_type: "loan_advance", entity_id: l.id, changes: { loan_number, employee_id: employeeId, loan_type: type.name, amount: body.amount, installments: body.installments } }, tx);
      for (const userId of await hrMemberIds(tx, auth.userId))
        await notify(tx, { userId, kind: "loan.submitted", title: `${loan_number}: ${type.name} of ${body.amount} requested by ${employee.first_name} ${employee.last_name}`, link: `/api/payroll/loan-advances/${l.id}` });
      return l;
    });
    return created(loanJson(loan), "Loan application submitted");
  },

  async getLoanAdvance({ params, auth }) {
    return ok(loanJson(await visibleLoan(auth, params.id)));
  },

  async updateLoanAdvance({ params, body, auth }) {
    const l = await visibleLoan(auth, params.id);
    const edits = ["amount", "installments", "start_month", "reason"].filter((k) => (body as Record<string, unknown>)[k] !== undefined);
    if (body.status && edits.length) throw badRequest("Decide (status) or change the application, not both", edits.map((k) => ({ path: `body.${k}`, message: "must not be sent with status" })));
    if (!body.status && body.comment !== undefined) throw invalidField("body.comment", "goes with a decision (status)");
    const today = tenantToday(await loadAttendanceSettings());
    const row = await tenantTx(async (tx) => {
      const cur = await lockLoan(tx, l.id);
      if (cur.status !== "pending") throw conflict(`The loan is ${cur.status}; only a pending application can be ${body.status ? "decided" : "changed"}`);
      if (body.status) {
        if (!isHr(auth)) throw forbidden("Only hr, admin or owner can decide a loan application");
        if (auth.employeeId && cur.employee_id === auth.employeeId) throw forbidden("You cannot decide your own loan application");
        const data: Prisma.LoanAdvanceUpdateInput = { status: body.status, decided_by: auth.userId, decided_at: new Date(), decision_comment: body.comment ?? null };
        if (body.status === "approved") {
          let start = month(cur.start_month);
          if (start < today.slice(0, 7)) start = today.slice(0, 7);
          const terms = loanTerms(cur.amount.toString(), cur.installments, cur.interest_rate.toString());
          await tx.loanInstallment.createMany({ data: terms.schedule.map((amount, i) => ({ loan_id: cur.id, seq: i + 1, due_month: firstOf(addMonth(start, i)), amount: amount.toFixed(2) })) as any });
          data.start_month = firstOf(start);
        }
        await tx.loanAdvance.update({ where: { id: cur.id }, data });
        await audit({ action: `loan_advance.${body.status}`, entity_type: "loan_advance", entity_id: cur.id, changes: { status: { from: "pending", to: body.status }, comment: body.comment ?? null } }, tx);
        await notifyEmployee(tx, cur.employee_id, { kind: `loan.${body.status}`, title: `Your loan application ${cur.loan_number} was ${body.status}`, body: body.comment, link: `/api/payroll/loan-advances/${cur.id}` });
      } else {
        if (!isHr(auth) && cur.requested_by !== auth.userId && cur.employee_id !== auth.employeeId) throw forbidden();
        const type = await tx.loanType.findFirstOrThrow({ where: { id: cur.loan_type_id } });
        const amount = body.amount ?? cur.amount.toString();
        const installments = body.installments ?? cur.installments;
        checkLimits(type, amount, installments);
        if (body.start_month && body.start_month < today.slice(0, 7)) throw invalidField("body.start_month", "must not be in the past");
        const terms = loanTerms(amount, installments, cur.interest_rate.toString());
        const data: Prisma.LoanAdvanceUpdateInput = { amount, installments, total_repayable: terms.total.toFixed(2), installment_amount: terms.each.toFixed(2) };
        if (body.start_month) data.start_month = firstOf(body.start_month);
        if (body.reason !== undefined) data.reason = body.reason;
        await tx.loanAdvance.update({ where: { id: cur.id }, data });
        const changes: Record<string, unknown> = {};
        if (body.amount !== undefined) changes.amount = { from: moneyString(cur.amount), to: body.amount };
        if (body.installments !== undefined) changes.installments = { from: cur.installments, to: body.installments };
        if (body.start_month) changes.start_month = { from: month(cur.start_month), to: body.start_month };
        if (body.reason !== undefined) changes.reason = { from: cur.reason, to: body.reason };
        await audit({ action: "loan_advance.updated", entity_type: "loan_advance", entity_id: cur.id, changes }, tx);
      }
      return tx.loanAdvance.findFirstOrThrow({ where: { id: cur.id }, include });
    });
    return ok(loanJson(row), body.status ? `Loan ${body.status}` : "Loan application updated");
  },

  async cancelLoanAdvance({ params, auth }) {
    const l = await visibleLoan(auth, params.id);
    const row = await tenantTx(async (tx) => {
      const cur = await lockLoan(tx, l.id);
      if (cur.status === "pending") {
        if (!isHr(auth) && cur.employee_id !== auth.employeeId && cur.requested_by !== auth.userId) throw forbidden();
      } else if (cur.status === "approved") {
        if (!isHr(auth)) throw forbidden("Only hr, admin or owner can cancel an approved loan");
        if (cur.schedule.some((i) => i.status === "paid")) throw conflict("Installments were already deducted; the loan cannot be cancelled");
        await tx.loanInstallment.deleteMany({ where: { loan_id: cur.id } });
      } else throw conflict(`A ${cur.status} loan cannot be cancelled`);
      await tx.loanAdvance.update({ where: { id: cur.id }, data: { status: "cancelled", cancelled_by: auth.userId, cancelled_at: new Date() } });
      await audit({ action: "loan_advance.cancelled", entity_type: "loan_advance", entity_id: cur.id, changes: { status: { from: cur.status, to: "cancelled" } } }, tx);
      if (cur.employee_id !== auth.employeeId) await notifyEmployee(tx, cur.employee_id, { kind: "loan.cancelled", title: `Your loan ${cur.loan_number} was cancelled`, link: `/api/payroll/loan-advances/${cur.id}` });
      return tx.loanAdvance.findFirstOrThrow({ where: { id: cur.id }, include });
    });
    return ok(loanJson(row), "Loan cancelled");
  },

  async deferLoanAdvance({ params, body, auth }) {
    const l = await visibleLoan(auth, params.id);
    const row = await tenantTx(async (tx) => {
      const cur = await lockLoan(tx, l.id);
      if (cur.status !== "approved" && cur.status !== "active") throw conflict(`A ${cur.status} loan has no installment to defer`);
      const pending = cur.schedule.filter((i) => i.status === "pending");
      if (!pending.length) throw conflict("Nothing to defer: every installment is paid");
      const next = pending[0];
      const t = currentTenantId();
      await tx.$executeRaw`UPDATE loan_installments SET due_month = (due_month + interval '1 month')::date, deferrals = deferrals + CASE WHEN id = ${next.id}::uuid THEN 1 ELSE 0 END
                            WHERE tenant_id = ${t}::uuid AND loan_id = ${cur.id}::uuid AND status = 'pending'`;
      await tx.loanAdvance.update({ where: { id: cur.id }, data: { updated_at: new Date() } });
      const from = month(next.due_month);
      const to = addMonth(from, 1);
      await audit({ action: "loan_advance.deferred", entity_type: "loan_advance", entity_id: cur.id, changes: { installment: next.seq, due_month: { from, to }, reason: body?.reason ?? null } }, tx);
      await notifyEmployee(tx, cur.employee_id, { kind: "loan.deferred", title: `Installment ${next.seq} of ${cur.loan_number} moved from ${from} to ${to}`, body: body?.reason, link: `/api/payroll/loan-advances/${cur.id}` });
      return tx.loanAdvance.findFirstOrThrow({ where: { id: cur.id }, include });
    });
    return ok(loanJson(row), "Installment deferred to the next month");
  },
} satisfies Partial<AreaHandlers<"payroll">>;
