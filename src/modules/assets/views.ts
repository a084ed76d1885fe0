// Assets: the JSON shapes of the document (snake_case, dates as YYYY-MM-DD, money as strings),
// and the Prisma includes that load what they need.
import type { Prisma } from "../../../generated/prisma/client.ts";
import { toDateString, toDateStringOrNull } from "../../lib/dates.ts";
import { moneyStringOrNull } from "../../lib/money.ts";
import {
  employeeName,
  userNames,
  type AssetCondition,
  type AssetStatus,
  type DamageSeverity,
  type DamageStatus,
  type ReturnRequestStatus,
} from "./common.ts";

export const categoryInclude = { _count: { select: { assets: { where: { deleted_at: null } } } } } satisfies Prisma.AssetCategoryInclude;
type CategoryRow = Prisma.AssetCategoryGetPayload<{ include: typeof categoryInclude }>;

export function categoryJson(c: CategoryRow) {
  return {
    id: c.id,
    name: c.name,
    description: c.description,
    asset_count: c._count.assets,
    created_at: c.created_at.toISOString(),
    updated_at: c.updated_at.toISOString(),
  };
}

export const assetInclude = {
  category: { select: { name: true } },
  assignments: {
    where: { returned_on: null },
    include: { employee: { select: { employee_code: true, first_name: true, last_name: true } } },
  },
  _count: { select: { damage_reports: { where: { status: "open" } } } },
} satisfies Prisma.AssetInclude;
type AssetRow = Prisma.AssetGetPayload<{ include: typeof assetInclude }>;

export function assetJson(a: AssetRow) {
  const active = a.assignments[0];
  return {
    id: a.id,
    asset_tag: a.asset_tag,
    name: a.name,
    category_id: a.category_id,
    category_name: a.category.name,
    serial_number: a.serial_number,
    purchase_date: toDateStringOrNull(a.purchase_date),
    purchase_cost: moneyStringOrNull(a.purchase_cost),
    warranty_expires_on: toDateStringOrNull(a.warranty_expires_on),
    condition: a.condition as AssetCondition,
    status: a.status as AssetStatus,
    notes: a.notes,
    current_holder: active
      ? {
          assignment_id: active.id,
          employee_id: active.employee_id,
          employee_code: active.employee.employee_code,
          employee_name: employeeName(active.employee),
          assigned_on: toDateString(active.assigned_on),
          expected_return_on: toDateStringOrNull(active.expected_return_on),
        }
      : null,
    open_damage_reports: a._count.damage_reports,
    created_at: a.created_at.toISOString(),
    updated_at: a.updated_at.toISOString(),
  };
}

export const assignmentInclude = {
  asset: { select: { asset_tag: true, name: true, serial_number: true, category: { select: { name: true } } } },
  employee: { select: { employee_code: true, first_name: true, last_name: true } },
} satisfies Prisma.AssetAssignmentInclude;
type AssignmentRow = Prisma.AssetAssignmentGetPayload<{ include: typeof assignmentInclude }>;

export function assignmentJson(x: AssignmentRow) {
  return {
    id: x.id,
    asset_id: x.asset_id,
    asset_tag: x.asset.asset_tag,
    asset_name: x.asset.name,
    serial_number: x.asset.serial_number,
    category_name: x.asset.category.name,
    employee_id: x.employee_id,
    employee_code: x.employee.employee_code,
    employee_name: employeeName(x.employee),
    assigned_on: toDateString(x.assigned_on),
    expected_return_on: toDateStringOrNull(x.expected_return_on),
    condition_at_assignment: x.condition_at_assignment as AssetCondition,
    notes: x.notes,
    assigned_by_user_id: x.assigned_by,
    active: x.returned_on === null,
    returned_on: toDateStringOrNull(x.returned_on),
    return_condition: (x.return_condition as AssetCondition | null) ?? null,
    return_notes: x.return_notes,
    created_at: x.created_at.toISOString(),
    updated_at: x.updated_at.toISOString(),
  };
}

export const returnRequestInclude = {
  assignment: {
    include: { asset: { select: { asset_tag: true, name: true } }, employee: { select: { first_name: true, last_name: true } } },
  },
} satisfies Prisma.AssetReturnRequestInclude;
type ReturnRequestRow = Prisma.AssetReturnRequestGetPayload<{ include: typeof returnRequestInclude }>;

export async function returnRequestsJson(rows: ReturnRequestRow[]) {
  const names = await userNames(rows.flatMap((r) => [r.requested_by, r.decided_by]));
  return rows.map((r) => ({
    id: r.id,
    assignment_id: r.assignment_id,
    asset_id: r.assignment.asset_id,
    asset_tag: r.assignment.asset.asset_tag,
    asset_name: r.assignment.asset.name,
    employee_id: r.assignment.employee_id,
    employee_name: employeeName(r.assignment.employee),
    requested_by_user_id: r.requested_by,
    requested_by_name: names.get(r.requested_by)?.name ?? "Former member",
    reason: r.reason,
    status: r.status as ReturnRequestStatus,
    decision_notes: r.decision_notes,
    decided_by_user_id: r.decided_by,
    decided_by_name: r.decided_by ? (names.get(r.decided_by)?.name ?? "Former member") : null,
    decided_at: r.decided_at?.toISOString() ?? null,
    returned_on: r.status === "approved" ? toDateStringOrNull(r.assignment.returned_on) : null,
    return_condition: r.status === "approved" ? ((r.assignment.return_condition as AssetCondition | null) ?? null) : null,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  }));
}

export const damageReportInclude = {
  asset: { select: { asset_tag: true, name: true } },
  assignment: { select: { employee_id: true, employee: { select: { first_name: true, last_name: true } } } },
} satisfies Prisma.AssetDamageReportInclude;
type DamageReportRow = Prisma.AssetDamageReportGetPayload<{ include: typeof damageReportInclude }>;

export async function damageReportsJson(rows: DamageReportRow[]) {
  const names = await userNames(rows.map((r) => r.reported_by));
  return rows.map((r) => ({
    id: r.id,
    asset_id: r.asset_id,
    asset_tag: r.asset.asset_tag,
    asset_name: r.asset.name,
    assignment_id: r.assignment_id,
    employee_id: r.assignment?.employee_id ?? null,
    employee_name: r.assignment ? employeeName(r.assignment.employee) : null,
    severity: r.severity as DamageSeverity,
    description: r.description,
    file_id: r.file_id,
    status: r.status as DamageStatus,
    reported_by_user_id: r.reported_by,
    reported_by_name: names.get(r.reported_by)?.name ?? "Former member",
    resolution_notes: r.resolution_notes,
    repair_cost: moneyStringOrNull(r.repair_cost),
    resolved_by_user_id: r.resolved_by,
    resolved_at: r.resolved_at?.toISOString() ?? null,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  }));
}
