// What other areas read of employee data beyond the employees table itself (the dashboard's exit
// figures), through the employees area's public face (index.ts): read-only.
import type { Prisma } from "../../../generated/prisma/client.ts";
import { db } from "../../db/tenancy.ts";
import { type DateString, parseDate } from "../../lib/dates.ts";

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
