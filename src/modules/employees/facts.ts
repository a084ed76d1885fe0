// What other areas read of the employee records beyond the `employees` row (payroll: exits), read-only.
import type { ScopedTx } from "../../db/tenancy.ts";
import { toDateString, type DateString } from "../../lib/dates.ts";

type Client = Pick<ScopedTx, "employeeExit">;

/** Every employee with an exit on record and their last working day. */
export async function lastWorkingDays(client: Client): Promise<{ employee_id: string; last_working_day: DateString }[]> {
  const rows = await client.employeeExit.findMany({ select: { employee_id: true, last_working_day: true } });
  return rows.map((x) => ({ employee_id: x.employee_id, last_working_day: toDateString(x.last_working_day) }));
}
