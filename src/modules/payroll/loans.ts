// Loans and advances: apply, decide and cancel are the shared approval flow (shared/approvals.ts); approval
// creates the installment schedule, payroll deducts it (approved → active → closed).
import type { Prisma } from "../../../generated/prisma/client.ts";
import { audit } from "../../platform/audit.ts";
import { db, tenantTx, byId } from "../../db/tenancy.ts";
import { badRequest, conflict, forbidden, invalidField, notFound } from "../../platform/errors.ts";
import type { AuthContext, RequestBody } from "../../platform/use-case.ts";
import { moneyString } from "../../lib/money.ts";
import { nextNumber } from "../../platform/sequences.ts";
import { notify } from "../../platform/notify.ts";
import { assertNotOwnRecord, hrMemberIds, isHr, OWN_RECORD, selfDecision } from "../shared/access.ts";
import { cancel, decide, submit } from "../shared/approvals.ts";
import { type Notice, notifyEmployee } from "../shared/notices.ts";
import { targetEmployee } from "../shared/people.ts";
import { loadAttendanceSettings, tenantToday } from "../shared/work-settings.ts";
import { include, type LoanJson, loanJson, type LoanRow, lockLoan, visibleLoan } from "./loan-records.ts";
import { addMonth, checkLimits, firstOf, loanTerms, month } from "./loan-terms.ts";
import { deferPendingInstallments } from "./queries/loans.ts";
import * as clock from "../../lib/clock.ts";

const link = (id: string) => `/api/payroll/loan-advances/${id}`;

/** Applies for a loan (the caller's own, or a current employee's by hr) within the loan type's limits; hr/admin/owner are told. */
export async function applyForLoan(auth: AuthContext, body: RequestBody<"createLoanAdvance">): Promise<LoanJson> {
  const employeeId = targetEmployee(auth, body.employee_id);
  const employee = await db.employee.findFirst({
    where: { id: employeeId, deleted_at: null },
    select: { id: true, status: true, first_name: true, last_name: true },
  });
  if (!employee) throw notFound("Employee");
  if (employee.status === "exited" || employee.status === "inactive")
    throw conflict(`The employee is ${employee.status}; loans are only for current employees`);
  const type = await db.loanType.findFirst({ where: { id: body.loan_type_id } });
  if (!type) throw invalidField("body.loan_type_id", "is not a loan type of the company");
  if (!type.active) throw conflict(`${type.name} is not taking applications (inactive loan type)`);
  checkLimits(type, body.amount, body.installments);
  const today = tenantToday(await loadAttendanceSettings());
  const start = body.start_month ?? addMonth(today.slice(0, 7), 1);
  if (start < today.slice(0, 7)) throw invalidField("body.start_month", "must not be in the past");
  const terms = loanTerms(body.amount, body.installments, type.interest_rate.toString());
  const notice = (l: LoanRow): Notice => ({
    kind: "loan.submitted",
    title: `${l.loan_number}: ${type.name} of ${body.amount} requested by ${employee.first_name} ${employee.last_name}`,
    link: link(l.id),
  });
  const loan = await submit({
    entity: "loan_advance",
    // loans are decided by hr/admin/owner, not by the manager: no manager notice; hr is told (after)
    employee: { reports_to: null },
    async create(tx) {
      const loan_number = await nextNumber(tx, "loan_advance", "LN-");
      return tx.loanAdvance.create({
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
        },
        include,
      });
    },
    changes: (l) => ({
      loan_number: l.loan_number,
      employee_id: employeeId,
      loan_type: type.name,
      amount: body.amount,
      installments: body.installments,
    }),
    async after(tx, l) {
      for (const userId of await hrMemberIds(tx, auth.userId)) await notify(tx, { userId, ...notice(l) });
    },
  });
  return loanJson(loan);
}

/** Either decides a pending application (`status`, optional `comment`; hr/admin/owner) or changes it (the applicant or hr), never both. */
export async function reviseLoan(auth: AuthContext, id: string, body: RequestBody<"updateLoanAdvance">): Promise<LoanJson> {
  const l = await visibleLoan(auth, id);
  const edits = (["amount", "installments", "start_month", "reason"] as const).filter((k) => body[k] !== undefined);
  if (body.status && edits.length)
    throw badRequest(
      "Decide (status) or change the application, not both",
      edits.map((k) => ({ path: `body.${k}`, message: "must not be sent with status" })),
    );
  if (!body.status && body.comment !== undefined) throw invalidField("body.comment", "goes with a decision (status)");
  const today = tenantToday(await loadAttendanceSettings());
  if (body.status) return decideLoan(auth, l, body.status, body.comment, today);
  const row = await tenantTx(async (tx) => {
    const cur = await lockLoan(tx, l.id);
    if (cur.status !== "pending") throw conflict(`The loan is ${cur.status}; only a pending application can be changed`);
    if (!isHr(auth) && cur.requested_by !== auth.userId && cur.employee_id !== auth.employeeId)
      throw forbidden("Only the applicant or hr, admin or owner can change a loan application");
    const type = await tx.loanType.findFirstOrThrow({ where: { id: cur.loan_type_id } });
    const amount = body.amount ?? cur.amount.toString();
    const installments = body.installments ?? cur.installments;
    checkLimits(type, amount, installments);
    if (body.start_month && body.start_month < today.slice(0, 7)) throw invalidField("body.start_month", "must not be in the past");
    const terms = loanTerms(amount, installments, cur.interest_rate.toString());
    const data: Prisma.LoanAdvanceUpdateInput = {
      amount,
      installments,
      total_repayable: terms.total.toFixed(2),
      installment_amount: terms.each.toFixed(2),
    };
    if (body.start_month) data.start_month = firstOf(body.start_month);
    if (body.reason !== undefined) data.reason = body.reason;
    await tx.loanAdvance.update({ where: byId(cur.id), data });
    const changes: Record<string, unknown> = {};
    if (body.amount !== undefined) changes.amount = { from: moneyString(cur.amount), to: body.amount };
    if (body.installments !== undefined) changes.installments = { from: cur.installments, to: body.installments };
    if (body.start_month) changes.start_month = { from: month(cur.start_month), to: body.start_month };
    if (body.reason !== undefined) changes.reason = { from: cur.reason, to: body.reason };
    await audit({ action: "loan_advance.updated", entity_type: "loan_advance", entity_id: cur.id, changes }, tx);
    return tx.loanAdvance.findFirstOrThrow({ where: { id: cur.id }, include });
  });
  return loanJson(row);
}

/**
 * Approves or rejects a pending application: hr/admin/owner, never for their own loan. Approval
 * creates the installment schedule from the start month (this month if that has passed).
 */
async function decideLoan(
  auth: AuthContext,
  l: LoanRow,
  status: "approved" | "rejected",
  comment: string | undefined,
  today: string,
): Promise<LoanJson> {
  const scheduleStart = (cur: LoanRow) => {
    const start = month(cur.start_month);
    const thisMonth = today.slice(0, 7); // YYYY-MM strings: the later month
    return start < thisMonth ? thisMonth : start;
  };
  const row = await decide(
    auth,
    {
      entity: "loan_advance",
      employee: { id: l.employee_id, reports_to: null }, // who may decide is the loan rule below (`allow`), not the shared one
      lock: (tx) => lockLoan(tx, l.id),
      notPending: (s) => `The loan is ${s}; only a pending application can be decided`,
      allow: () => {
        if (!isHr(auth)) throw forbidden("Only hr, admin or owner can decide a loan application");
      },
      // then the shared rule: never on one's own loan, except the company's owner (assertNotOwnRecord)
      ownMessage: `You cannot decide your own loan application: ${OWN_RECORD}`,
      async apply(tx, cur, decision) {
        if (decision !== "approved") return;
        const start = scheduleStart(cur);
        const terms = loanTerms(cur.amount.toString(), cur.installments, cur.interest_rate.toString());
        await tx.loanInstallment.createMany({
          data: terms.schedule.map((amount, i) => ({
            loan_id: cur.id,
            seq: i + 1,
            due_month: firstOf(addMonth(start, i)),
            amount: amount.toFixed(2),
          })),
        });
      },
      extra: (cur, decision) => (decision === "approved" ? { start_month: firstOf(scheduleStart(cur)) } : {}),
      save: async (tx, cur, columns) => {
        await tx.loanAdvance.update({ where: byId(cur.id), data: columns });
        return tx.loanAdvance.findFirstOrThrow({ where: { id: cur.id }, include });
      },
      notice: (cur, decision, note) => ({
        kind: `loan.${decision}`,
        title: `Your loan application ${cur.loan_number} was ${decision}`,
        body: note ?? undefined,
        link: link(cur.id),
      }),
    },
    { status, comment },
  );
  return loanJson(row);
}

/** Cancels a pending application (the applicant, the employee or hr) or an approved loan nothing was deducted for yet (hr/admin/owner). */
export async function cancelLoan(auth: AuthContext, id: string): Promise<LoanJson> {
  const l = await visibleLoan(auth, id);
  const row = await cancel(auth, {
    entity: "loan_advance",
    lock: (tx) => lockLoan(tx, l.id),
    allow: (cur) => {
      if (cur.status === "pending") {
        if (!isHr(auth) && cur.employee_id !== auth.employeeId && cur.requested_by !== auth.userId)
          throw forbidden("Only the applicant or hr, admin or owner can cancel a pending loan application");
      } else if (cur.status === "approved") {
        if (!isHr(auth)) throw forbidden("Only hr, admin or owner can cancel an approved loan");
        if (cur.schedule.some((i) => i.status === "paid"))
          throw conflict("Installments were already deducted; the loan cannot be cancelled");
      } else throw conflict(`A ${cur.status} loan cannot be cancelled`);
    },
    async apply(tx, cur) {
      if (cur.status === "approved") await tx.loanInstallment.deleteMany({ where: { loan_id: cur.id } });
    },
    save: async (tx, cur, columns) => {
      await tx.loanAdvance.update({ where: byId(cur.id), data: columns });
      return tx.loanAdvance.findFirstOrThrow({ where: { id: cur.id }, include });
    },
    notice: (cur) =>
      cur.employee_id !== auth.employeeId
        ? { kind: "loan.cancelled", title: `Your loan ${cur.loan_number} was cancelled`, link: link(cur.id) }
        : null,
  });
  return loanJson(row);
}

/** Moves the next pending installment (and every later one) a month on, for an approved or active loan. */
export async function deferInstallment(auth: AuthContext, id: string, body: RequestBody<"deferLoanAdvance">): Promise<LoanJson> {
  const l = await visibleLoan(auth, id);
  const self = assertNotOwnRecord(auth, l.employee_id, `You cannot defer an installment of your own loan: ${OWN_RECORD}`);
  const row = await tenantTx(async (tx) => {
    const cur = await lockLoan(tx, l.id);
    if (cur.status !== "approved" && cur.status !== "active") throw conflict(`A ${cur.status} loan has no installment to defer`);
    const pending = cur.schedule.filter((i) => i.status === "pending");
    if (!pending.length) throw conflict("Nothing to defer: every installment is paid");
    const next = pending[0];
    await deferPendingInstallments(tx, cur.id, next.id);
    await tx.loanAdvance.update({ where: byId(cur.id), data: { updated_at: clock.now() } });
    const from = month(next.due_month);
    const to = addMonth(from, 1);
    await audit(
      {
        action: "loan_advance.deferred",
        entity_type: "loan_advance",
        entity_id: cur.id,
        changes: { installment: next.seq, due_month: { from, to }, reason: body?.reason ?? null, ...selfDecision(self) },
      },
      tx,
    );
    await notifyEmployee(tx, cur.employee_id, {
      kind: "loan.deferred",
      title: `Installment ${next.seq} of ${cur.loan_number} moved from ${from} to ${to}`,
      body: body?.reason,
      link: link(cur.id),
    });
    return tx.loanAdvance.findFirstOrThrow({ where: { id: cur.id }, include });
  });
  return loanJson(row);
}
