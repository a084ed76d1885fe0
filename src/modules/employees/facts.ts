// What other areas read of the employee records beyond the `employees` row (payroll and the
// dashboard: exits), read-only, through the employees area's public face (index.ts).
import type { Prisma } from "../../../generated/prisma/client.ts";
import { db, type ScopedTx } from "../../db/tenancy.ts";
import { type DateString, parseDate, toDateString } from "../../lib/dates.ts";

type Client = Pick<ScopedTx, "employeeExit">;

/** Every employee with an exit on record and their last working day. */
export async function lastWorkingDays(client: Client): Promise<{ employee_id: string; last_working_day: DateString }[]> {
  const rows = await client.employeeExit.findMany({ select: { employee_id: true, last_working_day: true } });
  return rows.map((x) => ({ employee_id: x.employee_id, last_working_day: toDateString(x.last_working_day) }));
}

/**
 * Of the employees matching `where`: how many have their last working day in [from, to), and how
 * many were employed when `from` began (joined before it and not gone before it).
 */
export async function exitFigures(
  where: Prisma.EmployeeWhereInput,
  from: DateString,
  to: DateString,
): Promise<{ leaving: number; employed_at_start: number }> {
  const start = parseDate(from);
  const [leaving, employed_at_start] = await Promise.all([
    db.employee.count({ where: { AND: [where, { exit: { is: { last_working_day: { gte: start, lt: parseDate(to) } } } }] } }),
    db.employee.count({
      where: {
        AND: [
          where,
          { joining_date: { lt: start } },
          { OR: [{ exit: { is: null } }, { exit: { is: { last_working_day: { gte: start } } } }] },
        ],
      },
    }),
  ]);
  return { leaving, employed_at_start };
}

/** Which of the uploads `ids` an employee document refers to (the unattached-file cleanup keeps those). */
export async function employeeFilesInUse(ids: readonly string[]): Promise<string[]> {
  const rows = await db.employeeDocument.findMany({ where: { file_id: { in: [...ids] } }, select: { file_id: true } });
  return rows.map((r) => r.file_id);
}
