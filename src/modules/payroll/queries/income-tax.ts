// The raw SQL of income tax at source: the processed slips of a tax year, per employee.
import { query, sql, tenant } from "../../../db/sql.ts";
import type { ScopedTx } from "../../../db/tenancy.ts";

type Client = Pick<ScopedTx, "$queryRaw" | "$executeRaw">;

export interface PaidSlipRow {
  id: string;
  /** The slip's change stamp (change_xid as text): it moves with every change of the row. */
  stamp: string;
  employee_id: string;
  period_year: number;
  period_month: number;
  gross: string;
  leave_encashment: string;
  pf_employee: string;
  professional_tax: string;
  income_tax: string;
  earnings: { code: string; amount: string }[];
  tax: Record<string, unknown> | null;
}

/** The processed slips of these employees (null: all) in months [from, before) as year × 100 + month. */
function processedSlips(employeeIds: string[] | null, from: number, before: number) {
  return sql`FROM payroll_slips s
          JOIN payroll_runs r ON r.tenant_id = s.tenant_id AND r.id = s.run_id
         WHERE s.tenant_id = ${tenant}::uuid AND r.tenant_id = ${tenant}::uuid AND r.status = 'processed'
           AND (${employeeIds}::uuid[] IS NULL OR s.employee_id = ANY(${employeeIds}::uuid[]))
           AND r.period_year * 100 + r.period_month >= ${from} AND r.period_year * 100 + r.period_month < ${before}`;
}

/** Processed slips (employees null: all) in months [from, before) as year × 100 + month, oldest first. */
export function paidSlips(client: Client, employeeIds: string[] | null, from: number, before: number): Promise<PaidSlipRow[]> {
  return query<PaidSlipRow>(
    sql`SELECT s.id::text AS id, s.change_xid::text AS stamp, s.employee_id, r.period_year, r.period_month,
               s.gross::text AS gross, s.leave_encashment::text AS leave_encashment,
               s.pf_employee::text AS pf_employee, s.professional_tax::text AS professional_tax, s.income_tax::text AS income_tax,
               COALESCE(s.details->'earnings', '[]'::jsonb) AS earnings, s.details->'income_tax' AS tax
          ${processedSlips(employeeIds, from, before)}
         ORDER BY s.employee_id, r.period_year, r.period_month`,
    client,
  );
}

/** The same slips as paidSlips, only their ids and change stamps: what a run's inputs digest holds of them. */
export function paidSlipStamps(
  client: Client,
  employeeIds: string[],
  from: number,
  before: number,
): Promise<{ id: string; stamp: string }[]> {
  return query<{ id: string; stamp: string }>(
    sql`SELECT s.id::text AS id, s.change_xid::text AS stamp ${processedSlips(employeeIds, from, before)}`,
    client,
  );
}
