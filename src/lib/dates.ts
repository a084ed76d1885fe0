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

// one formatter per time zone: building an Intl.DateTimeFormat costs far more than formatting with it
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** Today's date in an IANA time zone (the tenant's). */
export function todayIn(timeZone = "UTC", now = clock.now()): DateString {
  let f = dayFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    dayFormats.set(timeZone, f);
  }
  return f.format(now);
}

type WallClock = Record<"year" | "month" | "day" | "hour" | "minute" | "second", string>;
const wallClocks = new Map<string, Intl.DateTimeFormat>();

/** What a clock on the wall in `timeZone` reads at `instant` (year of four digits, the rest two, hours 00-23). */
export function wallClockIn(instant: Date, timeZone: string): WallClock {
  let f = wallClocks.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-GB", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    wallClocks.set(timeZone, f);
  }
  return Object.fromEntries(
    f
      .formatToParts(instant)
      .filter((p) => p.type !== "literal")
      .map((p) => [p.type, p.value]),
  ) as WallClock;
}

/** The UTC instant at which `date` (YYYY-MM-DD) begins in the IANA time zone `timeZone`. */
export function startOfDayIn(date: DateString, timeZone: string): Date {
  const guess = new Date(`${date}T00:00:00.000Z`);
  const offsetAt = (instant: Date) => {
    const w = wallClockIn(instant, timeZone);
    return Date.UTC(+w.year, +w.month - 1, +w.day, +w.hour, +w.minute, +w.second) - instant.getTime();
  };
  const first = new Date(guess.getTime() - offsetAt(guess));
  return new Date(guess.getTime() - offsetAt(first));
}

/**
 * The instants of the days `from`..`to` (inclusive, either open) in `timeZone`: a filter of
 * timestamps by the company's calendar dates, as an HR user reads them (not UTC days).
 */
export function instantsOfDays(from: DateString | undefined, to: DateString | undefined, timeZone: string): { gte?: Date; lt?: Date } {
  return {
    ...(from ? { gte: startOfDayIn(from, timeZone) } : {}),
    ...(to ? { lt: startOfDayIn(addDays(to, 1), timeZone) } : {}),
  };
}

export function* eachDay(from: DateString, to: DateString): Generator<DateString> {
  for (let d = from; d <= to; d = addDays(d, 1)) yield d;
}
