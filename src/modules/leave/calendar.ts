// Calendar arithmetic on `YYYY-MM-DD` strings (UTC, whole days), beyond src/lib/dates.ts.
import { addDays, type DateString, parseDate, toDateString } from "../../lib/dates.ts";

export function maxDate(a: DateString, b: DateString): DateString {
  return a > b ? a : b;
}
export function minDate(a: DateString, b: DateString): DateString {
  return a < b ? a : b;
}

export function daysInMonth(year: number, month1: number): number {
  return new Date(Date.UTC(year, month1, 0)).getUTCDate();
}

/** `s` plus n calendar months; the day is clamped to the length of the target month (31 Jan + 1 → 28/29 Feb). */
export function addMonths(s: DateString, n: number, day?: number): DateString {
  const d = parseDate(s);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() + n;
  const ty = y + Math.floor(m / 12);
  const tm = ((m % 12) + 12) % 12;
  const dd = Math.min(day ?? d.getUTCDate(), daysInMonth(ty, tm + 1));
  return toDateString(new Date(Date.UTC(ty, tm, dd)));
}

/** First and last day of a month. */
export function monthRange(year: number, month1: number): { from: DateString; to: DateString } {
  const from = toDateString(new Date(Date.UTC(year, month1 - 1, 1)));
  return { from, to: toDateString(new Date(Date.UTC(year, month1 - 1, daysInMonth(year, month1)))) };
}

/** Whether two inclusive ranges share at least one day. */
export function overlaps(aFrom: DateString, aTo: DateString, bFrom: DateString, bTo: DateString): boolean {
  return aFrom <= bTo && bFrom <= aTo;
}

export { addDays };
