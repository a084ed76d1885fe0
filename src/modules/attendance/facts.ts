// What other areas read of attendance data (the dashboard's figures), through the attendance
// area's public face (index.ts): read-only.
import { db } from "../../db/tenancy.ts";

/** Pending attendance corrections, per employee. */
export async function pendingRegularizationsByEmployee(): Promise<Map<string, number>> {
  const groups = await db.attendanceRegularization.groupBy({ by: ["employee_id"], where: { status: "pending" }, _count: { _all: true } });
  return new Map(groups.map((g) => [g.employee_id, g._count._all]));
}
