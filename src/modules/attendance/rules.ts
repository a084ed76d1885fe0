// Attendance rules (pure): local clock times in the company's time zone, worked hours, late and
// early-exit flags, and the status of a day - punched or derived.
import { type DateString, wallClockIn } from "../../lib/dates.ts";
import { Decimal } from "../../lib/money.ts";

/** Local date and minutes since local midnight of an instant. */
export function localClock(instant: Date, timeZone: string): { date: DateString; minutes: number } {
  const p = wallClockIn(instant, timeZone);
  return { date: `${p.year}-${p.month}-${p.day}`, minutes: Number(p.hour) * 60 + Number(p.minute) };
}

export const toMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

export interface PunchRules {
  shift_start: string;
  shift_end: string;
  grace_minutes: number;
  half_day_threshold_hours: Decimal;
  timezone: string;
}

export type PunchStatus = "present" | "half_day" | "wfh";

export interface PunchResult {
  worked_hours: Decimal | null;
  status: PunchStatus;
  late: boolean;
  early_exit: boolean;
}

/**
 * late: check-in after shift start + grace; early exit: check-out before shift end − grace (on the
 * same local day); half_day: worked hours below the threshold once checked out; `wfh` instead of
 * `present` on an approved work-from-home day.
 */
export function evaluatePunch(checkIn: Date, checkOut: Date | null, rules: PunchRules, onWfh = false): PunchResult {
  const inClock = localClock(checkIn, rules.timezone);
  const late = inClock.minutes > toMinutes(rules.shift_start) + rules.grace_minutes;
  const full: PunchStatus = onWfh ? "wfh" : "present";
  if (!checkOut) return { worked_hours: null, status: full, late, early_exit: false };
  const worked = new Decimal(checkOut.getTime() - checkIn.getTime()).div(3_600_000).toDecimalPlaces(2, Decimal.ROUND_DOWN);
  const outClock = localClock(checkOut, rules.timezone);
  const early_exit = outClock.date === inClock.date && outClock.minutes < toMinutes(rules.shift_end) - rules.grace_minutes;
  return { worked_hours: worked, status: worked.lt(rules.half_day_threshold_hours) ? "half_day" : full, late, early_exit };
}

/** Validates a pair of punches for `date`: check-in on that local day, check-out after it within 24 hours. */
export function punchProblem(
  date: DateString,
  checkIn: Date,
  checkOut: Date | null,
  timeZone: string,
): { field: "check_in" | "check_out"; message: string } | null {
  if (localClock(checkIn, timeZone).date !== date)
    return { field: "check_in", message: `must fall on ${date} in the company's time zone (${timeZone})` };
  if (checkOut && checkOut <= checkIn) return { field: "check_out", message: "must be after check_in" };
  if (checkOut && checkOut.getTime() - checkIn.getTime() > 24 * 3_600_000)
    return { field: "check_out", message: "must be within 24 hours of check_in" };
  return null;
}

export type DayStatus = "present" | "absent" | "half_day" | "on_leave" | "holiday" | "weekly_off" | "wfh" | "not_marked";

/** Status of a day without a stored record (first match wins). */
export function derivedStatus(d: {
  date: DateString;
  today: DateString;
  holiday: boolean;
  weeklyOff: boolean;
  onLeave: boolean;
  wfh: boolean;
}): DayStatus {
  if (d.holiday) return "holiday";
  if (d.weeklyOff) return "weekly_off";
  if (d.onLeave) return "on_leave";
  if (d.wfh) return "wfh";
  return d.date >= d.today ? "not_marked" : "absent";
}
