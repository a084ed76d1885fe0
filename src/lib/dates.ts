// Calendar dates are `YYYY-MM-DD` strings in the API and PostgreSQL DATE columns in the
// database (Prisma returns them as Date at UTC midnight). All date arithmetic here is in UTC
// on whole days, so no time zone can shift a date.
import * as clock from "./clock.ts";

export type DateString = string;

/** `YYYY-MM-DD` of a Date (UTC) - for values read from DATE columns. */
export function toDateString(d: Date): DateString {
  return d.toISOString().slice(0, 10);
}
export function toDateStringOrNull(d: Date | null | undefined): DateString | null {
  return d ? toDateString(d) : null;
}

/** Date at UTC midnight from `YYYY-MM-DD` - for writing DATE columns. */
export function parseDate(s: DateString): Date {
  return new Date(`${s}T00:00:00.000Z`);
}

export function addDays(s: DateString, n: number): DateString {
  const d = parseDate(s);
  d.setUTCDate(d.getUTCDate() + n);
  return toDateString(d);
}

/** Whole days from a to b (b - a). */
export function daysBetween(a: DateString, b: DateString): number {
  return Math.round((parseDate(b).getTime() - parseDate(a).getTime()) / 86_400_000);
}

/** 0 = Sunday … 6 = Saturday. */
export function weekday(s: DateString): number {
  return parseDate(s).getUTCDay();
}

/** Today's date in an IANA time zone (the tenant's). */
export function todayIn(timeZone = "UTC", now = clock.now()): DateString {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(now);
}

export function* eachDay(from: DateString, to: DateString): Generator<DateString> {
  for (let d = from; d <= to; d = addDays(d, 1)) yield d;
}
