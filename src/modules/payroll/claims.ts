// Expense claims: submitted within the category's limits (receipt when required), decided by the
// employee's manager or hr/admin/owner, reimbursed (`paid`) by the next processed payroll run.
// Submit, decide and cancel are the shared approval flow (shared/approvals.ts).
import type { Prisma } from "../../../generated/prisma/client.ts";
import { uploadOf } from "../../platform/storage/files.ts";
import { audit } from "../../platform/audit.ts";
import { lockRow } from "../../db/sql.ts";
import { db, tenantTx, type ScopedTx, byId } from "../../db/tenancy.ts";
import { type Listing, type Page, pageOf } from "../../platform/use-case.ts";
import { type Walk, walkPage } from "../../db/keyset.ts";
import { claimKeys } from "./queries/loans.ts";
import { badRequest, conflict, forbidden, invalidField, notFound } from "../../platform/errors.ts";
import type { AuthContext, QueryParams, RequestBody } from "../../platform/use-case.ts";
import { parseDate, toDateString } from "../../lib/dates.ts";
import { Decimal, moneyString } from "../../lib/money.ts";
import { nextNumber } from "../../platform/sequences.ts";
import { notify } from "../../platform/notify.ts";
import type { Notice } from "../shared/notices.ts";
import { hrMemberIds, isHr } from "../shared/access.ts";
import { cancel, decide, submit } from "../shared/approvals.ts";
import { employeeFilter, targetEmployee, visibleEmployees } from "../shared/people.ts";
import { loadAttendanceSettings, tenantToday } from "../shared/work-settings.ts";
import { oneOf } from "./json.ts";

const include = {
  employee: { select: { first_name: true, last_name: true, reports_to: true } },
  category: { select: { name: true } },
} as const satisfies Prisma.ExpenseClaimInclude;
type ClaimRow = Prisma.ExpenseClaimGetPayload<{ include: typeof include }>;

const CLAIM_STATUSES = ["pending", "approved", "rejected", "paid", "cancelled"] as const;

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
  status: oneOf(CLAIM_STATUSES, c.status, "expense claim status"),
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
type ClaimJson = ReturnType<typeof claimJson>;

const link = (id: string) => `/api/payroll/expense-claims/${id}`;

/** The claim if the caller may see it (their own, their reports' as a manager, every one as hr); 404 otherwise. */
async function visibleClaim(auth: AuthContext, id: string): Promise<ClaimRow> {
  const c = await db.expenseClaim.findFirst({ where: { id }, include });
  if (!c) throw notFound("Expense claim");
  const scope = await visibleEmployees(auth);
  if (scope !== null && !scope.includes(c.employee_id)) throw notFound("Expense claim");
  return c;
}

/** Locks the claim row for the rest of the transaction and reads it as it is now. */
async function lockClaim(tx: ScopedTx, id: string): Promise<ClaimRow> {
  await lockRow(tx, "expense_claims", id);
  return tx.expenseClaim.findFirstOrThrow({ where: { id }, include });
}

/** The users whose uploads may be a claim's receipt: the person attaching it and the claimant. */
async function receiptUploaders(auth: AuthContext, employeeId: string): Promise<string[]> {
  const claimant = await db.membership.findFirst({ where: { employee_id: employeeId }, select: { user_id: true } });
  return [auth.userId, ...(claimant ? [claimant.user_id] : [])];
}

/** Category active, amount within its limit, receipt present when required and a file of the company, date not in the future. */
async function checkClaim(
  c: { category_id: string; amount: string; expense_date: string; receipt_file_id: string | null },
  today: string,
  /** who may have uploaded the receipt; null when the receipt is not being set or changed */
  uploaders: string[] | null,
) {
  const cat = await db.expenseCategory.findFirst({ where: { id: c.category_id } });
  if (!cat) throw invalidField("body.category_id", "is not an expense category of the company");
  if (!cat.active) throw conflict(`${cat.name} is not taking claims (inactive category)`);
  if (new Decimal(c.amount).lte(0)) throw invalidField("body.amount", "must be greater than zero");
  if (cat.max_claim_amount !== null && new Decimal(c.amount).gt(cat.max_claim_amount.toString()))
    throw invalidField("body.amount", `exceeds the limit of ${cat.name} (${moneyString(cat.max_claim_amount)} per claim)`);
  if (cat.requires_receipt && !c.receipt_file_id)
    throw invalidField("body.receipt_file_id", `is required: ${cat.name} claims need a receipt`);
  if (c.receipt_file_id) {
    const file = await uploadOf(c.receipt_file_id);
    if (!file) throw invalidField("body.receipt_file_id", "is not a file uploaded to the company");
    if (uploaders && !(file.uploaded_by && uploaders.includes(file.uploaded_by)))
      throw invalidField("body.receipt_file_id", "is not a file you or the claimant uploaded");
  }
  if (c.expense_date > today) throw invalidField("body.expense_date", "must not be in the future");
  return cat;
}

/** A page of the claims the caller may see, newest first. */
/** The claims list: a page by number (newest first), or a page of a walk in the order of change (docs/integrations-sync.md). */
export async function claimList(
  auth: AuthContext,
  filter: QueryParams<"listExpenseClaims">,
  walk: Walk | null,
): Promise<Listing<ClaimJson>> {
  if (!walk) {
    const page = pageOf(filter);
    return { ...(await claimsPage(auth, filter, page)), page };
  }
  const where = await claimFilter(auth, filter);
  const { rows, last } = await walkPage(
    walk,
    (after, n) => claimKeys(walk, after, n),
    (ids) => db.expenseClaim.findMany({ where: { ...where, id: { in: ids } }, include }),
  );
  return { rows: rows.map(claimJson), walk, last };
}

async function claimFilter(auth: AuthContext, filter: QueryParams<"listExpenseClaims">): Promise<Prisma.ExpenseClaimWhereInput> {
  const where: Prisma.ExpenseClaimWhereInput = { ...employeeFilter(await visibleEmployees(auth), filter.employee_id) };
  if (filter.status) where.status = filter.status;
  if (filter.category_id) where.category_id = filter.category_id;
  return where;
}

export async function claimsPage(
  auth: AuthContext,
  filter: QueryParams<"listExpenseClaims">,
  page: Page,
): Promise<{ rows: ClaimJson[]; total: number }> {
  const where = await claimFilter(auth, filter);
  const [rows, total] = await Promise.all([
    db.expenseClaim.findMany({ where, include, orderBy: [{ created_at: "desc" }, { id: "desc" }], skip: page.skip, take: page.limit }),
    db.expenseClaim.count({ where }),
  ]);
  return { rows: rows.map(claimJson), total };
}

/**
 * Submits a claim (the caller's own, or any employee's by hr) within the category's rules. The
 * employee's manager is told - unless the manager filed it; hr/admin/owner are when there is no manager.
 */
export async function submitClaim(auth: AuthContext, body: RequestBody<"createExpenseClaim">): Promise<ClaimJson> {
  const employeeId = targetEmployee(auth, body.employee_id);
  const employee = await db.employee.findFirst({
    where: { id: employeeId, deleted_at: null },
    select: { id: true, first_name: true, last_name: true, reports_to: true },
  });
  if (!employee) throw notFound("Employee");
  const today = tenantToday(await loadAttendanceSettings());
  const cat = await checkClaim(
    { category_id: body.category_id, amount: body.amount, expense_date: body.expense_date, receipt_file_id: body.receipt_file_id ?? null },
    today,
    await receiptUploaders(auth, employeeId),
  );
  const notice = (c: ClaimRow): Notice => ({
    kind: "expense_claim.submitted",
    title: `${c.claim_number}: ${cat.name} claim of ${body.amount} from ${employee.first_name} ${employee.last_name}`,
    link: link(c.id),
  });
  const claim = await submit({
    entity: "expense_claim",
    // the manager who files a report's claim is not told about it
    employee: { reports_to: employee.reports_to !== auth.employeeId ? employee.reports_to : null },
    async create(tx) {
      const claim_number = await nextNumber(tx, "expense_claim", "EXP-");
      return tx.expenseClaim.create({
        data: {
          claim_number,
          employee_id: employeeId,
          category_id: cat.id,
          amount: body.amount,
          expense_date: parseDate(body.expense_date),
          description: body.description,
          receipt_file_id: body.receipt_file_id ?? null,
          requested_by: auth.userId,
        },
        include,
      });
    },
    changes: (c) => ({ claim_number: c.claim_number, employee_id: employeeId, category: cat.name, amount: body.amount }),
    managerNotice: notice,
    async after(tx, c) {
      if (employee.reports_to) return;
      for (const userId of await hrMemberIds(tx, auth.userId)) await notify(tx, { userId, ...notice(c) });
    },
  });
  return claimJson(claim);
}

export async function claimById(auth: AuthContext, id: string): Promise<ClaimJson> {
  return claimJson(await visibleClaim(auth, id));
}

/** Either decides a pending claim (`status`, optional `comment`) or changes it (the claimant or hr), never both. */
export async function reviseClaim(auth: AuthContext, id: string, body: RequestBody<"updateExpenseClaim">): Promise<ClaimJson> {
  const c = await visibleClaim(auth, id);
  const edits = (["category_id", "amount", "expense_date", "description", "receipt_file_id"] as const).filter((k) => body[k] !== undefined);
  if (body.status && edits.length)
    throw badRequest(
      "Decide (status) or change the claim, not both",
      edits.map((k) => ({ path: `body.${k}`, message: "must not be sent with status" })),
    );
  if (!body.status && body.comment !== undefined) throw invalidField("body.comment", "goes with a decision (status)");
  const today = tenantToday(await loadAttendanceSettings());
  if (body.status) return decideClaim(auth, c, body.status, body.comment);
  if (!isHr(auth) && c.employee_id !== auth.employeeId) throw forbidden("Only the claimant or hr, admin or owner can change a claim");
  await checkClaim(
    {
      category_id: body.category_id ?? c.category_id,
      amount: body.amount ?? c.amount.toString(),
      expense_date: body.expense_date ?? toDateString(c.expense_date),
      receipt_file_id: body.receipt_file_id !== undefined ? body.receipt_file_id : c.receipt_file_id,
    },
    today,
    body.receipt_file_id !== undefined && body.receipt_file_id !== c.receipt_file_id ? await receiptUploaders(auth, c.employee_id) : null,
  );
  const row = await tenantTx(async (tx) => {
    const cur = await lockClaim(tx, c.id);
    if (cur.status !== "pending") throw conflict(`The claim is ${cur.status}; only a pending claim can be changed`);
    const data: Prisma.ExpenseClaimUncheckedUpdateInput = {};
    const changes: Record<string, unknown> = {};
    if (body.category_id !== undefined && body.category_id !== cur.category_id) {
      data.category_id = body.category_id;
      changes.category_id = { from: cur.category_id, to: body.category_id };
    }
    if (body.amount !== undefined) {
      data.amount = body.amount;
      changes.amount = { from: moneyString(cur.amount), to: body.amount };
    }
    if (body.expense_date !== undefined) {
      data.expense_date = parseDate(body.expense_date);
      changes.expense_date = { from: toDateString(cur.expense_date), to: body.expense_date };
    }
    if (body.description !== undefined) {
      data.description = body.description;
      changes.description = { from: cur.description, to: body.description };
    }
    if (body.receipt_file_id !== undefined) {
      data.receipt_file_id = body.receipt_file_id;
      changes.receipt_file_id = { from: cur.receipt_file_id, to: body.receipt_file_id };
    }
    await tx.expenseClaim.update({ where: byId(cur.id), data });
    await audit({ action: "expense_claim.updated", entity_type: "expense_claim", entity_id: cur.id, changes }, tx);
    return tx.expenseClaim.findFirstOrThrow({ where: { id: cur.id }, include });
  });
  return claimJson(row);
}

/** Approves or rejects a pending claim: the claimant's manager or hr/admin/owner, never the claimant. */
async function decideClaim(
  auth: AuthContext,
  c: ClaimRow,
  status: "approved" | "rejected",
  comment: string | undefined,
): Promise<ClaimJson> {
  const row = await decide(
    auth,
    {
      entity: "expense_claim",
      employee: { id: c.employee_id, reports_to: c.employee.reports_to },
      lock: (tx) => lockClaim(tx, c.id),
      notPending: (s) => `The claim is ${s}; only a pending claim can be decided`,
      save: async (tx, cur, columns) => {
        await tx.expenseClaim.update({ where: byId(cur.id), data: columns });
        return tx.expenseClaim.findFirstOrThrow({ where: { id: cur.id }, include });
      },
      notice: (cur, decision, note) => ({
        kind: `expense_claim.${decision}`,
        title: `Your expense claim ${cur.claim_number} was ${decision}`,
        body: note ?? undefined,
        link: link(cur.id),
      }),
    },
    { status, comment },
  );
  return claimJson(row);
}

/** Cancels a pending claim (anyone who sees it) or an approved, unpaid one (hr/admin/owner). */
export async function cancelClaim(auth: AuthContext, id: string): Promise<ClaimJson> {
  const c = await visibleClaim(auth, id);
  const row = await cancel(auth, {
    entity: "expense_claim",
    lock: (tx) => lockClaim(tx, c.id),
    allow: (cur) => {
      if (cur.status === "approved") {
        if (!isHr(auth)) throw forbidden("Only hr, admin or owner can cancel an approved claim");
      } else if (cur.status !== "pending") throw conflict(`A ${cur.status} claim cannot be cancelled`);
    },
    save: async (tx, cur, columns) => {
      await tx.expenseClaim.update({ where: byId(cur.id), data: columns });
      return tx.expenseClaim.findFirstOrThrow({ where: { id: cur.id }, include });
    },
    notice: (cur) =>
      cur.employee_id !== auth.employeeId
        ? { kind: "expense_claim.cancelled", title: `Your expense claim ${cur.claim_number} was cancelled`, link: link(cur.id) }
        : null,
  });
  return claimJson(row);
}
