// Attendance settings of the tenant (one optional row; defaults otherwise). Weekly offs follow the
// company settings unless set here; they are what leave day counts and attendance use.
import { currentTenantId, db } from "../../db/tenancy.ts";
import { todayIn, type DateString } from "../../lib/dates.ts";
import { Decimal } from "../../lib/money.ts";

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

type Client = Pick<typeof db, "tenant" | "attendanceSettings">;

export async function loadAttendanceSettings(client: Client = db): Promise<EffectiveAttendanceSettings> {
  const [tenant, row] = await Promise.all([
    client.tenant.findUniqueOrThrow({ where: { id: currentTenantId() }, select: { weekly_offs: true, timezone: true } }),
    client.attendanceSettings.findFirst({}),
  ]);
  const own = row && !row.use_company_weekly_offs;
  return {
    weekly_offs: [...(own ? row.weekly_offs : tenant.weekly_offs)].sort(),
    weekly_offs_source: own ? "attendance" : "company",
    shift_start: row?.shift_start ?? DEFAULT_SETTINGS.shift_start,
    shift_end: row?.shift_end ?? DEFAULT_SETTINGS.shift_end,
    grace_minutes: row?.grace_minutes ?? DEFAULT_SETTINGS.grace_minutes,
    half_day_threshold_hours: new Decimal((row?.half_day_threshold_hours ?? DEFAULT_SETTINGS.half_day_threshold_hours).toString()),
    updated_at: row?.updated_at ?? null,
    timezone: tenant.timezone,
  };
}

/** Today in the tenant's time zone. */
export function tenantToday(s: { timezone: string }): DateString {
  return todayIn(s.timezone);
}
