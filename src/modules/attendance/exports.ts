// Rows of the bulk area's export of attendance records (src/modules/bulk/): keyset batches by id.
import { db } from "../../db/tenancy.ts";
import { parseDate, toDateString } from "../../lib/dates.ts";

export const ATTENDANCE_EXPORT_COLUMNS = [
  "id",
  "employee_id",
  "date",
  "check_in",
  "check_out",
  "status",
  "notes",
  "worked_hours",
  "late",
  "early_exit",
  "source",
  "created_at",
  "updated_at",
];

export async function attendanceForExport(
  filter: { employee_id?: string; from_date?: string; to_date?: string; updated_since?: string },
  after: string | null,
  limit: number,
): Promise<Record<string, unknown>[]> {
  const rows = await db.attendanceRecord.findMany({
    where: {
      ...(after ? { id: { gt: after } } : {}),
      ...(filter.employee_id ? { employee_id: filter.employee_id } : {}),
      ...(filter.from_date || filter.to_date
        ? {
            date: {
              ...(filter.from_date ? { gte: parseDate(filter.from_date) } : {}),
              ...(filter.to_date ? { lte: parseDate(filter.to_date) } : {}),
            },
          }
        : {}),
      ...(filter.updated_since ? { changed_at: { gte: new Date(filter.updated_since) } } : {}),
    },
    orderBy: { id: "asc" },
    take: limit,
  });
  return rows.map((r) => ({
    id: r.id,
    employee_id: r.employee_id,
    date: toDateString(r.date),
    check_in: r.check_in?.toISOString() ?? null,
    check_out: r.check_out?.toISOString() ?? null,
    status: r.status,
    notes: r.notes,
    worked_hours: r.worked_hours?.toFixed(2) ?? null,
    late: r.late,
    early_exit: r.early_exit,
    source: r.source,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  }));
}
