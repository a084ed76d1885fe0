// What the privacy area needs of attendance: an employee's records by date (the retention
// schedule), and the deletion of those past their period with the regularizations of those days.
import type { ScopedTx } from "../../db/tenancy.ts";
import { db } from "../../db/tenancy.ts";
import { toDateString } from "../../lib/dates.ts";

export async function attendanceDatesOf(employeeId: string): Promise<{ id: string; date: string }[]> {
  const rows = await db.attendanceRecord.findMany({
    where: { employee_id: employeeId },
    select: { id: true, date: true },
    orderBy: { date: "asc" },
  });
  return rows.map((r) => ({ id: r.id, date: toDateString(r.date) }));
}

/** Deletes the employee's attendance records (and regularizations) of the given ids; returns how many records. */
export async function deleteAttendanceIn(tx: ScopedTx, employeeId: string, ids: string[]): Promise<number> {
  if (!ids.length) return 0;
  const rows = await tx.attendanceRecord.findMany({ where: { employee_id: employeeId, id: { in: ids } }, select: { date: true } });
  await tx.attendanceRegularization.deleteMany({ where: { employee_id: employeeId, date: { in: rows.map((r) => r.date) } } });
  return (await tx.attendanceRecord.deleteMany({ where: { employee_id: employeeId, id: { in: ids } } })).count;
}
