// What the privacy area needs of payroll: an employee's salary slips (their pay period, for the
// retention schedule; their figures, for the access bundle) and the deletion of those past it.
import type { ScopedTx } from "../../db/tenancy.ts";
import { db } from "../../db/tenancy.ts";
import { toDateString } from "../../lib/dates.ts";

/** The employee's salary slips, oldest first: id, number, pay period and the main figures. */
export async function slipsOfEmployee(employeeId: string) {
  const rows = await db.payrollSlip.findMany({
    where: { employee_id: employeeId },
    select: { id: true, slip_number: true, pay_start: true, pay_end: true, gross: true, total_deductions: true, net_pay: true },
    orderBy: [{ pay_end: "asc" }, { id: "asc" }],
  });
  return rows.map((r) => ({
    id: r.id,
    slip_number: r.slip_number,
    pay_start: toDateString(r.pay_start),
    pay_end: toDateString(r.pay_end),
    gross: r.gross.toFixed(2),
    total_deductions: r.total_deductions.toFixed(2),
    net_pay: r.net_pay.toFixed(2),
  }));
}

/** Deletes the given salary slips of the employee (past their retention period); returns how many. */
export async function deleteSlipsIn(tx: ScopedTx, employeeId: string, ids: string[]): Promise<number> {
  if (!ids.length) return 0;
  return (await tx.payrollSlip.deleteMany({ where: { employee_id: employeeId, id: { in: ids } } })).count;
}
