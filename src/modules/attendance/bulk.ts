// Attendance records written in batches, for importAttendance and the bulk imports alike: row checks in
// memory, one query each for the batch's employees and work from home, one write and one audit entry.
import { audit } from "../../platform/audit.ts";
import { AppError, invalidField, notFound } from "../../platform/errors.ts";
import type { AuthContext, RequestBody } from "../../platform/use-case.ts";
import { db, type ScopedTx, tenantTx } from "../../db/tenancy.ts";
import { approvedWfhOnDays } from "../leave/index.ts";
import { assertNotOwnRecord, OWN_RECORD, selfDecision } from "../shared/access.ts";
import { loadAttendanceSettings } from "../shared/work-settings.ts";
import { checkPunches } from "./punches.ts";
import { type ImportedRecord, upsertImportedRecords } from "./queries.ts";
import { evaluatePunch } from "./rules.ts";

type ImportRow = AttendanceImport["records"][number];

/** A refused row: its index in the batch, the field (null: the row as a whole) and why. */
export interface RowProblem {
  index: number;
  field: string | null;
  message: string;
}

/** A row's refusal as importAttendance words it for `records.<i>` (the field without that prefix). */
function problemsOf(index: number, err: AppError): RowProblem[] {
  const details = err.details?.length ? err.details : [{ path: "body", message: err.message }];
  return details.map((d) => {
    const field = d.path.replace(/^body\.?/, "").replace(/^records\.\d+\.?/, "");
    return { index, field: field ? field.split(".")[0] : null, message: field ? d.message : err.message };
  });
}

/** The checks of importAttendance that need nothing stored: the caller's own record, a status or punches, punches on the day. */
function checkRow(auth: AuthContext, r: ImportRow, timezone: string): { self: boolean } {
  const self = assertNotOwnRecord(auth, r.employee_id, `You cannot import your own attendance: ${OWN_RECORD}`);
  if (!r.check_in && !r.status) throw invalidField("body.records.0", "needs check_in or status");
  if (r.check_out && !r.check_in) throw invalidField("body.records.0.check_out", "needs check_in");
  if (r.check_in) checkPunches(r.date, new Date(r.check_in), r.check_out ? new Date(r.check_out) : null, timezone, "body.records.0");
  return { self };
}

/**
 * Writes rows that passed the schema: one refused by importAttendance's rules comes back as a problem, the
 * others are created or replaced by employee and date (the later row wins); answers each written record's id.
 */
export async function importRecordsIn(
  tx: ScopedTx,
  auth: AuthContext,
  rows: readonly ImportRow[],
): Promise<{ problems: RowProblem[]; records: { index: number; id: string }[]; created: number; updated: number }> {
  const settings = await loadAttendanceSettings(tx);
  const problems: RowProblem[] = [];
  const ok: number[] = [];
  let self = false;
  rows.forEach((r, i) => {
    try {
      if (checkRow(auth, r, settings.timezone).self) self = true;
      ok.push(i);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      problems.push(...problemsOf(i, err));
    }
  });
  const ids = [...new Set(ok.map((i) => rows[i].employee_id))];
  const live = new Set(
    (await tx.employee.findMany({ where: { id: { in: ids }, deleted_at: null }, select: { id: true } })).map((e) => e.id),
  );
  const valid = ok.filter((i) => {
    if (live.has(rows[i].employee_id)) return true;
    problems.push({ index: i, field: null, message: "Employee not found" });
    return false;
  });
  const last = new Map<string, number>();
  for (const i of valid) last.set(`${rows[i].employee_id}:${rows[i].date}`, i);
  const punched = [...last.values()].filter((i) => rows[i].check_in).map((i) => rows[i]);
  const wfh = await approvedWfhOnDays(tx, punched);
  const records: ImportedRecord[] = [...last.values()].map((i) => recordOf(rows[i], settings, wfh));
  const written = records.length ? await upsertImportedRecords(tx, records) : [];
  const idOf = new Map(written.map((w) => [`${w.employee_id}:${w.date}`, w.id]));
  const created = written.filter((w) => w.created).length;
  if (written.length) {
    const dates = records.map((r) => r.date).sort();
    await audit(
      {
        action: "attendance.imported",
        entity_type: "attendance_record",
        entity_id: null,
        changes: {
          created,
          updated: written.length - created,
          employees: new Set(records.map((r) => r.employee_id)).size,
          from: dates[0],
          to: dates.at(-1),
          ...selfDecision(self),
        },
      },
      tx,
    );
  }
  const byRow = valid.map((i) => ({ index: i, id: idOf.get(`${rows[i].employee_id}:${rows[i].date}`)! }));
  return { problems, records: byRow, created, updated: written.length - created };
}

/** The record a row writes: punches evaluated like self-service ones (a given status overrides the computed one). */
function recordOf(r: ImportRow, settings: Awaited<ReturnType<typeof loadAttendanceSettings>>, wfh: Set<string>): ImportedRecord {
  const notes = r.notes ?? null;
  if (!r.check_in)
    return {
      employee_id: r.employee_id,
      date: r.date,
      check_in: null,
      check_out: null,
      worked_hours: null,
      status: r.status!,
      late: false,
      early_exit: false,
      notes,
    };
  const checkIn = new Date(r.check_in);
  const checkOut = r.check_out ? new Date(r.check_out) : null;
  const p = evaluatePunch(checkIn, checkOut, settings, wfh.has(`${r.employee_id}:${r.date}`));
  return {
    employee_id: r.employee_id,
    date: r.date,
    check_in: checkIn.toISOString(),
    check_out: checkOut?.toISOString() ?? null,
    worked_hours: p.worked_hours?.toString() ?? null,
    status: r.status ?? p.status,
    late: p.late,
    early_exit: p.early_exit,
    notes,
  };
}

export type AttendanceImport = RequestBody<"importAttendance">;

/**
 * importAttendance: hr's records, all or nothing (an employee and date at most once, a record without
 * punches needs a status), written as a batch: the counts, and each record's id in input order.
 */
export async function importRecords(
  auth: AuthContext,
  input: AttendanceImport,
): Promise<{ created: number; updated: number; ids: string[] }> {
  const settings = await loadAttendanceSettings();
  const seen = new Set<string>();
  input.records.forEach((r, i) => {
    // attendance counts for pay (loss of pay): not on one's own record, except the company's owner
    assertNotOwnRecord(auth, r.employee_id, `You cannot import your own attendance (records.${i}): ${OWN_RECORD}`);
    const key = `${r.employee_id}:${r.date}`;
    if (seen.has(key)) throw invalidField(`body.records.${i}`, "repeats an employee and date of the import");
    seen.add(key);
    if (!r.check_in && !r.status) throw invalidField(`body.records.${i}`, "needs check_in or status");
    if (r.check_out && !r.check_in) throw invalidField(`body.records.${i}.check_out`, "needs check_in");
    if (r.check_in)
      checkPunches(r.date, new Date(r.check_in), r.check_out ? new Date(r.check_out) : null, settings.timezone, `body.records.${i}`);
  });
  const ids = [...new Set(input.records.map((r) => r.employee_id))];
  if ((await db.employee.count({ where: { id: { in: ids }, deleted_at: null } })) !== ids.length) throw notFound("Employee");
  return tenantTx(
    async (tx) => {
      // the same writer as the bulk imports; a problem now is an employee removed since the count
      const { problems, records, created, updated } = await importRecordsIn(tx, auth, input.records);
      if (problems.length) throw notFound("Employee");
      return { created, updated, ids: records.map((r) => r.id) };
    },
    { timeout: 120_000 },
  );
}
