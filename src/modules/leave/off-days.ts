// The days an employee does not work: the company's weekly offs and the holidays that apply to
// their branch and work location (optional holidays are not days off). Leave, work from home and
// working-on-holiday claims count days against this calendar.
import type { db, ScopedTx } from "../../db/tenancy.ts";
import { addDays, type DateString, parseDate, toDateString, weekday } from "../../lib/dates.ts";
import { loadAttendanceSettings } from "../shared/work-settings.ts";
import type { IsOff } from "./workdays.ts";

type Client = ScopedTx | typeof db;

export interface HolidayRow {
  date: DateString;
  name: string;
  branch_id: string | null;
  work_location_id: string | null;
}

export async function holidaysBetween(c: Client, from: DateString, to: DateString): Promise<HolidayRow[]> {
  const rows = await c.holiday.findMany({
    where: { date: { gte: parseDate(from), lte: parseDate(to) }, is_optional: false },
    select: { date: true, name: true, branch_id: true, work_location_id: true },
    orderBy: { date: "asc" },
  });
  return rows.map((r) => ({ ...r, date: toDateString(r.date) }));
}

export function holidayApplies(h: HolidayRow, e: { branch_id: string | null; work_location_id: string | null }): boolean {
  return (
    (h.branch_id === null || h.branch_id === e.branch_id) && (h.work_location_id === null || h.work_location_id === e.work_location_id)
  );
}

export interface OffCalendar {
  isOff: IsOff;
  holidayName: (d: DateString) => string | null;
  weeklyOffs: number[];
}

export function offCalendar(
  weeklyOffs: number[],
  holidays: HolidayRow[],
  e: { branch_id: string | null; work_location_id: string | null },
): OffCalendar {
  const names = new Map<DateString, string>();
  for (const h of holidays) if (holidayApplies(h, e) && !names.has(h.date)) names.set(h.date, h.name);
  const offs = new Set(weeklyOffs);
  return { isOff: (d) => offs.has(weekday(d)) || names.has(d), holidayName: (d) => names.get(d) ?? null, weeklyOffs };
}

/** Off days of one employee around [from, to] (a margin of 40 days each side for sandwich bridges). */
export async function employeeCalendar(
  c: Client,
  e: { branch_id: string | null; work_location_id: string | null },
  from: DateString,
  to: DateString,
): Promise<OffCalendar> {
  // one after the other: `c` may be a transaction, which runs one query at a time
  const settings = await loadAttendanceSettings(c);
  const holidays = await holidaysBetween(c, addDays(from, -40), addDays(to, 40));
  return offCalendar(settings.weekly_offs, holidays, e);
}
