// Rows of the bulk area's exports of holidays and leave allocations (src/modules/bulk/): keyset
// batches by id, columns as the imports take them plus what the server keeps.
import { db } from "../../db/tenancy.ts";
import { parseDate, toDateString } from "../../lib/dates.ts";

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const day = (d: Date | null) => (d ? toDateString(d) : null);

export const HOLIDAY_EXPORT_COLUMNS = [
  "id",
  "date",
  "name",
  "description",
  "is_optional",
  "branch_id",
  "work_location_id",
  "created_at",
  "updated_at",
];

export async function holidaysForExport(
  filter: { from_date?: string; to_date?: string; branch_id?: string; updated_since?: string },
  after: string | null,
  limit: number,
): Promise<Record<string, unknown>[]> {
  const rows = await db.holiday.findMany({
    where: {
      ...(after ? { id: { gt: after } } : {}),
      ...(filter.from_date || filter.to_date
        ? {
            date: {
              ...(filter.from_date ? { gte: parseDate(filter.from_date) } : {}),
              ...(filter.to_date ? { lte: parseDate(filter.to_date) } : {}),
            },
          }
        : {}),
      ...(filter.branch_id ? { OR: [{ branch_id: filter.branch_id }, { branch_id: null }] } : {}),
      ...(filter.updated_since ? { changed_at: { gte: new Date(filter.updated_since) } } : {}),
    },
    orderBy: { id: "asc" },
    take: limit,
  });
  return rows.map((h) => ({
    id: h.id,
    date: day(h.date),
    name: h.name,
    description: h.description,
    is_optional: h.is_optional,
    branch_id: h.branch_id,
    work_location_id: h.work_location_id,
    created_at: iso(h.created_at),
    updated_at: iso(h.updated_at),
  }));
}

export const ALLOCATION_EXPORT_COLUMNS = [
  "id",
  "employee_id",
  "leave_type_id",
  "period_id",
  "policy_id",
  "days",
  "accrual",
  "accrual_day",
  "notes",
  "effective_from",
  "carried_forward",
  "created_at",
];

export async function allocationsForExport(
  filter: { employee_id?: string; leave_type_id?: string; period_id?: string; updated_since?: string },
  after: string | null,
  limit: number,
): Promise<Record<string, unknown>[]> {
  const rows = await db.leaveAllocation.findMany({
    where: {
      ...(after ? { id: { gt: after } } : {}),
      ...(filter.employee_id ? { employee_id: filter.employee_id } : {}),
      ...(filter.leave_type_id ? { leave_type_id: filter.leave_type_id } : {}),
      ...(filter.period_id ? { period_id: filter.period_id } : {}),
      // allocations do not change once made (their balance moves in the ledger)
      ...(filter.updated_since ? { changed_at: { gte: new Date(filter.updated_since) } } : {}),
    },
    orderBy: { id: "asc" },
    take: limit,
  });
  return rows.map((a) => ({
    id: a.id,
    employee_id: a.employee_id,
    leave_type_id: a.leave_type_id,
    period_id: a.period_id,
    policy_id: a.policy_id,
    days: a.days.toFixed(1),
    accrual: a.accrual,
    accrual_day: a.accrual_day,
    notes: a.notes,
    effective_from: day(a.effective_from),
    carried_forward: a.carried_forward.toFixed(1),
    created_at: iso(a.created_at),
  }));
}
