// The raw SQL of runs beyond the ORM: the run row lock that does not wait for a running job, and
// the slips of a WPS file with their bank details.
import { type ScannedKey, type Walk, type WalkKey, walkAnd, walkKey, walkOrder } from "../../../db/keyset.ts";
import { query, read, sql, tenant } from "../../../db/sql.ts";
import type { ScopedTx } from "../../../db/tenancy.ts";

type Client = Pick<ScopedTx, "$queryRaw" | "$executeRaw">;

/** FOR NO KEY UPDATE: serialises status changes without waiting for a job's slip inserts (key-share locks). */
export async function lockRunStatus(client: Client, runId: string): Promise<string | null> {
  const [row] = await query<{ status: string }>(
    sql`SELECT status FROM payroll_runs WHERE tenant_id = ${tenant}::uuid AND id = ${runId}::uuid FOR NO KEY UPDATE`,
    client,
  );
  return row?.status ?? null;
}

export interface WpsSlipRow {
  employee_code: string;
  employee_name: string;
  pay_start: string;
  pay_end: string;
  net_pay: string;
  variable: string;
  lop_days: string;
  labour_card_number: string | null;
  bank_routing_code: string | null;
  bank_iban: string | null;
}

/** The slips of a run with their employees' bank details, as text (no per-row Decimal/Date objects), in employee-code order. */
export function wpsSlips(client: Client, runId: string): Promise<WpsSlipRow[]> {
  return query<WpsSlipRow>(
    sql`SELECT s.employee_code, s.employee_name, s.pay_start::text AS pay_start, s.pay_end::text AS pay_end, s.net_pay::text AS net_pay,
               (s.reimbursements + s.leave_encashment)::numeric(14, 2)::text AS variable, s.lop_days::text AS lop_days,
               e.labour_card_number, e.bank_routing_code, e.bank_iban
          FROM payroll_slips s JOIN employees e ON e.tenant_id = s.tenant_id AND e.id = s.employee_id
         WHERE s.tenant_id = ${tenant}::uuid AND s.run_id = ${runId}::uuid
         ORDER BY s.employee_code`,
    client,
  );
}

/** The next `n` keys of a walk of the salary slips (src/db/keyset.ts walkPage; the list's filters are applied to them). */
export function slipKeys(w: Walk, after: WalkKey | null, n: number): Promise<ScannedKey[]> {
  return read<ScannedKey>(sql`SELECT id, ${walkKey()} FROM payroll_slips
      WHERE tenant_id = ${tenant}::uuid AND ${walkAnd({ ...w, after }, { softDeleted: false })} ORDER BY ${walkOrder()} LIMIT ${n}`);
}
