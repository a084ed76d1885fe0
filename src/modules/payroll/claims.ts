// Expense claims: submitted within the category's limits (receipt when required), decided by the
// employee's manager or hr/admin/owner, reimbursed (`paid`) by the next processed payroll run.
import type { Prisma } from "../../../generated/prisma/client.ts";
import { audit } from "../../audit.ts";
import { currentTenantId, db, tenantTx, type ScopedTx } from "../../db/tenancy.ts";
import { created, ok, pageOf, paginated } from "../../http/envelope.ts";
import { badRequest, conflict, forbidden, invalidField, notFound } from "../../http/errors.ts";
import type { AreaHandlers, AuthContext } from "../../http/types.ts";
import { parseDate, toDateString } from "../../lib/dates.ts";
import { Decimal, moneyString } from "../../lib/money.ts";
import { nextNumber } from "../../lib/sequences.ts";
import { notify } from "../../notify.ts";
import { loadAttendanceSettings, tenantToday } from "../shared/work-settings.ts";
import { notifyEmployee, notifyManager } from "../shared/notices.ts";
import { assertCanDecide, employeeFilter, targetEmployee, visibleEmployees } from "../shared/people.ts";
import { hrMemberIds, isHr } from "../shared/access.ts";

const include = { employee: { select: { first_name: true, last_name: true, reports_to: true } }, category: { select: { name: true } } } as const satisfies Prisma.ExpenseClaimInclude;
type ClaimRow = Prisma.ExpenseClaimGetPayload<{ include: typeof include }>;

export const claimJson = (c: ClaimRow) => ({
  id: c.id,
  claim_number: c.claim_number,
  employee_id: c.employee_id,
  employee_name: `${c.employee.first_name} ${c.employee.last_name}`.trim(),
  category_id: c.category_id,
  category_name: c.category.name,
  amount: moneyString(c.amount),
  expense_date: toDateString(c.expense_date),
  description: c.description,
  receipt_file_id: c.receipt_file_id,
  status: c.status as "pending",
  requested_by: c.requested_by,
  decided_by: c.decided_by,
  decided_at: c.decided_at?.toISOString() ?? null,
  decision_comment: c.decision_comment,
  cancelled_by: c.cancelled_by,
  cancelled_at: c.cancelled_at?.toISOString() ?? null,
  paid_run_id: c.paid_run_id,
  paid_at: c.paid_at?.toISOString() ?? null,
  created_at: c.created_at.toISOString(),
  updated_at: c.updated_at.toISOString(),
});

async function visibleClaim(auth: AuthContext, id: string): Promise<ClaimRow> {
  const c = await db.expenseClaim.findFirst({ where: { id }, include });
  if (!c) throw notFound("Expense claim");
  const scope = await visibleEmployees(auth);
  if (scope !== null && !scope.includes(c.employee_id)) throw notFound("Expense claim");
  return c;
}

async function lockClaim(tx: ScopedTx, id: string): Promise<ClaimRow> {
  await tx.$queryRaw`SELECT id FROM expense_claims WHERE tenant_id = ${currentTenantId()}::uuid AND id = ${id}::uuid FOR UPDATE`;
  return tx.expenseClaim.findFirstOrThrow({ where: { id }, include });
}

/** Category active, amount within its limit, receipt present when required and a file of the company, date not in the future. */
async function checkClaim(c: { category_id: string; amount: string; expense_date: string; receipt_file_id: string | null }, today: string) {
  const cat = await db.expenseCategory.findFirst({ where: { id: c.category_id } });
  if (!cat) throw invalidField("body.category_id", "is not an expense category of the company");
  if (!cat.active) throw conflict(`${cat.name} is not taking claims (inactive category)`);
  if (new Decimal(c.amount).lte(0)) throw invalidField("body.amount", "must be greater than zero");
  if (cat.max_claim_amount !== null && new Decimal(c.amount).gt(cat.max_claim_amount.toString())) throw invalidField("body.amount", `exceeds the limit of ${cat.name} (${moneyString(cat.max_claim_amount)} per claim)`);
  if (cat.requires_receipt && !c.receipt_file_id) throw invalidField("body.receipt_file_id", `is required: ${cat.name} claims need a receipt`);
  if (c.receipt_file_id && !(await db.storedFile.findFirst({ where: { id: c.receipt_file_id }, select: { id: true } }))) throw invalidField("body.receipt_file_id", "is not a file uploaded to the company");
  if (c.expense_date > today) throw invalidField("body.expense_date", "must not be in the future");
  return cat;
}

export const claimHandlers = {
  async listExpenseClaims({ query, auth }) {
    const page = pageOf(query);
    const where: Prisma.ExpenseClaimWhereInput = { ...employeeFilter(await visibleEmployees(auth), query.employee_id) };
    if (query.status) where.status = query.status;
    if (query.category_id) where.category_id = query.category_id;
    const [rows, total] = await Promise.all([db.expenseClaim.findMany({ where, include, orderBy: [{ created_at: "desc" }, { id: "desc" }], skip: page.skip, take: page.limit }), db.expenseClaim.count({ where })]);
    return paginated(rows.map(claimJson), page, total);
  },

  async createExpenseClaim({ body, auth }) {
    const employeeId = targetEmployee(auth, body.employee_id);
    const employee = await db.employee.findFirst({ where: { id: employeeId, deleted_at: null }, select: { id: true, first_name: true, last_name: true, reports_to: true } });
    if (!employee) throw notFound("Employee");
    const today = tenantToday(await loadAttendanceSettings());
    const cat = await checkClaim({ category_id: body.category_id, amount: body.amount, expense_date: body.expense_date, receipt_file_id: body.receipt_file_id ?? null }, today);
    const claim = await tenantTx(async (tx) => {
      const claim_number = await nextNumber(tx, "expense_claim", "EXP-");
      const c = await tx.expenseClaim.create({
        data: { claim_number, employee_id: employeeId, category_id: cat.id, amount: body.amount, expense_date: parseDate(body.expense_date), description: body.description, receipt_file_id: body.receipt_file_id ?? null, requested_by: auth.userId } as any,
        include,
      });
      await audit({ action: "expense_claim.created", entity_type: "expense_claim", entity_id: c.id, changes: { claim_number, employee_id: employeeId, category: cat.name, amount: body.amount } }, tx);
      const notice = { kind: "expense_claim.submitted", title: `${claim_number}: ${cat.name} claim of ${body.amount} from ${employee.first_name} ${employee.last_name}`, link: `/api/payroll/expense-claims/${c.id}` };
      if (employee.reports_to && employee.reports_to !== auth.employeeId) await notifyManager(tx, employee, notice);
      else if (!employee.reports_to) for (const userId of await hrMemberIds(tx, auth.userId)) await notify(tx, { userId, ...notice });
      return c;
    });
    return created(claimJson(claim), "Expense claim submitted");
  },

  async getExpenseClaim({ params, auth }) {
    return ok(claimJson(await visibleClaim(auth, params.id)));
  },

  async updateExpenseClaim({ params, body, auth }) {
    const c = await visibleClaim(auth, params.id);
    const edits = ["category_id", "amount", "expense_date", "description", "receipt_file_id"].filter((k) => (body as Record<string, unknown>)[k] !== undefined);
    if (body.status && edits.length) throw badRequest("Decide (status) or change the claim, not both", edits.map((k) => ({ path: `body.${k}`, message: "must not be sent with status" })));
    if (!body.status && body.comment !== undefined) throw invalidField("body.comment", "goes with a decision (status)");
    const today = tenantToday(await loadAttendanceSettings());
    if (body.status) assertCanDecide(auth, { id: c.employee_id, reports_to: c.employee.reports_to });
    else {
      if (!isHr(auth) && c.employee_id !== auth.employeeId) throw forbidden("Only the claimant or hr, admin or owner can change a claim");
      await checkClaim(
        {
          category_id: body.category_id ?? c.category_id,
          amount: body.amount ?? c.amount.toString(),
          expense_date: body.expense_date ?? toDateString(c.expense_date),
          receipt_file_id: body.receipt_file_id !== undefined ? body.receipt_file_id : c.receipt_file_id,
        },
        today,
      );
    }
    const row = await tenantTx(async (tx) => {
      const cur = await lockClaim(tx, c.id);
      if (cur.status !== "pending") throw conflict(`The claim is ${cur.status}; only a pending claim can be ${body.status ? "decided" : "changed"}`);
      if (body.status) {
        await tx.expenseClaim.update({ where: { id: cur.id }, data: { status: body.status, decided_by: auth.userId, decided_at: new Date(), decision_comment: body.comment ?? null } });
        await audit({ action: `expense_claim.${body.status}`, entity_type: "expense_claim", entity_id: cur.id, changes: { status: { from: "pending", to: body.status }, comment: body.comment ?? null } }, tx);
        await notifyEmployee(tx, cur.employee_id, { kind: `expense_claim.${body.status}`, title: `Your expense claim ${cur.claim_number} was ${body.status}`, body: body.comment, link: `/api/payroll/expense-claims/${cur.id}` });
      } else {
        const data: Prisma.ExpenseClaimUncheckedUpdateInput = {};
        const changes: Record<string, unknown> = {};
        if (body.category_id !== undefined && body.category_id !== cur.category_id) (data.category_id = body.category_id), (changes.category_id = { from: cur.category_id, to: body.category_id });
        if (body.amount !== undefined) (data.amount = body.amount), (changes.amount = { from: moneyString(cur.amount), to: body.amount });
        if (body.expense_date !== undefined) (data.expense_date = parseDate(body.expense_date)), (changes.expense_date = { from: toDateString(cur.expense_date), to: body.expense_date });
        if (body.description !== undefined) (data.description = body.description), (changes.description = { from: cur.description, to: body.description });
        if (body.receipt_file_id !== undefined) (data.receipt_file_id = body.receipt_file_id), (changes.receipt_file_id = { from: cur.receipt_file_id, to: body.receipt_file_id });
        await tx.expenseClaim.update({ where: { id: cur.id }, data });
        await audit({ action: "expense_claim.updated", entity_type: "expense_claim", entity_id: cur.id, changes }, tx);
      }
      return tx.expenseClaim.findFirstOrThrow({ where: { id: cur.id }, include });
    });
    return ok(claimJson(row), body.status ? `Expense claim ${body.status}` : "Expense claim updated");
  },

  async cancelExpenseClaim({ params, auth }) {
    const c = await visibleClaim(auth, params.id);
    const row = await tenantTx(async (tx) => {
      const cur = await lockClaim(tx, c.id);
      if (cur.status === "approved") {
        if (!isHr(auth)) throw forbidden("Only hr, admin or owner can cancel an approved claim");
      } else if (cur.status !== "pending") throw conflict(`A ${cur.status} claim cannot be cancelled`);
      await tx.expenseClaim.update({ where: { id: cur.id }, data: { status: "cancelled", cancelled_by: auth.userId, cancelled_at: new Date() } });
      await audit({ action: "expense_claim.cancelled", entity_type: "expense_claim", entity_id: cur.id, changes: { status: { from: cur.status, to: "cancelled" } } }, tx);
      if (cur.employee_id !== auth.employeeId) await notifyEmployee(tx, cur.employee_id, { kind: "expense_claim.cancelled", title: `Your expense claim ${cur.claim_number} was cancelled`, link: `/api/payroll/expense-claims/${cur.id}` });
      return tx.expenseClaim.findFirstOrThrow({ where: { id: cur.id }, include });
    });
    return ok(claimJson(row), "Expense claim cancelled");
  },
} satisfies Partial<AreaHandlers<"payroll">>;
