// The attendance area's rows as API JSON (records, regularization requests, settings).
import type { components } from "../../../generated/api-types.ts";
import type { AttendanceRecord, Prisma } from "../../../generated/prisma/client.ts";
import { toDateString } from "../../lib/dates.ts";
import { Decimal } from "../../lib/money.ts";
import type { employeeName } from "../leave/index.ts";
import { fullName } from "../shared/people.ts";
import type { EffectiveAttendanceSettings } from "../shared/work-settings.ts";

export type S = components["schemas"];
export const iso = (d: Date | null) => (d ? d.toISOString() : null);
export const hours = (v: { toString(): string } | null) => (v === null ? null : new Decimal(v.toString()).toFixed(2));

export type RecordRow = AttendanceRecord;
export type RegularizationRow = Prisma.AttendanceRegularizationGetPayload<{ include: typeof employeeName }>;

export function recordJson(r: RecordRow): S["AttendanceRecord"] {
  return {
    id: r.id,
    employee_id: r.employee_id,
    date: toDateString(r.date),
    check_in: iso(r.check_in),
    check_out: iso(r.check_out),
    worked_hours: hours(r.worked_hours),
    status: r.status as S["AttendanceStatus"],
    late: r.late,
    early_exit: r.early_exit,
    source: r.source as S["AttendanceRecord"]["source"],
    notes: r.notes,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

export function settingsJson(s: EffectiveAttendanceSettings): S["AttendanceSettings"] {
  return {
    weekly_offs: s.weekly_offs,
    weekly_offs_source: s.weekly_offs_source,
    shift_start: s.shift_start,
    shift_end: s.shift_end,
    grace_minutes: s.grace_minutes,
    half_day_threshold_hours: s.half_day_threshold_hours.toFixed(2),
    updated_at: iso(s.updated_at),
  };
}

export function regularizationJson(r: RegularizationRow): S["AttendanceRegularization"] {
  return {
    id: r.id,
    employee_id: r.employee_id,
    employee_name: fullName(r.employee),
    date: toDateString(r.date),
    check_in: r.check_in.toISOString(),
    check_out: iso(r.check_out),
    reason: r.reason,
    status: r.status as S["RequestStatus"],
    previous: (r.previous ?? null) as S["AttendanceRegularization"]["previous"],
    requested_by: r.requested_by,
    decided_by: r.decided_by,
    decided_at: iso(r.decided_at),
    decision_comment: r.decision_comment,
    cancelled_by: r.cancelled_by,
    cancelled_at: iso(r.cancelled_at),
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}
