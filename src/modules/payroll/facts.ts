// What other areas read of payroll data, read-only, through the payroll area's public face (index.ts).
import { db } from "../../db/tenancy.ts";

/** Which of the uploads `ids` an expense claim has as its receipt (the unattached-file cleanup keeps those). */
export async function payrollFilesInUse(ids: readonly string[]): Promise<string[]> {
  const rows = await db.expenseClaim.findMany({ where: { receipt_file_id: { in: [...ids] } }, select: { receipt_file_id: true } });
  return rows.flatMap((r) => (r.receipt_file_id ? [r.receipt_file_id] : []));
}
