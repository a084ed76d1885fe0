// Investment declarations and proofs (Form 12BB; Form 124 of the Income-tax Rules 2026): items per
// section with an amount and an upload as evidence, decided by hr (verified with the amount the proof
// supports, or rejected with a reason). Employees declare within the company's windows; after the
// proof cut-off only verified amounts count in the monthly deduction (monthly.ts).
import type { Prisma } from "../../../../generated/prisma/client.ts";
import { lockRow } from "../../../db/sql.ts";
import { byId, db, type ScopedTx, tenantTx } from "../../../db/tenancy.ts";
import { type Page, pageOf } from "../../../platform/use-case.ts";
import type { AuthContext, QueryParams, RequestBody } from "../../../platform/use-case.ts";
import { addDays, toDateString } from "../../../lib/dates.ts";
import { Decimal, moneyString } from "../../../lib/money.ts";
import { audit, diff } from "../../../platform/audit.ts";
import { conflict, invalidField, notFound } from "../../../platform/errors.ts";
import { notify } from "../../../platform/notify.ts";
import { uploadOf } from "../../../platform/storage/files.ts";
import { assertNotOwnRecord, isHr } from "../../shared/access.ts";
import { employeeFilter, OWN_REQUEST, targetEmployee, visibleEmployees } from "../../shared/people.ts";
import { tenantToday } from "../../shared/work-settings.ts";
import { oneOf } from "../json.ts";
import * as clock from "../../../lib/clock.ts";
import { dayOfTaxYear, type IncomeTaxSettings, incomeTaxSettings, resolveTaxYear, taxCompany } from "./profile.ts";

export const DECLARATION_SECTIONS = ["80C", "80CCD(1B)", "80D_self", "80D_parents", "80E", "24(b)", "hra_rent", "lta"] as const;
export type DeclarationSection = (typeof DECLARATION_SECTIONS)[number];
const STATUSES = ["submitted", "verified", "rejected"] as const;

type Row = Awaited<ReturnType<typeof db.taxDeclaration.findFirstOrThrow>>;

export const declarationJson = (d: Row) => ({
  id: d.id,
  employee_id: d.employee_id,
  tax_year: d.tax_year,
  section: oneOf(DECLARATION_SECTIONS, d.section, "declaration section"),
  description: d.description,
  amount: moneyString(d.amount),
  proof_file_id: d.proof_file_id,
  status: oneOf(STATUSES, d.status, "declaration status"),
  verified_amount: d.verified_amount === null ? null : moneyString(d.verified_amount),
  rejection_reason: d.rejection_reason,
  decided_by: d.decided_by,
  decided_at: d.decided_at?.toISOString() ?? null,
  created_at: d.created_at.toISOString(),
  updated_at: d.updated_at.toISOString(),
});

/** Whether `today` is inside a window of the tax year (the declaration window, a joiner's days, or the proof window). */
export function windowOpen(s: IncomeTaxSettings, taxYear: string, today: string, joining: string | null): boolean {
  const within = (from: string, to: string) => today >= from && today <= to;
  if (within(dayOfTaxYear(taxYear, s.declaration_opens), dayOfTaxYear(taxYear, s.declaration_closes))) return true;
  if (joining && within(joining, addDays(joining, s.joiner_declaration_days))) return true;
  return within(dayOfTaxYear(taxYear, s.proof_opens), dayOfTaxYear(taxYear, s.proof_closes));
}

/** The proof cut-off of a tax year: from the day after it, only verified amounts count. */
export const proofCutoff = (s: IncomeTaxSettings, taxYear: string) => dayOfTaxYear(taxYear, s.proof_closes);

async function assertWindow(auth: AuthContext, employeeId: string, taxYear: string, timezone: string) {
  if (isHr(auth)) return;
  const s = await incomeTaxSettings();
  const e = await db.employee.findFirst({ where: { id: employeeId }, select: { joining_date: true } });
  const today = tenantToday({ timezone });
  if (!windowOpen(s, taxYear, today, e ? toDateString(e.joining_date) : null))
    throw conflict(
      `Declarations for ${taxYear} are open ${s.declaration_opens} to ${s.declaration_closes} (and ${s.joiner_declaration_days} days ` +
        `from joining), proofs ${s.proof_opens} to ${s.proof_closes}: ask hr to record this one`,
    );
}

async function assertProof(auth: AuthContext, fileId: string | null | undefined, employeeId: string) {
  if (!fileId) return;
  const owner = await db.membership.findFirst({ where: { employee_id: employeeId }, select: { user_id: true } });
  const file = await uploadOf(fileId, [auth.userId, ...(owner ? [owner.user_id] : [])]);
  if (!file) throw invalidField("body.proof_file_id", "is not a file you or the employee uploaded (POST /api/upload)");
}

async function withholding(path = "query.tax_year", year?: string) {
  const company = await taxCompany();
  if (!company.withholds) throw conflict("This company withholds no income tax (its currency is not INR): there are no declarations");
  return { ...resolveTaxYear(year, company.timezone, path), timezone: company.timezone };
}

export async function declareInvestment(auth: AuthContext, input: RequestBody<"declareTaxInvestment">) {
  const employeeId = targetEmployee(auth, input.employee_id);
  const scope = await visibleEmployees(auth);
  if (scope !== null && !scope.includes(employeeId)) throw invalidField("body.employee_id", "is not an employee you can declare for");
  const { taxYear, timezone } = await withholding("body.tax_year", input.tax_year);
  if (new Decimal(input.amount).lte(0)) throw invalidField("body.amount", "must be greater than zero");
  await assertWindow(auth, employeeId, taxYear, timezone);
  await assertProof(auth, input.proof_file_id, employeeId);
  const row = await tenantTx(async (tx) => {
    const d = await tx.taxDeclaration.create({
      data: {
        employee_id: employeeId,
        tax_year: taxYear,
        section: input.section,
        description: input.description,
        amount: input.amount,
        proof_file_id: input.proof_file_id ?? null,
        created_by: auth.userId,
      },
    });
    await audit({ action: "tax_declaration.submitted", entity_type: "tax_declaration", entity_id: d.id, changes: declarationJson(d) }, tx);
    return d;
  });
  return declarationJson(row);
}

async function visibleDeclaration(auth: AuthContext, id: string): Promise<Row> {
  const d = await db.taxDeclaration.findFirst({ where: { id } });
  const scope = await visibleEmployees(auth);
  if (!d || (scope !== null && !scope.includes(d.employee_id))) throw notFound("Tax declaration");
  return d;
}

export const declarationById = async (auth: AuthContext, id: string) => declarationJson(await visibleDeclaration(auth, id));

export async function declarationPage(auth: AuthContext, q: QueryParams<"listTaxDeclarations">) {
  const page: Page = pageOf(q);
  const where: Prisma.TaxDeclarationWhereInput = { ...employeeFilter(await visibleEmployees(auth), q.employee_id) };
  if (q.tax_year) where.tax_year = q.tax_year;
  if (q.status) where.status = q.status;
  const [rows, total] = await Promise.all([
    db.taxDeclaration.findMany({ where, orderBy: [{ created_at: "desc" }, { id: "asc" }], skip: page.skip, take: page.limit }),
    db.taxDeclaration.count({ where }),
  ]);
  return { rows: rows.map(declarationJson), total, page };
}

/** The row's change: a decision (verified, at most the amount declared; rejected with a reason) or an edit (submitted again). */
function changeOf(auth: AuthContext, before: Row, input: RequestBody<"updateTaxDeclaration">): Prisma.TaxDeclarationUpdateInput {
  const decided = { decided_by: auth.userId, decided_at: clock.now() };
  if (input.status === "verified") {
    const verified = new Decimal(input.verified_amount ?? before.amount.toString());
    if (verified.gt(before.amount.toString()))
      throw invalidField("body.verified_amount", `must be at most the amount declared (${moneyString(before.amount)})`);
    return { status: "verified", verified_amount: verified.toFixed(2), rejection_reason: null, ...decided };
  }
  if (input.status === "rejected")
    return { status: "rejected", verified_amount: null, rejection_reason: input.rejection_reason!, ...decided };
  return { ...input, status: "submitted", verified_amount: null, rejection_reason: null, decided_by: null, decided_at: null };
}

async function notifyDeclarant(tx: ScopedTx, d: Row, status: "verified" | "rejected") {
  const member = await tx.membership.findFirst({ where: { employee_id: d.employee_id }, select: { user_id: true } });
  if (!member) return;
  await notify(tx, {
    userId: member.user_id,
    kind: status === "verified" ? "tax_declaration.verified" : "tax_declaration.rejected",
    title: `Your ${d.section} declaration was ${status}`,
    body: status === "rejected" ? (d.rejection_reason ?? undefined) : `Verified: ${moneyString(d.verified_amount ?? 0)}`,
    link: `/api/payroll/tax-declarations/${d.id}`,
  });
}

/** The declarant changes a submitted or rejected item; hr verifies or rejects it. */
export async function changeDeclaration(auth: AuthContext, id: string, input: RequestBody<"updateTaxDeclaration">) {
  const current = await visibleDeclaration(auth, id);
  const deciding = input.status !== undefined;
  const editing = input.amount !== undefined || input.description !== undefined || input.proof_file_id !== undefined;
  if (deciding && editing)
    throw invalidField("body.status", "is given alone (with verified_amount or rejection_reason): change the item first");
  if (!deciding && (input.verified_amount !== undefined || input.rejection_reason !== undefined))
    throw invalidField("body.status", "is required with verified_amount or rejection_reason");
  const { timezone } = await withholding();
  let selfDecision = false;
  if (deciding) {
    if (!isHr(auth)) throw notFound("Tax declaration");
    selfDecision = assertNotOwnRecord(auth, current.employee_id, OWN_REQUEST);
    if (input.status === "rejected" && !input.rejection_reason) throw invalidField("body.rejection_reason", "is required to reject");
  } else {
    if (current.status === "verified" && !isHr(auth)) throw conflict("A verified item cannot be changed; declare another or ask hr");
    await assertWindow(auth, current.employee_id, current.tax_year, timezone);
    if (input.amount !== undefined && new Decimal(input.amount).lte(0)) throw invalidField("body.amount", "must be greater than zero");
    await assertProof(auth, input.proof_file_id, current.employee_id);
  }
  const saved = await tenantTx(async (tx) => {
    await lockRow(tx, "tax_declarations", id);
    const before = await tx.taxDeclaration.findFirstOrThrow({ where: { id } });
    const after = await tx.taxDeclaration.update({ where: byId(id), data: changeOf(auth, before, input) });
    const action = input.status ? `tax_declaration.${input.status}` : "tax_declaration.changed";
    const changes = diff(declarationJson(before), declarationJson(after));
    await audit(
      { action, entity_type: "tax_declaration", entity_id: id, changes: { ...changes, ...(selfDecision ? { self_decision: true } : {}) } },
      tx,
    );
    if (input.status) await notifyDeclarant(tx, after, input.status);
    return after;
  });
  return declarationJson(saved);
}
