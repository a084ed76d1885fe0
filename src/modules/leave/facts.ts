// What other areas read of leave data, read-only, through the leave area's public face (index.ts),
// so that no other area names a leave table: payroll's loss of pay, holidays and encashments;
// attendance's day view and punches; the dashboard's figures.
import { readByIdChunks } from "../../db/id-chunks.ts";
import { db, type ScopedTx } from "../../db/tenancy.ts";
import { type DateString, parseDate, toDateString } from "../../lib/dates.ts";
import type { HolidayRow } from "./off-days.ts";
import { approvedWfhPairs, type TimeOffRows, timeOffRows } from "./queries.ts";

type Client = Pick<ScopedTx, "leaveRequest" | "holiday" | "leaveEncashment">;

export interface ApprovedLeave {
  employee_id: string;
  from: DateString;
  to: DateString;
  half_day_start: boolean;
  half_day_end: boolean;
  /** The request's day count, one decimal ("2.0"). */
  days: string;
  is_paid: boolean;
}

/** Approved leave of these employees overlapping [from, to], with whether its type is paid. */
export async function approvedLeaveBetween(
  client: Client,
  employeeIds: readonly string[],
  from: DateString,
  to: DateString,
): Promise<ApprovedLeave[]> {
  if (!employeeIds.length) return [];
  const rows = await client.leaveRequest.findMany({
    where: {
      status: "approved",
      from_date: { lte: parseDate(to) },
      to_date: { gte: parseDate(from) },
      employee_id: { in: [...employeeIds] },
    },
    select: {
      employee_id: true,
      from_date: true,
      to_date: true,
      half_day_start: true,
      half_day_end: true,
      days: true,
      leave_type: { select: { is_paid: true } },
    },
  });
  return rows.map((r) => ({
    employee_id: r.employee_id,
    from: toDateString(r.from_date),
    to: toDateString(r.to_date),
    half_day_start: r.half_day_start,
    half_day_end: r.half_day_end,
    days: r.days.toFixed(1),
    is_paid: r.leave_type.is_paid,
  }));
}

export interface MandatoryHoliday {
  date: DateString;
  branch_id: string | null;
  work_location_id: string | null;
}

/** Holidays that are not optional within [from, to], with the branch / work location they apply to (null = all). */
export async function mandatoryHolidaysBetween(client: Client, from: DateString, to: DateString): Promise<MandatoryHoliday[]> {
  const rows = await client.holiday.findMany({
    where: { is_optional: false, date: { gte: parseDate(from), lte: parseDate(to) } },
    select: { date: true, branch_id: true, work_location_id: true },
  });
  return rows.map((h) => ({ date: toDateString(h.date), branch_id: h.branch_id, work_location_id: h.work_location_id }));
}

export interface EncashmentToPay {
  id: string;
  employee_id: string;
  /** Days encashed, one decimal ("2.0"). */
  days: string;
  leave_type: string;
  leave_type_id: string;
  period_id: string;
}

/** Approved encashments of these employees not yet priced by a payroll run, each employee's oldest first. */
export async function encashmentsToPay(client: Client, employeeIds: readonly string[]): Promise<EncashmentToPay[]> {
  const rows = await readByIdChunks(employeeIds, (ids) =>
    client.leaveEncashment.findMany({
      where: { status: "approved", amount: null, employee_id: { in: ids } },
      select: { id: true, employee_id: true, days: true, leave_type_id: true, period_id: true, leave_type: { select: { name: true } } },
      orderBy: { created_at: "asc" },
    }),
  );
  return rows.map((x) => ({
    id: x.id,
    employee_id: x.employee_id,
    days: x.days.toFixed(1),
    leave_type: x.leave_type.name,
    leave_type_id: x.leave_type_id,
    period_id: x.period_id,
  }));
}

type Reader = Pick<ScopedTx, "leaveRequest" | "wfhRequest">;

/**
 * Approved leave and work from home of these employees overlapping [from, to], and the holidays in
 * [from, to] that are days off (not optional; for the employees' branch and location to pick from)
 * - in one statement (the attendance day view's hot path).
 */
export async function approvedTimeOff(employeeIds: readonly string[], from: DateString, to: DateString): Promise<TimeOffRows> {
  if (!employeeIds.length) return { leaves: [], wfh: [], holidays: [] };
  return timeOffRows(employeeIds, from, to);
}

/** The employee's approved leave on `date`: `full_day`, `half_day` (a half first or last day), or null. */
export async function approvedLeaveOn(employeeId: string, date: DateString, client: Reader = db): Promise<"full_day" | "half_day" | null> {
  const d = parseDate(date);
  const leave = await client.leaveRequest.findFirst({
    where: { employee_id: employeeId, status: "approved", from_date: { lte: d }, to_date: { gte: d } },
  });
  if (!leave) return null;
  const half =
    (toDateString(leave.from_date) === date && leave.half_day_start) || (toDateString(leave.to_date) === date && leave.half_day_end);
  return half ? "half_day" : "full_day";
}

/** Whether the employee works from home on `date` (approved), on the caller's transaction when given. */
export async function approvedWfhOn(employeeId: string, date: DateString, client: Reader = db): Promise<boolean> {
  const d = parseDate(date);
  return Boolean(
    await client.wfhRequest.findFirst({
      where: { employee_id: employeeId, status: "approved", from_date: { lte: d }, to_date: { gte: d } },
      select: { id: true },
    }),
  );
}

/** approvedWfhOn for many (employee, date) pairs in one query: the `employee_id:date` keys on approved work from home. */
export function approvedWfhOnDays(client: ScopedTx, pairs: readonly { employee_id: string; date: DateString }[]): Promise<Set<string>> {
  return approvedWfhPairs(client, pairs);
}

/** The employees with approved leave covering `date` (each once). */
export async function employeesOnLeave(date: DateString): Promise<string[]> {
  const d = parseDate(date);
  const rows = await db.leaveRequest.findMany({
    where: { status: "approved", from_date: { lte: d }, to_date: { gte: d } },
    select: { employee_id: true },
    distinct: ["employee_id"],
  });
  return rows.map((r) => r.employee_id);
}

/** Pending leave, work from home, working on a holiday and encashment requests, per employee. */
export async function pendingLeaveRequestsByEmployee(): Promise<Map<string, number>> {
  const where = { status: "pending" };
  const groups = await Promise.all([
    db.leaveRequest.groupBy({ by: ["employee_id"], where, _count: { _all: true } }),
    db.wfhRequest.groupBy({ by: ["employee_id"], where, _count: { _all: true } }),
    db.holidayWorkRequest.groupBy({ by: ["employee_id"], where, _count: { _all: true } }),
    db.leaveEncashment.groupBy({ by: ["employee_id"], where, _count: { _all: true } }),
  ]);
  const out = new Map<string, number>();
  for (const g of groups.flat()) out.set(g.employee_id, (out.get(g.employee_id) ?? 0) + g._count._all);
  return out;
}

/** The company's holidays in [from, to] by date and name (optional ones too unless `optional: false`), at most `limit`. */
export async function companyHolidays(
  from: DateString,
  to: DateString,
  opts: { optional?: boolean; limit?: number } = {},
): Promise<HolidayRow[]> {
  const rows = await db.holiday.findMany({
    where: { date: { gte: parseDate(from), lte: parseDate(to) }, ...(opts.optional === false ? { is_optional: false } : {}) },
    select: { date: true, name: true, branch_id: true, work_location_id: true },
    orderBy: [{ date: "asc" }, { name: "asc" }],
    ...(opts.limit ? { take: opts.limit } : {}),
  });
  return rows.map((h) => ({ date: toDateString(h.date), name: h.name, branch_id: h.branch_id, work_location_id: h.work_location_id }));
}

/** Which of the uploads `ids` a leave request has as its attachment (the unattached-file cleanup keeps those). */
export async function leaveFilesInUse(ids: readonly string[]): Promise<string[]> {
  const rows = await db.leaveRequest.findMany({ where: { attachment_file_id: { in: [...ids] } }, select: { attachment_file_id: true } });
  return rows.flatMap((r) => (r.attachment_file_id ? [r.attachment_file_id] : []));
}
