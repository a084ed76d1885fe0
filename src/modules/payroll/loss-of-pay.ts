// Loss of pay of an employee's month: unpaid leave and absences on working days.
import { addDays, type DateString } from "../../lib/dates.ts";
import type { Decimal } from "../../lib/money.ts";
import { ZERO } from "./figures.ts";

export interface LeaveSpan {
  from: DateString;
  to: DateString;
  half_day_start: boolean;
  half_day_end: boolean;
  days: string;
  is_paid: boolean;
}

/**
 * LOP days of an employee within [from, to] (the employment range of the month): unpaid leave
 * (the request's own day count when it lies wholly inside, else its working days inside the
 * range), plus absent (1) and half-day (0.5) attendance on working days not covered by leave.
 */
export function lossOfPay(
  from: DateString,
  to: DateString,
  leave: LeaveSpan[],
  attendance: { date: DateString; status: string }[],
  isOff: (d: DateString) => boolean,
): { leave: Decimal; absent: Decimal } {
  let leaveDays = ZERO;
  const covered = new Set<DateString>();
  for (const l of leave) {
    const a = l.from > from ? l.from : from;
    const b = l.to < to ? l.to : to;
    if (a > b) continue;
    for (let d = a; d <= b; d = addDays(d, 1)) covered.add(d);
    if (l.is_paid) continue;
    if (l.from >= from && l.to <= to) {
      leaveDays = leaveDays.plus(l.days);
      continue;
    }
    for (let d = a; d <= b; d = addDays(d, 1)) {
      if (isOff(d)) continue;
      const half = (d === l.from && l.half_day_start) || (d === l.to && l.half_day_end);
      leaveDays = leaveDays.plus(half ? "0.5" : 1);
    }
  }
  let absent = ZERO;
  for (const r of attendance) {
    if (r.date < from || r.date > to || covered.has(r.date) || isOff(r.date)) continue;
    if (r.status === "absent") absent = absent.plus(1);
    else if (r.status === "half_day") absent = absent.plus("0.5");
  }
  return { leave: leaveDays, absent };
}
