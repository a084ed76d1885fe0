// Employees in bulk (src/modules/bulk/): created by exactly the rules of a single create, a batch at a
// time (per-row checks in memory, checks against stored data in one query per batch).
import { randomUUID } from "node:crypto";
import type { Employee } from "../../../generated/prisma/client.ts";
import { auditMany } from "../../platform/audit.ts";
import { AppError } from "../../platform/errors.ts";
import type { ScopedTx } from "../../db/tenancy.ts";
import { parseDate } from "../../lib/dates.ts";
import { drawCodeNumbers, exportBatch, INSERT_COLUMNS, insertEmployees, lockReportingLines } from "./queries.ts";
import { checkValues, creationChanges, type EmployeeCreateInput, formatEmployeeCode, normalize, searchText } from "./records.ts";

/** A refused row: its index in the batch, the field (null: the row as a whole) and why. */
export interface RowProblem {
  index: number;
  field: string | null;
  message: string;
}

const fieldOf = (path: string) => path.replace(/^body\./, "");

/**
 * Creates the employees of `rows` in `tx` by the rules of `createEmployeeIn`, each with its audit entry;
 * rows that break one come back as problems. Earlier batches of the same transaction count as stored.
 */
// size: the single create's checks in order (email, code, manager, branch, location), then one insert, its audit and events
export async function createEmployeesIn(
  tx: ScopedTx,
  rows: EmployeeCreateInput[],
): Promise<{ created: number; problems: RowProblem[]; records: { index: number; id: string; code: string }[] }> {
  const problems: RowProblem[] = [];
  const bad = new Set<number>();
  const refuse = (index: number, field: string | null, message: string) => {
    problems.push({ index, field, message });
    bad.add(index);
  };
  const inputs = rows.map((raw, index) => {
    const input = normalize(raw);
    try {
      checkValues(input);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      for (const d of err.details ?? [{ path: "body", message: err.message }])
        refuse(index, d.path === "body" ? null : fieldOf(d.path), d.message);
    }
    return input;
  });
  // within the batch: the first row with an email or code keeps it
  const emails = new Map<string, number>();
  const codes = new Map<string, number>();
  inputs.forEach((v, i) => {
    const e = emails.get(v.email);
    if (e !== undefined) refuse(i, "email", `repeats the email of an earlier row (${v.email})`);
    else emails.set(v.email, i);
    if (v.employee_code) {
      const c = codes.get(v.employee_code);
      if (c !== undefined) refuse(i, "employee_code", `repeats the employee code of an earlier row (${v.employee_code})`);
      else codes.set(v.employee_code, i);
    }
  });
  // against stored data, one query each
  const taken = await tx.employee.findMany({ where: { email: { in: [...emails.keys()] }, deleted_at: null }, select: { email: true } });
  for (const t of taken) refuse(emails.get(t.email)!, "email", `another employee already uses the email ${t.email}`);
  if (codes.size) {
    const used = await tx.employee.findMany({ where: { employee_code: { in: [...codes.keys()] } }, select: { employee_code: true } });
    for (const u of used) refuse(codes.get(u.employee_code)!, "employee_code", `the employee code ${u.employee_code} is already taken`);
  }
  const refs = async (
    field: "reports_to" | "branch_id" | "work_location_id",
    known: (ids: string[]) => Promise<Set<string>>,
    what: string,
  ) => {
    const ids = [...new Set(inputs.map((v) => v[field]).filter((x): x is string => Boolean(x)))];
    if (!ids.length) return;
    const ok = await known(ids);
    inputs.forEach((v, i) => {
      const id = v[field];
      if (id && !ok.has(id)) refuse(i, field, `is not ${what} of this company`);
    });
  };
  if (inputs.some((v) => v.reports_to)) await lockReportingLines(tx);
  await refs(
    "reports_to",
    async (ids) =>
      new Set((await tx.employee.findMany({ where: { id: { in: ids }, deleted_at: null }, select: { id: true } })).map((r) => r.id)),
    "an employee",
  );
  await refs(
    "branch_id",
    async (ids) =>
      new Set((await tx.branch.findMany({ where: { id: { in: ids }, deleted_at: null }, select: { id: true } })).map((r) => r.id)),
    "a branch",
  );
  await refs(
    "work_location_id",
    async (ids) => new Set((await tx.workLocation.findMany({ where: { id: { in: ids } }, select: { id: true } })).map((r) => r.id)),
    "a work location",
  );
  const good = inputs.map((v, index) => ({ v, index })).filter((r) => !bad.has(r.index));
  if (!good.length) return { created: 0, problems, records: [] };
  // generated codes: a range drawn at once, skipping numbers someone gave by hand
  const needCodes = good.filter((r) => !r.v.employee_code);
  const drawn: string[] = [];
  while (drawn.length < needCodes.length) {
    const want = needCodes.length - drawn.length;
    const last = await drawCodeNumbers(tx, want);
    const range = Array.from({ length: want }, (_, k) => formatEmployeeCode(last - want + 1 + k));
    const clash = new Set(
      (await tx.employee.findMany({ where: { employee_code: { in: range } }, select: { employee_code: true } })).map(
        (r) => r.employee_code,
      ),
    );
    drawn.push(...range.filter((c) => !clash.has(c) && !codes.has(c)));
  }
  needCodes.forEach((r, k) => {
    r.v = { ...r.v, employee_code: drawn[k] };
  });
  const written = good.map(({ v }) => {
    const row = Object.fromEntries(INSERT_COLUMNS.map((c) => [c, (v as Record<string, unknown>)[c] ?? null])) as Record<
      (typeof INSERT_COLUMNS)[number],
      unknown
    >;
    row.id = randomUUID();
    row.employment_type = v.employment_type ?? "full_time";
    row.status = v.status ?? "active";
    row.search_text = searchText({ ...v, employee_code: v.employee_code! });
    return row;
  });
  await insertEmployees(tx, written);
  // the activity entries of the single create, from the rows as written (dates as the record has them)
  await auditMany(
    written.map((r) => {
      const e = {
        ...r,
        joining_date: parseDate(r.joining_date as string),
        date_of_birth: r.date_of_birth ? parseDate(r.date_of_birth as string) : null,
      };
      return {
        action: "employee.created",
        event: "employee.created",
        entity_type: "employee",
        entity_id: r.id as string,
        changes: creationChanges(e as unknown as Employee),
      };
    }),
    tx,
  );
  const records = written.map((r, k) => ({ index: good[k].index, id: r.id as string, code: r.employee_code as string }));
  return { created: written.length, problems, records };
}

/** The filters of an employee export (those of the list, and a change time). */
export interface EmployeeExportFilter {
  department?: string;
  status?: string;
  reports_to?: string;
  updated_since?: string;
  /** one record (the access bundle of a privacy request) */
  id?: string;
}

/** Columns of an exported employee: the create body's, then what the server keeps. */
export const EMPLOYEE_EXPORT_COLUMNS = [
  "id",
  "employee_code",
  "first_name",
  "last_name",
  "email",
  "phone",
  "department",
  "designation",
  "joining_date",
  "date_of_birth",
  "gender",
  "employment_type",
  "reports_to",
  "branch_id",
  "work_location_id",
  "bank_name",
  "bank_account_number",
  "bank_ifsc",
  "bank_iban",
  "bank_routing_code",
  "labour_card_number",
  "pan_number",
  "uan",
  "esi_number",
  "state",
  "status",
  "created_at",
  "updated_at",
] as const;

/** The next `limit` live employees after id `after` (keyset by id), as export rows. */
export async function employeesForExport(
  filter: EmployeeExportFilter,
  after: string | null,
  limit: number,
): Promise<Record<string, unknown>[]> {
  const rows = await exportBatch(filter, after, limit);
  for (const r of rows) {
    r.created_at = (r.created_at as Date).toISOString();
    r.updated_at = (r.updated_at as Date).toISOString();
  }
  return rows;
}
