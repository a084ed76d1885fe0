// What other areas read of attendance data (payroll's loss of pay, the dashboard's figures),
// read-only, through the attendance area's public face (index.ts).
import { db, type ScopedTx } from "../../db/tenancy.ts";
import { type DateString, parseDate, toDateString } from "../../lib/dates.ts";

type Client = Pick<ScopedTx, "attendanceRecord">;

export interface Absence {
  employee_id: string;
  date: DateString;
  status: "absent" | "half_day";
}

/** Days within [from, to] on which these employees were recorded absent or for half a day. */
export async function absencesBetween(
  client: Client,
  employeeIds: readonly string[],
  from: DateString,
  to: DateString,
): Promise<Absence[]> {
  if (!employeeIds.length) return [];
  const rows = await client.attendanceRecord.findMany({
    where: {
      date: { gte: parseDate(from), lte: parseDate(to) },
      status: { in: ["absent", "half_day"] },
      employee_id: { in: [...employeeIds] },
    },
    select: { employee_id: true, date: true, status: true },
  });
  return rows.map((r) => ({
    employee_id: r.employee_id,
    date: toDateString(r.date),
    status: r.status === "half_day" ? "half_day" : "absent",
  }));
}

/** Pending attendance corrections, per employee. */
export async function pendingRegularizationsByEmployee(): Promise<Map<string, number>> {
  const groups = await db.attendanceRegularization.groupBy({ by: ["employee_id"], where: { status: "pending" }, _count: { _all: true } });
  return new Map(groups.map((g) => [g.employee_id, g._count._all]));
}
