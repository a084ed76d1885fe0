// Calendar arithmetic of payroll: a month's days and bounds, ESI contribution periods, ages.
import type { DateString } from "../../lib/dates.ts";

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function monthBounds(year: number, month: number): { start: DateString; end: DateString } {
  const mm = String(month).padStart(2, "0");
  return { start: `${year}-${mm}-01`, end: `${year}-${mm}-${String(daysInMonth(year, month)).padStart(2, "0")}` };
}

/** First month (1-12, year) of the ESI contribution period containing the month. */
export function esiContributionStart(year: number, month: number): { year: number; month: number } {
  if (month >= 4 && month <= 9) return { year, month: 4 };
  if (month >= 10) return { year, month: 10 };
  return { year: year - 1, month: 10 };
}

/** Age in whole years on a date. */
export function ageOn(dateOfBirth: DateString, on: DateString): number {
  const [by, bm, bd] = dateOfBirth.split("-").map(Number);
  const [y, m, d] = on.split("-").map(Number);
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}

/** The first day the ESI contribution period containing the month covers for the employee: its start, or the joining date. */
export function esiPeriodAnchor(year: number, month: number, joining: DateString): DateString {
  const s = esiContributionStart(year, month);
  const start = monthBounds(s.year, s.month).start;
  return joining > start ? joining : start;
}
