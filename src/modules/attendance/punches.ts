// Punches: self-service check-in and check-out, hr imports, and the write of a day's record from
// a pair of punches (status and late/early flags computed from the settings) that corrections use.
import { audit } from "../../platform/audit.ts";
import { currentTenantId, type ScopedTx, tenantTx } from "../../db/tenancy.ts";
import { conflict, invalidField } from "../../platform/errors.ts";
import type { AuthContext } from "../../platform/use-case.ts";
import { type DateString, parseDate } from "../../lib/dates.ts";
import { approvedLeaveOn, approvedWfhOn } from "../leave/index.ts";
import { lockEmployees } from "../shared/people.ts";
import { type EffectiveAttendanceSettings, loadAttendanceSettings, tenantToday } from "../shared/work-settings.ts";
import { hours, type RecordRow, recordJson, type S } from "./json.ts";
import { evaluatePunch, localClock, punchProblem } from "./rules.ts";
import * as clock from "../../lib/clock.ts";

/** Writes a day's record from punches (status and flags computed), creating or replacing it. */
export async function writePunches(
  tx: ScopedTx,
  employeeId: string,
  date: DateString,
  checkIn: Date,
  checkOut: Date | null,
  settings: EffectiveAttendanceSettings,
  source: string,
  notes?: string | null,
): Promise<RecordRow> {
  const p = evaluatePunch(checkIn, checkOut, settings, await approvedWfhOn(employeeId, date, tx));
  const data = {
    check_in: checkIn,
    check_out: checkOut,
    worked_hours: p.worked_hours?.toString() ?? null,
    status: p.status,
    late: p.late,
    early_exit: p.early_exit,
    source,
    ...(notes !== undefined ? { notes } : {}),
  };
  return tx.attendanceRecord.upsert({
    where: { tenant_id_employee_id_date: { tenant_id: currentTenantId(), employee_id: employeeId, date: parseDate(date) } },
    create: { employee_id: employeeId, date: parseDate(date), ...data },
    update: data,
  });
}

/** Refuses punches that do not fit `date` (check-in on that local day, check-out after it within 24 hours). */
export function checkPunches(date: DateString, checkIn: Date, checkOut: Date | null, timeZone: string, prefix = "body"): void {
  const problem = punchProblem(date, checkIn, checkOut, timeZone);
  if (problem) throw invalidField(`${prefix}.${problem.field}`, problem.message);
}

function hhmm(instant: Date, timeZone: string): string {
  const m = localClock(instant, timeZone).minutes;
  return `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
}

function selfEmployee(auth: AuthContext): string {
  if (!auth.employeeId) throw conflict("Your account is not linked to an employee record");
  return auth.employeeId;
}

/** The caller checks in now: once a day, not on a full day of approved leave; late after shift start + grace. */
export async function punchIn(auth: AuthContext, notes?: string | null): Promise<S["AttendanceRecord"]> {
  const employeeId = selfEmployee(auth);
  const settings = await loadAttendanceSettings();
  const today = tenantToday(settings);
  const now = clock.now();
  const row = await tenantTx(async (tx) => {
    await lockEmployees(tx, [employeeId]);
    const existing = await tx.attendanceRecord.findFirst({ where: { employee_id: employeeId, date: parseDate(today) } });
    if (existing?.check_in) throw conflict(`You already checked in today at ${hhmm(existing.check_in, settings.timezone)}`);
    if ((await approvedLeaveOn(employeeId, today, tx)) === "full_day")
      throw conflict("You are on approved leave today; cancel the leave first with DELETE /api/leave-requests/{id} (cancelLeaveRequest)");
    const r = await writePunches(tx, employeeId, today, now, null, settings, "self", notes);
    await audit(
      {
        action: "attendance.check_in",
        entity_type: "attendance_record",
        entity_id: r.id,
        changes: { date: today, check_in: now.toISOString(), late: r.late },
      },
      tx,
    );
    return r;
  });
  return recordJson(row);
}

/** The caller checks out now (after checking in today, once): worked hours, half day and early exit. */
export async function punchOut(auth: AuthContext, notes?: string | null): Promise<S["AttendanceRecord"]> {
  const employeeId = selfEmployee(auth);
  const settings = await loadAttendanceSettings();
  const today = tenantToday(settings);
  const row = await tenantTx(async (tx) => {
    await lockEmployees(tx, [employeeId]);
    const existing = await tx.attendanceRecord.findFirst({ where: { employee_id: employeeId, date: parseDate(today) } });
    if (!existing?.check_in) throw conflict("You have not checked in today");
    if (existing.check_out) throw conflict("You already checked out today");
    const r = await writePunches(tx, employeeId, today, existing.check_in, clock.now(), settings, existing.source, notes ?? existing.notes);
    await audit(
      {
        action: "attendance.check_out",
        entity_type: "attendance_record",
        entity_id: r.id,
        changes: {
          date: today,
          check_out: r.check_out!.toISOString(),
          worked_hours: hours(r.worked_hours),
          status: r.status,
          early_exit: r.early_exit,
        },
      },
      tx,
    );
    return r;
  });
  return recordJson(row);
}
