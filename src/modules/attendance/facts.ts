// What other areas read of attendance (payroll's loss of pay), read-only.
import type { ScopedTx } from "../../db/tenancy.ts";
import { parseDate, toDateString, type DateString } from "../../lib/dates.ts";

type Client = Pick<ScopedTx, "attendanceRecord">;

export interface Absence {
  employee_id: string;
  date: DateString;
  status: "absent" | "half_day";
}

/** Days within [from, to] on which these employees were recorded absent or for half a day. */
export async function absencesBetween(client: Client, employeeIds: readonly string[], from: DateString, to: DateString): Promise<Absence[]> {
  if (!employeeIds.length) return [];
  const rows = await client.attendanceRecord.findMany({
    where: { date: { gte: parseDate(from), lte: parseDate(to) }, status: { in: ["absent", "half_day"] }, employee_id: { in: [...employeeIds] } },
    select: { employee_id: true, date: true, status: true },
  });
  return rows.map((r) => ({ employee_id: r.employee_id, date: toDateString(r.date), status: r.status === "half_day" ? "half_day" : "absent" }));
}
