// The attendance settings: shift, grace, half-day threshold and weekly offs (the company's unless
// set here). Read through src/modules/shared/work-settings.ts, which leave and payroll use too.
import { audit } from "../../platform/audit.ts";
import { advisoryLock } from "../../db/sql.ts";
import { currentTenantId, tenantTx } from "../../db/tenancy.ts";
import { invalidField } from "../../platform/errors.ts";
import type { RequestBody } from "../../platform/use-case.ts";
import { Decimal } from "../../lib/money.ts";
import { loadAttendanceSettings } from "../shared/work-settings.ts";
import { type S, settingsJson } from "./json.ts";
import { toMinutes } from "./rules.ts";

/** The effective settings (defaults where none are set). */
export async function attendanceSettings(): Promise<S["AttendanceSettings"]> {
  return settingsJson(await loadAttendanceSettings());
}

/** Changes the settings (the shift ends after it starts, the half-day threshold fits in it); audits what changed. */
export async function changeAttendanceSettings(input: RequestBody<"updateAttendanceSettings">): Promise<S["AttendanceSettings"]> {
  const after = await tenantTx(async (tx) => {
    await advisoryLock(tx, "attendance-settings");
    const before = await loadAttendanceSettings(tx);
    const start = input.shift_start ?? before.shift_start;
    const end = input.shift_end ?? before.shift_end;
    const threshold = new Decimal(input.half_day_threshold_hours ?? before.half_day_threshold_hours);
    if (toMinutes(end) <= toMinutes(start)) throw invalidField("body.shift_end", "must be after shift_start (on the same day)");
    if (threshold.times(60).gt(toMinutes(end) - toMinutes(start)))
      throw invalidField("body.half_day_threshold_hours", "must not exceed the length of the shift");
    const offs =
      input.weekly_offs === undefined
        ? {}
        : input.weekly_offs === null
          ? { use_company_weekly_offs: true, weekly_offs: [] }
          : { use_company_weekly_offs: false, weekly_offs: [...input.weekly_offs].sort() };
    const data = {
      shift_start: start,
      shift_end: end,
      grace_minutes: input.grace_minutes ?? before.grace_minutes,
      half_day_threshold_hours: threshold.toString(),
      ...offs,
    };
    await tx.attendanceSettings.upsert({ where: { tenant_id: currentTenantId() }, create: data, update: data });
    const fresh = await loadAttendanceSettings(tx);
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    const a = settingsJson(before);
    const b = settingsJson(fresh);
    for (const k of ["weekly_offs", "weekly_offs_source", "shift_start", "shift_end", "grace_minutes", "half_day_threshold_hours"] as const)
      if (JSON.stringify(a[k]) !== JSON.stringify(b[k])) changes[k] = { from: a[k], to: b[k] };
    if (Object.keys(changes).length)
      await audit({ action: "settings.attendance_updated", entity_type: "tenant", entity_id: currentTenantId(), changes }, tx);
    return fresh;
  });
  return settingsJson(after);
}
