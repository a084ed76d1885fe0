// Employee records: JSON projections, validation, create / update / soft delete. Every change is
// written to the activity log (audit_logs, entity_type 'employee') in the same transaction.
import { type Employee, type EmployeeExit, type ExitChecklistItem, Prisma } from "../../../generated/prisma/client.ts";
import { audit, diff, mask } from "../../audit.ts";
import { currentTenantId, db, tenantRead, tenantTx, type ScopedTx } from "../../db/tenancy.ts";
import { badRequest, conflict, invalidField, notFound, type ErrorDetail } from "../../http/errors.ts";
import type { RequestBody } from "../../http/types.ts";
import { parseDate, toDateString } from "../../lib/dates.ts";
import type { Access } from "./access.ts";

export type EmployeeCreateInput = RequestBody<"createEmployee">;
export type EmployeeUpdateInput = RequestBody<"updateEmployee">;
type Status = "active" | "inactive" | "on_notice" | "exited";
export type ExitWithChecklist = EmployeeExit & { checklist: ExitChecklistItem[] };

// ───────────────────────────── projections ─────────────────────────────

const dateOf = (v: Date | string): string => (typeof v === "string" ? v : toDateString(v));
const dateOrNull = (v: Date | string | null): string | null => (v === null ? null : dateOf(v));

/** Fields of the directory projection (also the columns the list query selects). */
export interface DirectoryFields {
  id: string;
  employee_code: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  department: string;
  designation: string;
  joining_date: Date | string;
  status: string;
  reports_to: string | null;
  branch_id: string | null;
  work_location_id: string | null;
}

export function directoryJson(e: DirectoryFields) {
  return {
    view: "directory" as const,
    id: e.id,
    employee_code: e.employee_code,
    first_name: e.first_name,
    last_name: e.last_name,
    full_name: `${e.first_name} ${e.last_name}`,
    email: e.email,
    phone: e.phone,
    department: e.department,
    designation: e.designation,
    joining_date: dateOf(e.joining_date),
    status: e.status as Status,
    reports_to: e.reports_to,
    branch_id: e.branch_id,
    work_location_id: e.work_location_id,
  };
}

const CHECKLIST_ITEMS = ["asset_return", "knowledge_transfer", "clearance", "final_settlement"] as const;
export const CHECKLIST_TITLES: Record<(typeof CHECKLIST_ITEMS)[number], string> = {
  asset_return: "Return company assets",
  knowledge_transfer: "Hand over work and knowledge",
  clearance: "Department and IT clearance",
  final_settlement: "Full and final settlement",
};
export { CHECKLIST_ITEMS };

export function exitJson(x: ExitWithChecklist) {
  return {
    id: x.id,
    employee_id: x.employee_id,
    resignation_date: dateOf(x.resignation_date),
    last_working_day: dateOf(x.last_working_day),
    reason: x.reason,
    status: x.status as "in_progress" | "completed",
    submitted_by: x.submitted_by,
    completed_at: x.completed_at?.toISOString() ?? null,
    checklist: [...x.checklist]
      .sort((a, b) => a.position - b.position)
      .map((c) => ({
        id: c.id,
        item: c.item as (typeof CHECKLIST_ITEMS)[number],
        title: c.title,
        status: c.status as "pending" | "done",
        completed_at: c.completed_at?.toISOString() ?? null,
        completed_by: c.completed_by,
        notes: c.notes,
      })),
    created_at: x.created_at.toISOString(),
  };
}

/** The complete record; `masked` hides the bank account and IBAN (managers reading their reports). */
export function employeeJson(e: Employee, opts: { access: Exclude<Access, "directory">; exit: ExitWithChecklist | null; userId: string | null }) {
  const hide = (field: string, v: string | null) => (opts.access === "masked" ? (mask(field, v) as string | null) : v);
  return {
    ...directoryJson(e),
    view: "full" as const,
    date_of_birth: dateOrNull(e.date_of_birth),
    gender: e.gender as "male" | "female" | "other" | null,
    employment_type: e.employment_type as "full_time" | "part_time" | "contract" | "fixed_term" | "intern",
    bank_name: e.bank_name,
    bank_account_number: hide("bank_account_number", e.bank_account_number),
    bank_ifsc: e.bank_ifsc,
    bank_iban: hide("bank_iban", e.bank_iban),
    bank_routing_code: e.bank_routing_code,
    labour_card_number: e.labour_card_number,
    state: e.state,
    user_id: opts.userId,
    exit: opts.exit ? exitJson(opts.exit) : null,
    created_at: e.created_at.toISOString(),
    updated_at: e.updated_at.toISOString(),
  };
}

/** The exit record: only employees on notice or exited have one. */
export async function exitOf(e: Pick<Employee, "id" | "status">): Promise<ExitWithChecklist | null> {
  if (e.status !== "on_notice" && e.status !== "exited") return null;
  return db.employeeExit.findFirst({ where: { employee_id: e.id }, include: { checklist: true } });
}

/**
 * The employee's columns by name, from the generated client (not `e.*`: the statement is prepared
 * once per connection, and a column added by a later migration would change a prepared `*`'s
 * result type under a running server).
 */
const EMPLOYEE_COLUMNS = Object.values(Prisma.EmployeeScalarFieldEnum)
  .map((c) => `e."${c}"`)
  .join(", ");

/**
 * The live employee with the member account linked to it, in one statement (the profile read is a
 * hot path: one round trip instead of two Prisma queries, on the pool), or 404.
 */
export async function loadEmployeeWithUser(id: string): Promise<Employee & { user_id: string | null }> {
  const [row] = await tenantRead<Employee & { user_id: string | null }>(
    `SELECT ${EMPLOYEE_COLUMNS}, (SELECT m.user_id FROM memberships m WHERE m.tenant_id = e.tenant_id AND m.employee_id = e.id ORDER BY m.created_at LIMIT 1) AS user_id
       FROM employees e WHERE e.tenant_id = $1::uuid AND e.id = $2::uuid AND e.deleted_at IS NULL`,
    [id],
  );
  if (!row) throw notFound("Employee");
  return row;
}

/** The complete record's JSON for a privileged caller, reloaded after a change. */
export async function fullEmployeeJson(id: string) {
  const e = await loadEmployeeWithUser(id);
  return employeeJson(e, { access: "full", exit: await exitOf(e), userId: e.user_id });
}

// ───────────────────────────── search text ─────────────────────────────

/**
 * What the list's `search` matches: lower-cased "first last code email phone phone-digits" (the
 * digits-only phone lets "9876543210" find "+91 98765 43210"). Kept in `employees.search_text`,
 * indexed with pg_trgm; the benchmark seeder uses this function too.
 */
export function searchText(e: { first_name: string; last_name: string; employee_code: string; email: string; phone?: string | null }): string {
  const digits = e.phone ? e.phone.replace(/\D/g, "") : "";
  return [e.first_name, e.last_name, e.employee_code, e.email, e.phone ?? "", digits !== e.phone ? digits : ""]
    .filter(Boolean)
    .join(" ")
    .toLowerCase();
}

// ───────────────────────────── validation ─────────────────────────────

/** ISO 13616 check digits (mod 97). */
export function ibanValid(iban: string): boolean {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let rem = 0;
  for (const ch of rearranged) {
    const v = ch >= "A" && ch <= "Z" ? String(ch.charCodeAt(0) - 55) : ch;
    for (const d of v) rem = (rem * 10 + Number(d)) % 97;
  }
  return rem === 1;
}

const TRIMMED = ["first_name", "last_name", "department", "designation", "bank_name", "state"] as const;

/** Trims text fields and lower-cases the email (input already passed the document's schema). */
function normalize<T extends Partial<EmployeeCreateInput>>(input: T): T {
  const out: Record<string, unknown> = { ...input };
  for (const k of TRIMMED) if (typeof out[k] === "string") out[k] = (out[k] as string).trim();
  if (typeof out.email === "string") out.email = (out.email as string).trim().toLowerCase();
  if (typeof out.phone === "string") out.phone = (out.phone as string).trim();
  return out as T;
}

function checkValues(v: Partial<EmployeeCreateInput>, current?: Employee) {
  const details: ErrorDetail[] = [];
  const dob = v.date_of_birth !== undefined ? v.date_of_birth : current ? dateOrNull(current.date_of_birth) : null;
  const joining = v.joining_date ?? (current ? dateOf(current.joining_date) : undefined);
  if (dob && joining && dob >= joining) details.push({ path: v.date_of_birth !== undefined ? "body.date_of_birth" : "body.joining_date", message: "date of birth must be before the joining date" });
  if (v.bank_iban && !ibanValid(v.bank_iban)) details.push({ path: "body.bank_iban", message: "is not a valid IBAN (check digits do not match)" });
  if (details.length) throw badRequest(details.map((d) => `${d.path.replace(/^body\./, "")}: ${d.message}`).join("; "), details);
}

/** Serialises changes of reporting lines in a tenant so two concurrent updates cannot build a cycle. */
async function lockReportingLines(tx: ScopedTx) {
  await tx.$queryRaw`SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtextextended(${`${currentTenantId()}:employees.reports_to`}, 0))`;
}

/** `reports_to` must be a live employee of the tenant, not the employee, nor one of their (indirect) reports. */
async function checkReportsTo(tx: ScopedTx, employeeId: string | null, managerId: string) {
  if (employeeId === managerId) throw invalidField("body.reports_to", "cannot be the employee themselves");
  const manager = await tx.employee.findFirst({ where: { id: managerId, deleted_at: null }, select: { id: true } });
  if (!manager) throw invalidField("body.reports_to", "is not an employee of this company");
  if (!employeeId) return;
  const tenantId = currentTenantId();
  const cycle = await tx.$queryRaw<{ id: string }[]>`
    WITH RECURSIVE chain(id, reports_to) AS (
      SELECT id, reports_to FROM employees WHERE tenant_id = ${tenantId}::uuid AND id = ${managerId}::uuid
      UNION
      SELECT e.id, e.reports_to FROM employees e JOIN chain c ON e.tenant_id = ${tenantId}::uuid AND e.id = c.reports_to
    )
    SELECT id FROM chain WHERE id = ${employeeId}::uuid LIMIT 1`;
  if (cycle.length) throw invalidField("body.reports_to", "would create a reporting cycle: the chosen manager reports (directly or indirectly) to this employee");
}

async function checkOrgRefs(tx: ScopedTx, v: { branch_id?: string | null; work_location_id?: string | null }) {
  if (v.branch_id && !(await tx.branch.findFirst({ where: { id: v.branch_id, deleted_at: null }, select: { id: true } }))) throw invalidField("body.branch_id", "is not a branch of this company");
  if (v.work_location_id && !(await tx.workLocation.findFirst({ where: { id: v.work_location_id }, select: { id: true } })))
    throw invalidField("body.work_location_id", "is not a work location of this company");
}

async function checkEmailFree(tx: ScopedTx | typeof db, email: string, exceptId?: string) {
  const other = await tx.employee.findFirst({ where: { email, deleted_at: null, ...(exceptId ? { NOT: { id: exceptId } } : {}) }, select: { id: true } });
  if (other) throw conflict(`Another employee already uses the email ${email}`);
}

// ───────────────────────────── employee codes ─────────────────────────────

export const formatEmployeeCode = (n: number) => `EMP-${String(n).padStart(5, "0")}`;

/**
 * Next free generated code of the tenant. With `db` (outside any transaction) each draw is a
 * statement of its own that locks the counter row only while it runs; inside a transaction the row
 * stays locked until that transaction ends, so every other create of the tenant waits for it.
 */
async function nextEmployeeCode(tx: ScopedTx | typeof db): Promise<string> {
  const tenantId = currentTenantId();
  for (;;) {
    const [{ last_value }] = await tx.$queryRaw<{ last_value: number }[]>`
      INSERT INTO employee_code_counters (tenant_id, last_value) VALUES (${tenantId}::uuid, 1)
      ON CONFLICT (tenant_id) DO UPDATE SET last_value = employee_code_counters.last_value + 1
      RETURNING last_value`;
    const code = formatEmployeeCode(last_value);
    // A code given by hand (imports) may already hold this number: skip it.
    if (!(await tx.employee.findFirst({ where: { employee_code: code }, select: { id: true } }))) return code;
  }
}

// ───────────────────────────── audit view ─────────────────────────────

/** Audited fields, in API form (dates as YYYY-MM-DD). */
const AUDITED = [
  "employee_code", "first_name", "last_name", "email", "phone", "department", "designation", "joining_date", "date_of_birth", "gender", "employment_type", "status",
  "reports_to", "branch_id", "work_location_id", "bank_name", "bank_account_number", "bank_ifsc", "bank_iban", "bank_routing_code", "labour_card_number", "state",
] as const;

export function auditView(e: Employee): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of AUDITED) {
    const v = e[f];
    out[f] = v instanceof Date ? toDateString(v) : v;
  }
  return out;
}

/** `{ field: { from: null, to } }` for every field set on a new record (sensitive ones masked). */
function creationChanges(e: Employee) {
  const view = auditView(e);
  const empty = Object.fromEntries(AUDITED.map((f) => [f, null]));
  return diff(empty, view, [...AUDITED]);
}

// ───────────────────────────── commands ─────────────────────────────

function dataFrom(v: Partial<EmployeeCreateInput>) {
  const data: Record<string, unknown> = {};
  for (const [k, val] of Object.entries(v)) {
    if (val === undefined) continue;
    data[k] = (k === "joining_date" || k === "date_of_birth") && typeof val === "string" ? parseDate(val) : val;
  }
  return data;
}

/**
 * Creates an employee. A generated code is drawn before the transaction starts, in a statement of
 * its own: drawn inside it, the tenant's counter row stayed locked for the whole create (checks,
 * insert with its search index, audit entry, commit), so concurrent creates of a company ran one
 * after the other, each holding a connection and an open transaction while it waited - 16 at once
 * on a busy machine ran into the transaction timeout. The price: a create that fails after the
 * draw leaves a gap in the numbering (the usual failure, an email already in use, is checked
 * before drawing).
 */
export async function createEmployee(rawInput: EmployeeCreateInput): Promise<Employee> {
  let input = rawInput;
  if (!rawInput.employee_code) {
    const normalized = normalize(rawInput);
    checkValues(normalized);
    await checkEmailFree(db, normalized.email);
    input = { ...rawInput, employee_code: await nextEmployeeCode(db) };
  }
  return tenantTx((tx) => createEmployeeIn(tx, input));
}

/**
 * Creates an employee inside the caller's transaction (validation, generated code, search text,
 * activity log) - for flows that create the record together with other changes, e.g. converting a
 * hired candidate.
 */
export async function createEmployeeIn(tx: ScopedTx, rawInput: EmployeeCreateInput): Promise<Employee> {
  const input = normalize(rawInput);
  checkValues(input);
  if (input.reports_to) {
    await lockReportingLines(tx);
    await checkReportsTo(tx, null, input.reports_to);
  }
  await checkOrgRefs(tx, input);
  await checkEmailFree(tx, input.email);
  let code = input.employee_code;
  if (code) {
    if (await tx.employee.findFirst({ where: { employee_code: code }, select: { id: true } })) throw conflict(`The employee code ${code} is already taken`);
  } else code = await nextEmployeeCode(tx);
  const data = dataFrom({ ...input, employee_code: code });
  const created = await tx.employee.create({
    data: { ...(data as any), search_text: searchText({ ...input, employee_code: code }) },
  });
  await audit({ action: "employee.created", entity_type: "employee", entity_id: created.id, changes: creationChanges(created) }, tx);
  return created;
}

/** Locks the live row for the rest of the transaction, or 404. */
async function lockEmployee(tx: ScopedTx, id: string): Promise<Employee> {
  const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM employees WHERE tenant_id = ${currentTenantId()}::uuid AND id = ${id}::uuid AND deleted_at IS NULL FOR UPDATE`;
  if (!locked.length) throw notFound("Employee");
  return tx.employee.findFirstOrThrow({ where: { id } });
}

export async function updateEmployee(id: string, rawInput: EmployeeUpdateInput): Promise<Employee> {
  const input = normalize(rawInput);
  return tenantTx(async (tx) => {
    if (input.reports_to) await lockReportingLines(tx);
    const before = await lockEmployee(tx, id);
    checkValues(input, before);
    if (input.status !== undefined && input.status !== before.status && (before.status === "on_notice" || before.status === "exited"))
      throw conflict(`The employee is ${before.status.replace("_", " ")}; their status follows the exit process and cannot be set by hand`);
    if (input.reports_to && input.reports_to !== before.reports_to) await checkReportsTo(tx, id, input.reports_to);
    await checkOrgRefs(tx, input);
    if (input.email && input.email !== before.email.toLowerCase()) await checkEmailFree(tx, input.email, id);
    const data = dataFrom(input);
    const merged = { ...before, ...input };
    const after = await tx.employee.update({ where: { id }, data: { ...(data as any), search_text: searchText(merged) } });
    const changes = diff(auditView(before), auditView(after), Object.keys(data));
    if (Object.keys(changes).length) await audit({ action: "employee.updated", entity_type: "employee", entity_id: id, changes }, tx);
    return after;
  });
}

/**
 * Soft delete: sets deleted_at (the partial indexes then ignore the row, which frees the email),
 * unlinks member accounts and pending invitations. Refused while live employees report to them.
 */
export async function deleteEmployee(id: string): Promise<void> {
  await tenantTx(async (tx) => {
    await lockReportingLines(tx); // no one may be assigned to them while they are being deleted
    await lockEmployee(tx, id);
    const reports = await tx.employee.count({ where: { reports_to: id, deleted_at: null } });
    if (reports) throw conflict(`${reports} employee(s) still report to this employee; assign them another manager first`);
    const deletedAt = new Date();
    await tx.employee.update({ where: { id }, data: { deleted_at: deletedAt } });
    const members = await tx.membership.updateMany({ where: { employee_id: id }, data: { employee_id: null } });
    await tx.invitation.updateMany({ where: { employee_id: id, accepted_at: null }, data: { employee_id: null } });
    await audit(
      {
        action: "employee.deleted",
        entity_type: "employee",
        entity_id: id,
        changes: { deleted_at: { from: null, to: deletedAt.toISOString() }, ...(members.count ? { linked_members: { from: members.count, to: 0 } } : {}) },
      },
      tx,
    );
  });
}
