// Reading loans: the answer's shape, who sees which loan, the list (a page or a walk) and one loan.
import type { Prisma } from "../../../generated/prisma/client.ts";
import { lockRow } from "../../db/sql.ts";
import { db, type ScopedTx } from "../../db/tenancy.ts";
import { type Listing, type Page, pageOf } from "../../platform/use-case.ts";
import { type Walk, walkPage } from "../../db/keyset.ts";
import { notFound } from "../../platform/errors.ts";
import type { AuthContext, QueryParams } from "../../platform/use-case.ts";
import { Decimal, moneyString, percentString } from "../../lib/money.ts";
import { isHr } from "../shared/access.ts";
import { oneOf } from "./json.ts";
import { month } from "./loan-terms.ts";
import { loanKeys } from "./queries/loans.ts";

export const include = {
  employee: { select: { first_name: true, last_name: true } },
  loan_type: { select: { name: true } },
  schedule: { orderBy: { seq: "asc" } },
} as const satisfies Prisma.LoanAdvanceInclude;
export type LoanRow = Prisma.LoanAdvanceGetPayload<{ include: typeof include }>;

const LOAN_STATUSES = ["pending", "approved", "rejected", "active", "closed", "cancelled"] as const;
const INSTALLMENT_STATUSES = ["pending", "paid"] as const;

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
    status: oneOf(LOAN_STATUSES, l.status, "loan status"),
    repaid_amount: moneyString(repaid),
    outstanding_amount: moneyString(cancelled ? 0 : new Decimal(l.total_repayable.toString()).minus(repaid)),
    schedule: l.schedule.map((i) => ({
      id: i.id,
      seq: i.seq,
      due_month: month(i.due_month),
      amount: moneyString(i.amount),
      status: oneOf(INSTALLMENT_STATUSES, i.status, "installment status"),
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

export type LoanJson = ReturnType<typeof loanJson>;

/** Loans visible to the caller: hr/admin/owner all, everyone else their own. */
export async function visibleLoan(auth: AuthContext, id: string): Promise<LoanRow> {
  const l = await db.loanAdvance.findFirst({
    where: { id, ...(isHr(auth) ? {} : { employee_id: auth.employeeId ?? "00000000-0000-0000-0000-000000000000" }) },
    include,
  });
  if (!l) throw notFound("Loan");
  return l;
}

/** Locks the loan row for the rest of the transaction and reads it (with its schedule) as it is now. */
export async function lockLoan(tx: ScopedTx, id: string): Promise<LoanRow> {
  await lockRow(tx, "loan_advances", id);
  return tx.loanAdvance.findFirstOrThrow({ where: { id }, include });
}

/** The loans list: a page by number (newest first), or a page of a walk in the order of change (docs/integrations-sync.md). */
export async function loanList(auth: AuthContext, filter: QueryParams<"listLoanAdvances">, walk: Walk | null): Promise<Listing<LoanJson>> {
  if (!walk) {
    const page = pageOf(filter);
    return { ...(await loansPage(auth, filter, page)), page };
  }
  const where = loanFilter(auth, filter);
  const { rows, last } = await walkPage(
    walk,
    (after, n) => loanKeys(walk, after, n),
    (ids) => db.loanAdvance.findMany({ where: { ...where, id: { in: ids } }, include }),
  );
  return { rows: rows.map(loanJson), walk, last };
}

function loanFilter(auth: AuthContext, filter: QueryParams<"listLoanAdvances">): Prisma.LoanAdvanceWhereInput {
  const where: Prisma.LoanAdvanceWhereInput = {};
  if (!isHr(auth))
    where.employee_id = auth.employeeId && (!filter.employee_id || filter.employee_id === auth.employeeId) ? auth.employeeId : { in: [] };
  else if (filter.employee_id) where.employee_id = filter.employee_id;
  if (filter.status) where.status = filter.status;
  return where;
}

/** A page of loans, newest first: hr/admin/owner every one (or one employee's), everyone else their own. */
export async function loansPage(
  auth: AuthContext,
  filter: QueryParams<"listLoanAdvances">,
  page: Page,
): Promise<{ rows: LoanJson[]; total: number }> {
  const where = loanFilter(auth, filter);
  const [rows, total] = await Promise.all([
    db.loanAdvance.findMany({ where, include, orderBy: [{ created_at: "desc" }, { id: "desc" }], skip: page.skip, take: page.limit }),
    db.loanAdvance.count({ where }),
  ]);
  return { rows: rows.map(loanJson), total };
}

export async function loanById(auth: AuthContext, id: string): Promise<LoanJson> {
  return loanJson(await visibleLoan(auth, id));
}
