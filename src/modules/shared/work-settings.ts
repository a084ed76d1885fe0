// The tenant's working-time settings (the attendance settings row, defaults otherwise) and its
// "today": read by attendance, leave and payroll, so they live here, outside any area. Weekly offs follow the
// company settings unless set here; they are what leave day counts and attendance use.
import { db, type ScopedTx } from "../../db/tenancy.ts";
import { type DateString, todayIn } from "../../lib/dates.ts";
import { Decimal } from "../../lib/money.ts";
import { companyWorkWeek } from "./queries.ts";
import * as clock from "../../lib/clock.ts";

export interface EffectiveAttendanceSettings {
  weekly_offs: number[];
  weekly_offs_source: "company" | "attendance";
  shift_start: string;
  shift_end: string;
  grace_minutes: number;
  half_day_threshold_hours: Decimal;
  updated_at: Date | null;
  timezone: string;
}

export const DEFAULT_SETTINGS = { shift_start: "09:00", shift_end: "18:00", grace_minutes: 15, half_day_threshold_hours: "4" };

type Client = Pick<ScopedTx, "$queryRaw" | "$executeRaw" | "attendanceSettings">;

/** The effective settings (company weekly offs and time zone included), on the caller's transaction when given. */
export async function loadAttendanceSettings(client: Client = db): Promise<EffectiveAttendanceSettings> {
  const settings = () =>
    client.attendanceSettings.findFirst({
      select: {
        use_company_weekly_offs: true,
        weekly_offs: true,
        shift_start: true,
        shift_end: true,
        grace_minutes: true,
        half_day_threshold_hours: true,
        updated_at: true,
      },
    });
  // at once on the pool; in turn on a transaction, whose one connection runs one query at a time
  const [company, s] =
    client === db ? await Promise.all([companyWorkWeek(client), settings()]) : [await companyWorkWeek(client), await settings()];
  const r = {
    company_weekly_offs: company.weekly_offs,
    timezone: company.timezone,
    use_company_weekly_offs: s?.use_company_weekly_offs ?? null,
    weekly_offs: s?.weekly_offs ?? null,
    shift_start: s?.shift_start ?? null,
    shift_end: s?.shift_end ?? null,
    grace_minutes: s?.grace_minutes ?? null,
    half_day_threshold_hours: s ? s.half_day_threshold_hours.toString() : null,
    updated_at: s?.updated_at ?? null,
  };
  const own = r.use_company_weekly_offs === false;
  return {
    weekly_offs: effectiveWeeklyOffs(r.company_weekly_offs, r),
    weekly_offs_source: own ? "attendance" : "company",
    shift_start: r.shift_start ?? DEFAULT_SETTINGS.shift_start,
    shift_end: r.shift_end ?? DEFAULT_SETTINGS.shift_end,
    grace_minutes: r.grace_minutes ?? DEFAULT_SETTINGS.grace_minutes,
    half_day_threshold_hours: new Decimal(r.half_day_threshold_hours ?? DEFAULT_SETTINGS.half_day_threshold_hours),
    updated_at: r.updated_at ? new Date(r.updated_at) : null,
    timezone: r.timezone,
  };
}

/** The weekly offs in force: the attendance settings' own when they say so, else the company's (sorted). */
export function effectiveWeeklyOffs(
  company: readonly number[],
  attendance: { use_company_weekly_offs: boolean | null; weekly_offs: readonly number[] | null },
): number[] {
  return [...(attendance.use_company_weekly_offs === false ? attendance.weekly_offs! : company)].sort();
}

/** Today in the tenant's time zone. */
export function tenantToday(s: { timezone: string }, now = clock.now()): DateString {
  return todayIn(s.timezone, now);
}
