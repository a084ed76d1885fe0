// Entitlements: proration for employees joining during a period, and the accrual schedule of
// monthly/quarterly types. Pure functions; the ledger postings live in allocations.ts / jobs.ts.
import { daysBetween, type DateString } from "../../lib/dates.ts";
import { addDays, addMonths, maxDate, minDate } from "./calendar.ts";
import { Decimal, type DayValue, days, roundHalf } from "./days.ts";

export type AccrualMode = "upfront" | "monthly" | "quarterly";
export type AccrualDay = "first_day" | "joining_date";

/** The day an entitlement starts: the later of the period start and the joining date. */
export function effectiveFrom(periodStart: DateString, joiningDate: DateString): DateString {
  return maxDate(periodStart, joiningDate);
}

/** quota × (days from the effective start to the period end) ÷ (days in the period), to the nearest 0.5. */
export function prorate(quota: DayValue, periodStart: DateString, periodEnd: DateString, joiningDate: DateString): Decimal {
  const start = effectiveFrom(periodStart, joiningDate);
  if (start > periodEnd) return new Decimal(0);
  const total = daysBetween(periodStart, periodEnd) + 1;
  const remaining = daysBetween(start, periodEnd) + 1;
  if (remaining >= total) return days(quota);
  return roundHalf(days(quota).times(remaining).div(total));
}

export interface ScheduleInput {
  mode: AccrualMode;
  accrualDay: AccrualDay;
  periodStart: DateString;
  periodEnd: DateString;
  joiningDate: DateString;
  /** Entitlement for the period (already prorated). */
  entitlement: DayValue;
}

export interface Accrual {
  /** Index of the month/quarter in the period: stable, so postings can be made idempotent. */
  seq: number;
  date: DateString;
  days: Decimal;
}

/**
 * `upfront`: all on the effective start; else one part per interval present in, at its first day or the
 * joining day (never before the effective start). After k of N parts the total is round-to-0.5(entitlement
 * × k / N): every balance a multiple of 0.5, the parts adding up exactly.
 */
export function accrualSchedule(i: ScheduleInput): Accrual[] {
  const start = effectiveFrom(i.periodStart, i.joiningDate);
  const entitlement = days(i.entitlement);
  if (start > i.periodEnd) return [];
  if (i.mode === "upfront") return entitlement.gt(0) ? [{ seq: 0, date: start, days: entitlement }] : [];
  const step = i.mode === "monthly" ? 1 : 3;
  const joinDay = Number(i.joiningDate.slice(8, 10));
  const intervals: { seq: number; start: DateString; end: DateString }[] = [];
  for (let seq = 0; ; seq++) {
    const s = addMonths(i.periodStart, seq * step);
    if (s > i.periodEnd) break;
    const e = minDate(addDays(addMonths(i.periodStart, (seq + 1) * step), -1), i.periodEnd);
    if (e >= start) intervals.push({ seq, start: s, end: e });
  }
  const n = intervals.length;
  const out: Accrual[] = [];
  let credited = new Decimal(0);
  intervals.forEach((iv, k) => {
    const cumulative = roundHalf(entitlement.times(k + 1).div(n));
    const part = cumulative.minus(credited);
    credited = cumulative;
    let date = iv.start;
    if (i.accrualDay === "joining_date") date = maxDate(addMonths(iv.start, 0, joinDay), iv.start);
    date = minDate(maxDate(date, start), iv.end);
    if (part.gt(0)) out.push({ seq: iv.seq, date, days: part });
  });
  return out;
}
