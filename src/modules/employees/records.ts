// Employee records: validation, generated codes, create / update / soft delete. Every change is
// written to the activity log (audit_logs, entity_type 'employee') in the same transaction.
import { storedState } from "../../lib/indian-states.ts";
import type { Employee, Prisma } from "../../../generated/prisma/client.ts";
import { audit, diff } from "../../platform/audit.ts";
import { lockRow } from "../../db/sql.ts";
import { db, tenantTx, type ScopedTx, byId } from "../../db/tenancy.ts";
import { badRequest, conflict, invalidField, notFound, type ErrorDetail } from "../../platform/errors.ts";
import type { AuthContext, RequestBody } from "../../platform/use-case.ts";
import { assertNotOwnRecord, OWN_RECORD, selfDecision } from "../shared/access.ts";
import { parseDate, toDateString } from "../../lib/dates.ts";
import { fullEmployeeJson } from "./profile.ts";
import { drawCodeNumber, isAboveInChain, lockReportingLines } from "./queries.ts";
import { dateOf, dateOrNull, employeeJson } from "./views.ts";
import * as clock from "../../lib/clock.ts";
import { RECORD_FIELDS } from "./fields.ts";

export type EmployeeCreateInput = RequestBody<"createEmployee">;
export type EmployeeUpdateInput = RequestBody<"updateEmployee">;

// ───────────────────────────── search text ─────────────────────────────

/**
 * What the list's `search` matches: lower-cased "first last code email phone phone-digits" (the
 * digits-only phone lets "9876543210" find "+91 98765 43210"). Kept in `employees.search_text`,
 * indexed with pg_trgm; the benchmark seeder uses this function too.
 */
export function searchText(e: {
  first_name: string;
  last_name: string;
  employee_code: string;
  email: string;
  phone?: string | null;
}): string {
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
export function normalize<T extends Partial<EmployeeCreateInput>>(input: T): T {
  const out: Record<string, unknown> = { ...input };
  for (const k of TRIMMED) if (typeof out[k] === "string") out[k] = (out[k] as string).trim();
  if ("state" in out) out.state = storedState(out.state as string | null | undefined); // a code (MH) is stored as the name
  if (typeof out.email === "string") out.email = (out.email as string).trim().toLowerCase();
  if (typeof out.phone === "string") out.phone = (out.phone as string).trim();
  return out as T;
}

export function checkValues(v: Partial<EmployeeCreateInput>, current?: Employee) {
  const details: ErrorDetail[] = [];
  const dob = v.date_of_birth !== undefined ? v.date_of_birth : current ? dateOrNull(current.date_of_birth) : null;
  const joining = v.joining_date ?? (current ? dateOf(current.joining_date) : undefined);
  if (dob && joining && dob >= joining)
    details.push({
      path: v.date_of_birth !== undefined ? "body.date_of_birth" : "body.joining_date",
      message: "date of birth must be before the joining date",
    });
  if (v.bank_iban && !ibanValid(v.bank_iban))
    details.push({ path: "body.bank_iban", message: "is not a valid IBAN (check digits do not match)" });
  if (details.length) throw badRequest(details.map((d) => `${d.path.replace(/^body\./, "")}: ${d.message}`).join("; "), details);
}

/** `reports_to` must be a live employee of the tenant, not the employee, nor one of their (indirect) reports. */
async function checkReportsTo(tx: ScopedTx, employeeId: string | null, managerId: string) {
  if (employeeId === managerId) throw invalidField("body.reports_to", "cannot be the employee themselves");
  const manager = await tx.employee.findFirst({ where: { id: managerId, deleted_at: null }, select: { id: true } });
  if (!manager) throw invalidField("body.reports_to", "is not an employee of this company");
  if (!employeeId) return;
  if (await isAboveInChain(tx, managerId, employeeId))
    throw invalidField(
      "body.reports_to",
      "would create a reporting cycle: the chosen manager reports (directly or indirectly) to this employee",
    );
}

async function checkOrgRefs(tx: ScopedTx, v: { branch_id?: string | null; work_location_id?: string | null }) {
  if (v.branch_id && !(await tx.branch.findFirst({ where: { id: v.branch_id, deleted_at: null }, select: { id: true } })))
    throw invalidField("body.branch_id", "is not a branch of this company");
  if (v.work_location_id && !(await tx.workLocation.findFirst({ where: { id: v.work_location_id }, select: { id: true } })))
    throw invalidField("body.work_location_id", "is not a work location of this company");
}

async function checkEmailFree(tx: ScopedTx | typeof db, email: string, exceptId?: string) {
  const other = await tx.employee.findFirst({
    where: { email, deleted_at: null, ...(exceptId ? { NOT: { id: exceptId } } : {}) },
    select: { id: true },
  });
  if (other) throw conflict(`Another employee already uses the email ${email}`);
}

// ───────────────────────────── employee codes ─────────────────────────────

export const formatEmployeeCode = (n: number) => `EMP-${String(n).padStart(5, "0")}`;

/** Next free generated code; inside a transaction the counter row stays locked (every other create waits). */
async function nextEmployeeCode(tx: ScopedTx | typeof db): Promise<string> {
  for (;;) {
    const code = formatEmployeeCode(await drawCodeNumber(tx));
    // A code given by hand (imports) may already hold this number: skip it.
    if (!(await tx.employee.findFirst({ where: { employee_code: code }, select: { id: true } }))) return code;
  }
}

// ───────────────────────────── audit view ─────────────────────────────

/** Audited fields, in API form (dates as YYYY-MM-DD): every field of the record (fields.ts). */
const AUDITED = RECORD_FIELDS;

export function auditView(e: Employee): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of AUDITED) {
    const v = e[f];
    out[f] = v instanceof Date ? toDateString(v) : v;
  }
  return out;
}

/** `{ field: { from: null, to } }` for every field set on a new record (sensitive ones masked). */
export function creationChanges(e: Employee) {
  const view = auditView(e);
  const empty = Object.fromEntries(AUDITED.map((f) => [f, null]));
  return diff(empty, view, [...AUDITED]);
}

// ───────────────────────────── commands ─────────────────────────────

/** The columns of an update: dates parsed, fields not given left out. */
function updateColumns(v: EmployeeUpdateInput): Prisma.EmployeeUncheckedUpdateInput {
  const { joining_date, date_of_birth, ...rest } = v;
  const data: Prisma.EmployeeUncheckedUpdateInput = { ...rest };
  if (joining_date !== undefined) data.joining_date = parseDate(joining_date);
  if (date_of_birth !== undefined) data.date_of_birth = date_of_birth === null ? null : parseDate(date_of_birth);
  for (const k of Object.keys(data) as (keyof typeof data)[]) if (data[k] === undefined) delete data[k];
  return data;
}

/**
 * Creates an employee. A generated code is drawn before the transaction, in a statement of its own: drawn
 * inside, the counter row stayed locked for the whole create and concurrent creates queued into the
 * transaction timeout. The price: a create failing after the draw leaves a gap in the numbering.
 */
export async function addEmployee(rawInput: EmployeeCreateInput) {
  let input = rawInput;
  if (!rawInput.employee_code) {
    const normalized = normalize(rawInput);
    checkValues(normalized);
    await checkEmailFree(db, normalized.email);
    input = { ...rawInput, employee_code: await nextEmployeeCode(db) };
  }
  const e = await tenantTx((tx) => createEmployeeIn(tx, input));
  return employeeJson(e, { access: "full", exit: null, userId: null });
}

/** Creates an employee inside the caller's transaction (e.g. converting a hired candidate). */
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
    if (await tx.employee.findFirst({ where: { employee_code: code }, select: { id: true } }))
      throw conflict(`The employee code ${code} is already taken`);
  } else code = await nextEmployeeCode(tx);
  const created = await tx.employee.create({
    data: {
      ...input,
      employee_code: code,
      joining_date: parseDate(input.joining_date),
      date_of_birth: input.date_of_birth ? parseDate(input.date_of_birth) : input.date_of_birth,
      search_text: searchText({ ...input, employee_code: code }),
    },
  });
  await audit(
    {
      action: "employee.created",
      event: "employee.created",
      entity_type: "employee",
      entity_id: created.id,
      changes: creationChanges(created),
    },
    tx,
  );
  return created;
}

/** Locks the live row for the rest of the transaction, or 404. */
async function lockEmployee(tx: ScopedTx, id: string): Promise<Employee> {
  if (!(await lockRow(tx, "employees", id, { live: true }))) throw notFound("Employee");
  return tx.employee.findFirstOrThrow({ where: { id } });
}

/** Fields that decide pay (where it goes, proration, statutory deductions): changing one's own is the owner's alone. */
const PAY_FIELDS = [
  "bank_name",
  "bank_account_number",
  "bank_ifsc",
  "bank_iban",
  "bank_routing_code",
  "labour_card_number",
  "joining_date",
  "employment_type",
  "status",
  "state",
  "date_of_birth",
  "gender",
] as const;

/** The pay fields `input` changes on the record as it was. */
function payFieldsChanged(input: Partial<EmployeeUpdateInput>, before: Employee): string[] {
  const now = auditView(before);
  const given = input as Record<string, unknown>;
  return PAY_FIELDS.filter((f) => given[f] !== undefined && String(given[f] ?? null) !== String(now[f] ?? null));
}

/** Changes an employee's record and returns it as it is now. */
export async function changeEmployee(auth: Pick<AuthContext, "role" | "employeeId">, id: string, rawInput: EmployeeUpdateInput) {
  const input = normalize(rawInput);
  await tenantTx(async (tx) => {
    if (input.reports_to) await lockReportingLines(tx);
    const before = await lockEmployee(tx, id);
    const payChanges = payFieldsChanged(input, before);
    const self =
      payChanges.length > 0 && assertNotOwnRecord(auth, id, `Changing ${payChanges.join(", ")} of your own record: ${OWN_RECORD}`);
    checkValues(input, before);
    if (input.status !== undefined && input.status !== before.status && (before.status === "on_notice" || before.status === "exited"))
      throw conflict(`The employee is ${before.status.replace("_", " ")}; their status follows the exit process and cannot be set by hand`);
    if (input.reports_to && input.reports_to !== before.reports_to) await checkReportsTo(tx, id, input.reports_to);
    await checkOrgRefs(tx, input);
    if (input.email && input.email !== before.email.toLowerCase()) await checkEmailFree(tx, input.email, id);
    const data = updateColumns(input);
    const merged = { ...before, ...input };
    const after = await tx.employee.update({ where: byId(id), data: { ...data, search_text: searchText(merged) } });
    const changes = diff(auditView(before), auditView(after), Object.keys(data));
    if (Object.keys(changes).length)
      await audit(
        {
          action: "employee.updated",
          event: "employee.updated",
          entity_type: "employee",
          entity_id: id,
          changes: { ...changes, ...selfDecision(self) },
        },
        tx,
      );
  });
  return fullEmployeeJson(id);
}

/** Soft delete (frees the email under the partial indexes), unlinking member accounts and pending invitations. */
export async function removeEmployee(id: string): Promise<void> {
  await tenantTx(async (tx) => {
    await lockReportingLines(tx); // no one may be assigned to them while they are being deleted
    await lockEmployee(tx, id);
    const reports = await tx.employee.count({ where: { reports_to: id, deleted_at: null } });
    if (reports)
      throw conflict(
        `${reports} employee(s) still report to this employee; assign them another manager first with PUT /api/employees/{employeeId} ` +
          "and reports_to (updateEmployee)",
      );
    const deletedAt = clock.now();
    await tx.employee.update({ where: byId(id), data: { deleted_at: deletedAt } });
    const members = await tx.membership.updateMany({ where: { employee_id: id }, data: { employee_id: null } });
    await tx.invitation.updateMany({ where: { employee_id: id, accepted_at: null }, data: { employee_id: null } });
    await audit(
      {
        action: "employee.deleted",
        event: "employee.deleted",
        entity_type: "employee",
        entity_id: id,
        changes: {
          deleted_at: { from: null, to: deletedAt.toISOString() },
          ...(members.count ? { linked_members: { from: members.count, to: 0 } } : {}),
        },
      },
      tx,
    );
  });
}
