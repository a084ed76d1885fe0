// The raw SQL of a run's calculation: who is paid in a month, their payroll inputs, the slips written
// batch by batch, and what processing pays (other areas' data comes through their public faces).
import { empty, execute, query, sql, tenant, type Sql } from "../../../db/sql.ts";
import type { ScopedTx } from "../../../db/tenancy.ts";
import type { DateString } from "../../../lib/dates.ts";

type Client = Pick<ScopedTx, "$queryRaw" | "$executeRaw">;

/** A month of a run and the employees it is limited to (none = every eligible employee). */
export interface Eligibility {
  start: DateString;
  end: DateString;
  employee_ids: string[];
  /** Every exit on record (employees area): the employee's last working day. */
  exits: { employee_id: string; last_working_day: DateString }[];
}

/** The exits as a relation `x(employee_id, last_working_day)`, joined to the employees alias `e`. */
function exitsJoin(p: Eligibility): Sql {
  return sql`LEFT JOIN unnest(${p.exits.map((x) => x.employee_id)}::uuid[], ${p.exits.map((x) => x.last_working_day)}::date[])
    AS x(employee_id, last_working_day) ON x.employee_id = e.id`;
}

/** Live, joined by the month's end, not exited before its start, not inactive, not paid by a processed settlement. */
function eligible(p: Eligibility): Sql {
  return sql`e.deleted_at IS NULL AND e.joining_date <= ${p.end}::date
    AND e.status IN ('active', 'on_notice', 'exited')
    AND (x.last_working_day IS NULL OR x.last_working_day >= ${p.start}::date)
    AND (e.status <> 'exited' OR x.last_working_day IS NOT NULL)
    AND NOT EXISTS (SELECT 1 FROM final_settlements f WHERE f.tenant_id = ${tenant}::uuid AND f.employee_id = e.id
      AND f.status = 'processed' AND f.last_working_day BETWEEN ${p.start}::date AND ${p.end}::date
      AND (f.details -> 'salary' ->> 'included')::boolean)
    AND (cardinality(${p.employee_ids}::uuid[]) = 0 OR e.id = ANY(${p.employee_ids}::uuid[]))`;
}

/** The month's end, or the earlier last working day: a revision dated after it was never drawn (alias `x`). */
function paidUntil(p: Eligibility): Sql {
  return sql`LEAST(${p.end}::date, COALESCE(x.last_working_day, ${p.end}::date))`;
}

/** Eligible employees with a salary setup in force by the month's end (what a calculation would pay). */
export async function countPaidEmployees(client: Client, p: Eligibility): Promise<number> {
  const [row] = await query<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM employees e ${exitsJoin(p)}
         WHERE e.tenant_id = ${tenant}::uuid AND ${eligible(p)}
           AND EXISTS (SELECT 1 FROM employee_salary_setups s WHERE s.tenant_id =
             e.tenant_id AND s.employee_id = e.id AND s.effective_from <= ${paidUntil(p)})`,
    client,
  );
  return row?.n ?? 0;
}

/** Eligible employees without a salary setup in force (reported, not paid). */
export async function countEmployeesWithoutSetup(client: Client, p: Eligibility): Promise<number> {
  const [row] = await query<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM employees e ${exitsJoin(p)}
         WHERE e.tenant_id = ${tenant}::uuid AND ${eligible(p)}
           AND NOT EXISTS (SELECT 1 FROM employee_salary_setups s WHERE s.tenant_id =
             e.tenant_id AND s.employee_id = e.id AND s.effective_from <= ${paidUntil(p)})`,
    client,
  );
  return row?.n ?? 0;
}

/** The columns of a salary setup version that a slip is computed from. */
export interface SetupColumns {
  setup_id: string;
  monthly_ctc: string | null;
  all_components: boolean;
  pf_enabled: boolean;
  eps_enabled: boolean;
  esi_enabled: boolean;
  pt_enabled: boolean;
  pt_state: string | null;
  disabled: boolean;
  existing_eps_member: boolean;
}

export interface PaidEmployeeRow extends SetupColumns {
  id: string;
  employee_code: string;
  first_name: string;
  last_name: string;
  department: string;
  designation: string;
  gender: string | null;
  date_of_birth: Date | null;
  joining_date: Date;
  state: string | null;
  branch_id: string | null;
  work_location_id: string | null;
  last_working_day: Date | null;
}

/** A page of the eligible with the setup in force on the slip's last day, by employee code (unique), after `after`. */
export function paidEmployees(client: Client, p: Eligibility, after: string | null, limit: number): Promise<PaidEmployeeRow[]> {
  return query<PaidEmployeeRow>(
    sql`SELECT e.id, e.employee_code, e.first_name, e.last_name, e.department,
      e.designation, e.gender, e.date_of_birth, e.joining_date, e.state,
               e.branch_id, e.work_location_id, x.last_working_day, s.id AS setup_id, s.monthly_ctc::text AS monthly_ctc, s.all_components,
               s.pf_enabled, s.eps_enabled, s.esi_enabled, s.pt_enabled, s.pt_state, s.disabled, s.existing_eps_member
          FROM employees e
          ${exitsJoin(p)}
          JOIN LATERAL (SELECT * FROM employee_salary_setups s WHERE s.tenant_id =
            e.tenant_id AND s.employee_id = e.id AND s.effective_from <= ${paidUntil(p)}
                         ORDER BY s.effective_from DESC LIMIT 1) s ON TRUE
         WHERE e.tenant_id = ${tenant}::uuid AND ${eligible(p)} ${after === null ? empty : sql`AND e.employee_code > ${after}`}
         ORDER BY e.employee_code, e.id
         LIMIT ${limit}`,
    client,
  );
}

/** The component lines of these salary setups (amount null = the component's default). */
export function setupLines(
  client: Client,
  setupIds: string[],
): Promise<{ setup_id: string; component_id: string; amount: string | null }[]> {
  return query(
    sql`SELECT setup_id, component_id, amount::text AS amount FROM employee_salary_components
      WHERE tenant_id = ${tenant}::uuid AND setup_id = ANY(${setupIds}::uuid[])`,
    client,
  );
}

export interface SetupRow extends SetupColumns {
  employee_id: string;
  effective_from: DateString;
}

/** The setup in force on the date, else the earliest (joining for EPS, an ESI period's start); none without any. */
export function setupsInForceOn(client: Client, on: { employee_id: string; date: DateString }[]): Promise<SetupRow[]> {
  if (!on.length) return Promise.resolve([]);
  return query<SetupRow>(
    sql`SELECT d.employee_id::text AS employee_id, s.id::text AS setup_id, s.effective_from::text AS effective_from,
               s.monthly_ctc::text AS monthly_ctc, s.all_components,
               s.pf_enabled, s.eps_enabled, s.esi_enabled, s.pt_enabled, s.pt_state, s.disabled, s.existing_eps_member
          FROM unnest(${on.map((x) => x.employee_id)}::uuid[], ${on.map((x) => x.date)}::date[]) AS d(employee_id, on_date)
          JOIN LATERAL (SELECT * FROM employee_salary_setups s WHERE s.tenant_id = ${tenant}::uuid AND s.employee_id = d.employee_id
                         ORDER BY (s.effective_from <= d.on_date) DESC,
                                  CASE WHEN s.effective_from <= d.on_date THEN s.effective_from END DESC NULLS LAST,
                                  s.effective_from ASC
                         LIMIT 1) s ON TRUE`,
    client,
  );
}

/** Every setup in force on some day of [from, to] (a slip's pay range), in order of their effective dates. */
export function setupsInForceBetween(client: Client, on: { employee_id: string; from: DateString; to: DateString }[]): Promise<SetupRow[]> {
  if (!on.length) return Promise.resolve([]);
  return query<SetupRow>(
    sql`SELECT d.employee_id::text AS employee_id, s.id::text AS setup_id, s.effective_from::text AS effective_from,
               s.monthly_ctc::text AS monthly_ctc, s.all_components,
               s.pf_enabled, s.eps_enabled, s.esi_enabled, s.pt_enabled, s.pt_state, s.disabled, s.existing_eps_member
          FROM unnest(${on.map((x) => x.employee_id)}::uuid[], ${on.map((x) => x.from)}::date[], ${on.map((x) => x.to)}::date[])
            AS d(employee_id, from_date, to_date)
          JOIN employee_salary_setups s ON s.tenant_id = ${tenant}::uuid AND s.employee_id = d.employee_id
         WHERE s.effective_from <= d.to_date
           AND (s.effective_from > d.from_date OR s.effective_from = (SELECT max(o.effective_from) FROM employee_salary_setups o
                 WHERE o.tenant_id = ${tenant}::uuid AND o.employee_id = d.employee_id AND o.effective_from <= d.from_date))
         ORDER BY d.employee_id, s.effective_from`,
    client,
  );
}

/** Pending installments due by the month (`start`) of approved or active loans of these employees. */
export function installmentsDue(
  client: Client,
  start: DateString,
  employeeIds: string[],
): Promise<{ id: string; loan_id: string; loan_number: string; employee_id: string; amount: string }[]> {
  return query(
    sql`SELECT i.id, i.loan_id, l.loan_number, l.employee_id, i.amount::text AS amount
          FROM loan_installments i JOIN loan_advances l ON l.tenant_id = i.tenant_id AND l.id = i.loan_id
         WHERE i.tenant_id = ${tenant}::uuid AND i.status = 'pending' AND
           i.due_month <= ${start}::date AND l.status IN ('approved', 'active')
           AND l.employee_id = ANY(${employeeIds}::uuid[])
         ORDER BY l.loan_number, i.seq`,
    client,
  );
}

/** Approved, unpaid expense claims of these employees dated by the month's end. */
export function claimsDue(
  client: Client,
  end: DateString,
  employeeIds: string[],
): Promise<{ id: string; claim_number: string; employee_id: string; amount: string; category: string }[]> {
  return query(
    sql`SELECT c.id, c.claim_number, c.employee_id, c.amount::text AS amount, k.name AS category
          FROM expense_claims c JOIN expense_categories k ON k.tenant_id = c.tenant_id AND k.id = c.category_id
         WHERE c.tenant_id = ${tenant}::uuid AND c.status = 'approved' AND c.paid_run_id IS NULL AND c.expense_date <= ${end}::date
           AND c.employee_id = ANY(${employeeIds}::uuid[])
         ORDER BY c.claim_number`,
    client,
  );
}

/** Removes a run's slips (before they are written again). */
export function deleteSlips(client: Client, runId: string): Promise<number> {
  return execute(sql`DELETE FROM payroll_slips WHERE tenant_id = ${tenant}::uuid AND run_id = ${runId}::uuid`, client);
}

/** Writes a batch of slips given as a JSON array of rows (one INSERT … SELECT FROM jsonb_to_recordset); starts at once. */
export function insertSlips(client: Client, runId: string, rowsJson: string): Promise<number> {
  return execute(
    sql`INSERT INTO payroll_slips (tenant_id, run_id, employee_id, slip_number, employee_code,
      employee_name, department, designation, pay_start, pay_end, days_in_period,
                                   payable_days, lop_days, gross, total_deductions, net_pay,
                                     pf_employee, esi_employee, professional_tax, loan_deduction,
                                   reimbursements, leave_encashment, employer_cost, income_tax, details)
        SELECT ${tenant}::uuid, ${runId}::uuid, x.employee_id, x.slip_number, x.employee_code,
          x.employee_name, x.department, x.designation, x.pay_start, x.pay_end, x.days_in_period,
               x.payable_days, x.lop_days, x.gross, x.total_deductions, x.net_pay,
                 x.pf_employee, x.esi_employee, x.professional_tax, x.loan_deduction,
               x.reimbursements, x.leave_encashment, x.employer_cost, x.income_tax, x.details
          FROM jsonb_to_recordset(${rowsJson}::jsonb) AS x(employee_id uuid, slip_number text,
            employee_code text, employee_name text, department text, designation text,
               pay_start date, pay_end date, days_in_period int, payable_days numeric,
                 lop_days numeric, gross numeric, total_deductions numeric, net_pay numeric,
               pf_employee numeric, esi_employee numeric, professional_tax numeric,
                 loan_deduction numeric, reimbursements numeric, leave_encashment numeric,
               employer_cost numeric, income_tax numeric, details jsonb)`,
    client,
  );
}

/**
 * Numbers every stored slip of a run, `<prefix>00001`… in employee-code order (the order the run reads its
 * employees in), in one statement; answers the slips numbered. It reads the run's slips once and updates
 * each by its key, whatever the table's statistics say: a batch's UPDATE joined to its employees was planned
 * from statistics that lag a calculation's fresh rows, and then scanned the whole run's slips per batch.
 */
export function numberRunSlips(client: Client, runId: string, prefix: string): Promise<number> {
  return execute(
    sql`UPDATE payroll_slips s SET slip_number = ${prefix} || lpad(n.seq::text, greatest(5, length(n.seq::text)), '0')
          FROM (SELECT id, row_number() OVER (ORDER BY employee_code, employee_id) AS seq FROM payroll_slips
                 WHERE tenant_id = ${tenant}::uuid AND run_id = ${runId}::uuid) n
         WHERE s.tenant_id = ${tenant}::uuid AND s.id = n.id`,
    client,
  );
}

export async function countSlips(client: Client, runId: string): Promise<number> {
  const [row] = await query<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM payroll_slips WHERE tenant_id = ${tenant}::uuid AND run_id = ${runId}::uuid`,
    client,
  );
  return row?.n ?? 0;
}

/** What the stored slips of these employees in a run pay, line by line: loan installments (by loan), claims, encashments (with amounts). */
export function slipPayments(
  client: Client,
  runId: string,
  employeeIds: string[],
): Promise<{ kind: "loan" | "claim" | "encashment"; id: string; installment_ids: string[] | null; amount: string | null }[]> {
  return query(
    sql`SELECT 'loan' AS kind, l->>'loan_id' AS id, ARRAY(SELECT jsonb_array_elements_text(l->'installment_ids')) AS installment_ids,
               NULL::text AS amount
          FROM payroll_slips s CROSS JOIN LATERAL jsonb_array_elements(COALESCE(s.details->'loans', '[]'::jsonb)) l
         WHERE s.tenant_id = ${tenant}::uuid AND s.run_id = ${runId}::uuid AND s.employee_id = ANY(${employeeIds}::uuid[])
        UNION ALL
        SELECT 'claim', c->>'claim_id', NULL, NULL
          FROM payroll_slips s CROSS JOIN LATERAL jsonb_array_elements(COALESCE(s.details->'reimbursements', '[]'::jsonb)) c
         WHERE s.tenant_id = ${tenant}::uuid AND s.run_id = ${runId}::uuid AND s.employee_id = ANY(${employeeIds}::uuid[])
        UNION ALL
        SELECT 'encashment', x->>'encashment_id', NULL, x->>'amount'
          FROM payroll_slips s CROSS JOIN LATERAL jsonb_array_elements(COALESCE(s.details->'encashments', '[]'::jsonb)) x
         WHERE s.tenant_id = ${tenant}::uuid AND s.run_id = ${runId}::uuid AND s.employee_id = ANY(${employeeIds}::uuid[])`,
    client,
  );
}

/** Installments deducted by a processed run. */
export function markInstallmentsPaid(client: Client, runId: string, installmentIds: string[], now: Date): Promise<number> {
  return execute(
    sql`UPDATE loan_installments SET status = 'paid', paid_run_id = ${runId}::uuid,
      paid_at = ${now} WHERE tenant_id = ${tenant}::uuid AND id = ANY(${installmentIds}::uuid[])`,
    client,
  );
}

/** Loans' repaid amounts from their paid installments: active while one is pending, closed when none is. */
export function settleLoans(client: Client, loanIds: string[], now: Date): Promise<number> {
  return execute(
    sql`UPDATE loan_advances l
           SET repaid_amount = p.paid, updated_at = ${now},
               status = CASE WHEN p.pending = 0 THEN 'closed' ELSE 'active' END,
               closed_at = CASE WHEN p.pending = 0 THEN ${now}::timestamptz ELSE NULL END
          FROM (SELECT loan_id, COALESCE(sum(amount) FILTER (WHERE status = 'paid'),
            0) AS paid, count(*) FILTER (WHERE status = 'pending') AS pending
                  FROM loan_installments WHERE tenant_id = ${tenant}::uuid AND loan_id = ANY(${loanIds}::uuid[]) GROUP BY loan_id) p
         WHERE l.tenant_id = ${tenant}::uuid AND l.id = p.loan_id`,
    client,
  );
}

/** Claims reimbursed by a processed run. */
export function markClaimsPaid(client: Client, runId: string, claimIds: string[], now: Date): Promise<number> {
  return execute(
    sql`UPDATE expense_claims SET status = 'paid', paid_run_id = ${runId}::uuid, paid_at = ${now},
      updated_at = ${now} WHERE tenant_id = ${tenant}::uuid AND id = ANY(${claimIds}::uuid[])`,
    client,
  );
}

/** A notification to the member of every employee with a slip in the run. */
export function notifySlipOwners(client: Client, runId: string, title: string, link: string): Promise<number> {
  return execute(
    sql`INSERT INTO notifications (tenant_id, user_id, kind, title, link)
        SELECT m.tenant_id, m.user_id, 'payroll.slip_ready', ${title}, ${link}
          FROM memberships m JOIN payroll_slips s ON s.tenant_id = m.tenant_id AND s.employee_id = m.employee_id
         WHERE m.tenant_id = ${tenant}::uuid AND s.run_id = ${runId}::uuid`,
    client,
  );
}
