// What other areas read of leave (payroll's loss of pay, holidays and encashments), read-only.
import type { ScopedTx } from "../../db/tenancy.ts";
import { parseDate, toDateString, type DateString } from "../../lib/dates.ts";

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
export async function approvedLeaveBetween(client: Client, employeeIds: readonly string[], from: DateString, to: DateString): Promise<ApprovedLeave[]> {
  if (!employeeIds.length) return [];
  const rows = await client.leaveRequest.findMany({
    where: { status: "approved", from_date: { lte: parseDate(to) }, to_date: { gte: parseDate(from) }, employee_id: { in: [...employeeIds] } },
    select: { employee_id: true, from_date: true, to_date: true, half_day_start: true, half_day_end: true, days: true, leave_type: { select: { is_paid: true } } },
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
}

/** Approved encashments of these employees not yet priced by a payroll run, oldest first. */
export async function encashmentsToPay(client: Client, employeeIds: readonly string[]): Promise<EncashmentToPay[]> {
  if (!employeeIds.length) return [];
  const rows = await client.leaveEncashment.findMany({
    where: { status: "approved", amount: null, employee_id: { in: [...employeeIds] } },
    select: { id: true, employee_id: true, days: true, leave_type: { select: { name: true } } },
    orderBy: { created_at: "asc" },
  });
  return rows.map((x) => ({ id: x.id, employee_id: x.employee_id, days: x.days.toFixed(1), leave_type: x.leave_type.name }));
}
