// Rows → documented JSON shapes of the leave area.
import type { components } from "../../../generated/api-types.ts";
import { toDateString, toDateStringOrNull } from "../../lib/dates.ts";
import { moneyStringOrNull } from "../../lib/money.ts";
import { fullName } from "../shared/people.ts";
import { dayString, dayStringOrNull, type DayValue } from "./days.ts";

type S = components["schemas"];

/** A page of a list: its rows (JSON-ready), the page asked for and the total count (the one shape, src/platform/use-case.ts). */
export type { PageListing as Listing } from "../../platform/use-case.ts";
type Dec = DayValue;
const iso = (d: Date) => d.toISOString();
const isoOrNull = (d: Date | null) => (d ? d.toISOString() : null);
type Status = S["RequestStatus"];
type Accrual = "upfront" | "monthly" | "quarterly";
type AccrualDay = "first_day" | "joining_date";

export function leaveTypeJson(t: {
  id: string;
  name: string;
  code: string;
  description: string | null;
  is_paid: boolean;
  allow_half_day: boolean;
  max_consecutive_days: number | null;
  min_notice_days: number;
  attachment_required_above_days: number | null;
  allow_negative_balance: boolean;
  negative_balance_limit: Dec;
  carry_forward: boolean;
  carry_forward_max_days: Dec | null;
  carry_forward_expiry_days: number | null;
  encash_carry_forward_excess: boolean;
  encashable: boolean;
  encashment_max_days: Dec | null;
  encashment_min_balance: Dec | null;
  is_compensatory: boolean;
  comp_off_validity_days: number | null;
  applicable_genders: string[];
  applicable_employment_types: string[];
  sandwich_rule: boolean;
  active: boolean;
  created_at: Date;
  updated_at: Date;
}): S["LeaveType"] {
  return {
    id: t.id,
    name: t.name,
    code: t.code,
    description: t.description,
    is_paid: t.is_paid,
    allow_half_day: t.allow_half_day,
    max_consecutive_days: t.max_consecutive_days,
    min_notice_days: t.min_notice_days,
    attachment_required_above_days: t.attachment_required_above_days,
    allow_negative_balance: t.allow_negative_balance,
    negative_balance_limit: dayString(t.negative_balance_limit),
    carry_forward: t.carry_forward,
    carry_forward_max_days: dayStringOrNull(t.carry_forward_max_days),
    carry_forward_expiry_days: t.carry_forward_expiry_days,
    encash_carry_forward_excess: t.encash_carry_forward_excess,
    encashable: t.encashable,
    encashment_max_days: dayStringOrNull(t.encashment_max_days),
    encashment_min_balance: dayStringOrNull(t.encashment_min_balance),
    is_compensatory: t.is_compensatory,
    comp_off_validity_days: t.comp_off_validity_days,
    // written only from the enums (and the closed-sets migration normalised older rows)
    applicable_genders: t.applicable_genders as S["Gender"][],
    applicable_employment_types: t.applicable_employment_types as S["EmploymentType"][],
    sandwich_rule: t.sandwich_rule,
    active: t.active,
    created_at: iso(t.created_at),
    updated_at: iso(t.updated_at),
  };
}

export function periodJson(p: {
  id: string;
  name: string;
  start_date: Date;
  end_date: Date;
  is_current: boolean;
  created_at: Date;
  updated_at: Date;
}): S["LeavePeriod"] {
  return {
    id: p.id,
    name: p.name,
    start_date: toDateString(p.start_date),
    end_date: toDateString(p.end_date),
    is_current: p.is_current,
    created_at: iso(p.created_at),
    updated_at: iso(p.updated_at),
  };
}

export function policyJson(p: {
  id: string;
  name: string;
  description: string | null;
  assignment: string;
  departments: string[];
  designations: string[];
  active: boolean;
  created_at: Date;
  updated_at: Date;
  items: { leave_type_id: string; annual_quota: Dec; accrual: string; accrual_day: string; leave_type: { code: string } }[];
  employees: { employee_id: string }[];
}): S["LeavePolicy"] {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    assignment: p.assignment as S["LeavePolicy"]["assignment"],
    departments: p.departments,
    designations: p.designations,
    employee_ids: p.employees.map((e) => e.employee_id).sort(),
    items: p.items
      .map((i) => ({
        leave_type_id: i.leave_type_id,
        leave_type_code: i.leave_type.code,
        annual_quota: dayString(i.annual_quota),
        accrual: i.accrual as Accrual,
        accrual_day: i.accrual_day as AccrualDay,
      }))
      .sort((a, b) => a.leave_type_code.localeCompare(b.leave_type_code)),
    active: p.active,
    created_at: iso(p.created_at),
    updated_at: iso(p.updated_at),
  };
}

export function allocationJson(
  a: {
    id: string;
    employee_id: string;
    leave_type_id: string;
    period_id: string;
    policy_id: string | null;
    days: Dec;
    accrual: string;
    accrual_day: string;
    effective_from: Date;
    carried_forward: Dec;
    carry_forward_expires_on: Date | null;
    notes: string | null;
    created_at: Date;
    employee: { first_name: string; last_name: string };
    leave_type: { code: string };
  },
  credited: Dec,
): S["LeaveAllocation"] {
  return {
    id: a.id,
    employee_id: a.employee_id,
    employee_name: fullName(a.employee),
    leave_type_id: a.leave_type_id,
    leave_type_code: a.leave_type.code,
    period_id: a.period_id,
    policy_id: a.policy_id,
    days: dayString(a.days),
    credited: dayString(credited),
    accrual: a.accrual as Accrual,
    accrual_day: a.accrual_day as AccrualDay,
    effective_from: toDateString(a.effective_from),
    carried_forward: dayString(a.carried_forward),
    carry_forward_expires_on: toDateStringOrNull(a.carry_forward_expires_on),
    notes: a.notes,
    created_at: iso(a.created_at),
  };
}

export function ledgerJson(e: {
  id: string;
  employee_id: string;
  leave_type_id: string;
  period_id: string;
  entry_type: string;
  days: Dec;
  effective_date: Date;
  expires_on: Date | null;
  reference_type: string | null;
  reference_id: string | null;
  reason: string | null;
  created_by: string | null;
  created_at: Date;
}): S["LeaveLedgerEntry"] {
  return {
    id: e.id,
    employee_id: e.employee_id,
    leave_type_id: e.leave_type_id,
    period_id: e.period_id,
    entry_type: e.entry_type as S["LeaveLedgerEntry"]["entry_type"],
    days: dayString(e.days),
    effective_date: toDateString(e.effective_date),
    expires_on: toDateStringOrNull(e.expires_on),
    reference_type: e.reference_type as S["LeaveLedgerEntry"]["reference_type"], // written only through NewEntry (typed)
    reference_id: e.reference_id,
    reason: e.reason,
    created_by: e.created_by,
    created_at: iso(e.created_at),
  };
}

interface Decided {
  status: string;
  requested_by: string | null;
  decided_by: string | null;
  decided_at: Date | null;
  decision_comment: string | null;
  cancelled_by: string | null;
  cancelled_at: Date | null;
  created_at: Date;
  updated_at: Date;
}
function workflow(r: Decided) {
  return {
    status: r.status as Status,
    requested_by: r.requested_by,
    decided_by: r.decided_by,
    decided_at: isoOrNull(r.decided_at),
    decision_comment: r.decision_comment,
    cancelled_by: r.cancelled_by,
    cancelled_at: isoOrNull(r.cancelled_at),
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}

type WithNames = { employee: { first_name: string; last_name: string } };

export function leaveRequestJson(
  r: Decided &
    WithNames & {
      id: string;
      employee_id: string;
      leave_type_id: string;
      period_id: string;
      from_date: Date;
      to_date: Date;
      half_day_start: boolean;
      half_day_end: boolean;
      days: Dec;
      reason: string | null;
      attachment_file_id: string | null;
      leave_type: { name: string };
    },
): S["LeaveRequest"] {
  return {
    id: r.id,
    employee_id: r.employee_id,
    employee_name: fullName(r.employee),
    leave_type_id: r.leave_type_id,
    leave_type_name: r.leave_type.name,
    period_id: r.period_id,
    from_date: toDateString(r.from_date),
    to_date: toDateString(r.to_date),
    half_day_start: r.half_day_start,
    half_day_end: r.half_day_end,
    days: dayString(r.days),
    reason: r.reason,
    attachment_file_id: r.attachment_file_id,
    ...workflow(r),
  };
}

export function encashmentJson(
  r: Decided &
    WithNames & {
      id: string;
      employee_id: string;
      leave_type_id: string;
      period_id: string;
      days: Dec;
      amount: Dec | null;
      reason: string | null;
      leave_type: { name: string };
    },
): S["LeaveEncashment"] {
  return {
    id: r.id,
    employee_id: r.employee_id,
    employee_name: fullName(r.employee),
    leave_type_id: r.leave_type_id,
    leave_type_name: r.leave_type.name,
    period_id: r.period_id,
    days: dayString(r.days),
    amount: moneyStringOrNull(r.amount),
    reason: r.reason,
    ...workflow(r),
  };
}

export function holidayJson(h: {
  id: string;
  date: Date;
  name: string;
  description: string | null;
  is_optional: boolean;
  branch_id: string | null;
  work_location_id: string | null;
  created_at: Date;
  updated_at: Date;
}): S["Holiday"] {
  return {
    id: h.id,
    date: toDateString(h.date),
    name: h.name,
    description: h.description,
    is_optional: h.is_optional,
    branch_id: h.branch_id,
    work_location_id: h.work_location_id,
    created_at: iso(h.created_at),
    updated_at: iso(h.updated_at),
  };
}

export function wfhJson(
  r: Decided & WithNames & { id: string; employee_id: string; from_date: Date; to_date: Date; days: Dec; reason: string | null },
): S["WfhRequest"] {
  return {
    id: r.id,
    employee_id: r.employee_id,
    employee_name: fullName(r.employee),
    from_date: toDateString(r.from_date),
    to_date: toDateString(r.to_date),
    days: dayString(r.days),
    reason: r.reason,
    ...workflow(r),
  };
}

export function holidayWorkJson(
  r: Decided &
    WithNames & {
      id: string;
      employee_id: string;
      date: Date;
      half_day: boolean;
      reason: string | null;
      leave_type_id: string | null;
      comp_off_days: Dec | null;
      comp_off_expires_on: Date | null;
    },
): S["WorkingOnHolidayRequest"] {
  return {
    id: r.id,
    employee_id: r.employee_id,
    employee_name: fullName(r.employee),
    date: toDateString(r.date),
    half_day: r.half_day,
    reason: r.reason,
    leave_type_id: r.leave_type_id,
    comp_off_days: dayStringOrNull(r.comp_off_days),
    comp_off_expires_on: toDateStringOrNull(r.comp_off_expires_on),
    ...workflow(r),
  };
}

export const employeeName = { employee: { select: { first_name: true, last_name: true } } } as const;
