// Calculating a payroll run, set-based: every input of the run is read in a fixed number of
// queries (employees with their salary setup in force, setup lines, components, leave, attendance,
// holidays, ESI coverage, loan installments, claims, encashments), every employee is computed in
// memory (compute.ts), and the slips are written batch by batch (`PAYROLL_BATCH_SIZE` employees
// per INSERT … SELECT FROM jsonb_to_recordset): while PostgreSQL writes one batch, the next one
// is computed, and each written batch can report progress. The number of round trips grows only
// with the number of batches.
import { Prisma } from "../../../generated/prisma/client.ts";
import { config } from "../../config.ts";
import { currentTenantId, type ScopedTx } from "../../db/tenancy.ts";
import { toDateString, weekday, type DateString } from "../../lib/dates.ts";
import { Decimal } from "../../lib/money.ts";
import { mapYielding, stringifyYielding } from "../../lib/yielding.ts";
import { loadAttendanceSettings } from "../shared/work-settings.ts";
import {
  buildStructure,
  computeSlip,
  esiContributionStart,
  lossOfPay,
  monthBounds,
  prepareSettings,
  totalsOf,
  type ClaimDue,
  type ComponentDef,
  type EncashmentDue,
  type LeaveSpan,
  type LoanDue,
  type RunTotals,
  type SlipResult,
  type StatutorySettings,
} from "./compute.ts";
import { readSettings } from "./statutory.ts";

export interface RunRef {
  id: string;
  period_year: number;
  period_month: number;
  employee_ids: string[];
}

export interface Calculation {
  slips: SlipResult[];
  totals: RunTotals;
  employees_without_setup: number;
}

const ds = (d: Date | null) => (d ? toDateString(d) : null);

export async function loadStatutory(): Promise<StatutorySettings> {
  const [pf, esi, pt] = await Promise.all([readSettings("pf"), readSettings("esi"), readSettings("pt")]);
  return { pf, esi, pt };
}

export async function loadComponents(tx: ScopedTx): Promise<ComponentDef[]> {
  const rows = await tx.salaryComponent.findMany({ orderBy: [{ position: "asc" }, { code: "asc" }] });
  return rows.map((c) => ({ ...c, type: c.type as "earning", calculation: c.calculation as "fixed", amount: c.amount?.toString() ?? null }));
}

interface EmpRow {
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
  setup_id: string;
  monthly_ctc: string | null;
  all_components: boolean;
  pf_enabled: boolean;
  eps_enabled: boolean;
  esi_enabled: boolean;
  pt_enabled: boolean;
  pt_state: string | null;
  disabled: boolean;
}

/** Employees paid in a month: live, joined by its end, not exited before its start, not inactive. */
function eligibleSql(t: string, start: DateString, end: DateString, ids: string[]) {
  return Prisma.sql`e.tenant_id = ${t}::uuid AND e.deleted_at IS NULL AND e.joining_date <= ${end}::date
    AND e.status IN ('active', 'on_notice', 'exited')
    AND (x.last_working_day IS NULL OR x.last_working_day >= ${start}::date)
    AND (e.status <> 'exited' OR x.last_working_day IS NOT NULL)
    AND (cardinality(${ids}::uuid[]) = 0 OR e.id = ANY(${ids}::uuid[]))`;
}

/** Eligible employees of the run with a salary setup in force (what a calculation would pay). */
export async function countRunEmployees(tx: Pick<ScopedTx, "$queryRaw">, run: Omit<RunRef, "id">): Promise<number> {
  const t = currentTenantId();
  const { start, end } = monthBounds(run.period_year, run.period_month);
  const [row] = await tx.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM employees e LEFT JOIN employee_exits x ON x.tenant_id = e.tenant_id AND x.employee_id = e.id
       WHERE ${eligibleSql(t, start, end, run.employee_ids)}
         AND EXISTS (SELECT 1 FROM employee_salary_setups s WHERE s.tenant_id = e.tenant_id AND s.employee_id = e.id AND s.effective_from <= ${end}::date)`;
  return row?.n ?? 0;
}

/** Everything a calculation needs, read in a fixed number of queries; `slipOf` computes one employee. */
interface RunInputs {
  employees: EmpRow[];
  employees_without_setup: number;
  structure: ReturnType<typeof buildStructure>;
  settings: StatutorySettings;
  slipOf: (e: EmpRow) => SlipResult;
}

async function loadRunInputs(tx: ScopedTx, run: RunRef): Promise<RunInputs> {
  const t = currentTenantId();
  const { start, end } = monthBounds(run.period_year, run.period_month);
  const ids = run.employee_ids;
  const settings = await loadStatutory();
  const components = await loadComponents(tx);
  const attendanceSettings = await loadAttendanceSettings(tx);
  const employees = await tx.$queryRaw<EmpRow[]>`
      SELECT e.id, e.employee_code, e.first_name, e.last_name, e.department, e.designation, e.gender, e.date_of_birth, e.joining_date, e.state,
             e.branch_id, e.work_location_id, x.last_working_day, s.id AS setup_id, s.monthly_ctc::text AS monthly_ctc, s.all_components,
             s.pf_enabled, s.eps_enabled, s.esi_enabled, s.pt_enabled, s.pt_state, s.disabled
        FROM employees e
        LEFT JOIN employee_exits x ON x.tenant_id = e.tenant_id AND x.employee_id = e.id
        JOIN LATERAL (SELECT * FROM employee_salary_setups s WHERE s.tenant_id = e.tenant_id AND s.employee_id = e.id AND s.effective_from <= ${end}::date
                       ORDER BY s.effective_from DESC LIMIT 1) s ON TRUE
       WHERE ${eligibleSql(t, start, end, ids)}
       ORDER BY e.employee_code, e.id`;
  const withoutSetup = await tx.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM employees e LEFT JOIN employee_exits x ON x.tenant_id = e.tenant_id AND x.employee_id = e.id
       WHERE ${eligibleSql(t, start, end, ids)}
         AND NOT EXISTS (SELECT 1 FROM employee_salary_setups s WHERE s.tenant_id = e.tenant_id AND s.employee_id = e.id AND s.effective_from <= ${end}::date)`;
  const empIds = employees.map((e) => e.id);
  const setupIds = employees.map((e) => e.setup_id);
  const esiStart = esiContributionStart(run.period_year, run.period_month);
  const esiFrom = monthBounds(esiStart.year, esiStart.month).start;

  const lines = await tx.$queryRaw<{ setup_id: string; component_id: string; amount: string | null }[]>`
      SELECT setup_id, component_id, amount::text AS amount FROM employee_salary_components WHERE tenant_id = ${t}::uuid AND setup_id = ANY(${setupIds}::uuid[])`;
  const leave = await tx.$queryRaw<{ employee_id: string; from_date: Date; to_date: Date; half_day_start: boolean; half_day_end: boolean; days: string; is_paid: boolean }[]>`
      SELECT r.employee_id, r.from_date, r.to_date, r.half_day_start, r.half_day_end, r.days::text AS days, lt.is_paid
        FROM leave_requests r JOIN leave_types lt ON lt.tenant_id = r.tenant_id AND lt.id = r.leave_type_id
       WHERE r.tenant_id = ${t}::uuid AND r.status = 'approved' AND r.from_date <= ${end}::date AND r.to_date >= ${start}::date
         AND r.employee_id = ANY(${empIds}::uuid[])`;
  const attendance = await tx.$queryRaw<{ employee_id: string; date: Date; status: string }[]>`
      SELECT employee_id, date, status FROM attendance_records
       WHERE tenant_id = ${t}::uuid AND date BETWEEN ${start}::date AND ${end}::date AND status IN ('absent', 'half_day') AND employee_id = ANY(${empIds}::uuid[])`;
  const holidays = await tx.$queryRaw<{ date: Date; branch_id: string | null; work_location_id: string | null }[]>`
      SELECT date, branch_id, work_location_id FROM holidays WHERE tenant_id = ${t}::uuid AND is_optional = FALSE AND date BETWEEN ${start}::date AND ${end}::date`;
  const esiCovered = await tx.$queryRaw<{ employee_id: string }[]>`
      SELECT DISTINCT s.employee_id FROM payroll_slips s JOIN payroll_runs r ON r.tenant_id = s.tenant_id AND r.id = s.run_id
       WHERE s.tenant_id = ${t}::uuid AND r.status = 'processed' AND r.id <> ${run.id}::uuid
         AND r.period_start >= ${esiFrom}::date AND r.period_start < ${start}::date
         AND (s.details -> 'esi' ->> 'covered')::boolean AND s.employee_id = ANY(${empIds}::uuid[])`;
  const installments = await tx.$queryRaw<{ id: string; loan_id: string; loan_number: string; employee_id: string; amount: string }[]>`
      SELECT i.id, i.loan_id, l.loan_number, l.employee_id, i.amount::text AS amount
        FROM loan_installments i JOIN loan_advances l ON l.tenant_id = i.tenant_id AND l.id = i.loan_id
       WHERE i.tenant_id = ${t}::uuid AND i.status = 'pending' AND i.due_month <= ${start}::date AND l.status IN ('approved', 'active')
         AND l.employee_id = ANY(${empIds}::uuid[])
       ORDER BY l.loan_number, i.seq`;
  const claims = await tx.$queryRaw<{ id: string; claim_number: string; employee_id: string; amount: string; category: string }[]>`
      SELECT c.id, c.claim_number, c.employee_id, c.amount::text AS amount, k.name AS category
        FROM expense_claims c JOIN expense_categories k ON k.tenant_id = c.tenant_id AND k.id = c.category_id
       WHERE c.tenant_id = ${t}::uuid AND c.status = 'approved' AND c.paid_run_id IS NULL AND c.expense_date <= ${end}::date
         AND c.employee_id = ANY(${empIds}::uuid[])
       ORDER BY c.claim_number`;
  const encashments = await tx.$queryRaw<{ id: string; employee_id: string; days: string; leave_type: string }[]>`
      SELECT x.id, x.employee_id, x.days::text AS days, lt.name AS leave_type
        FROM leave_encashments x JOIN leave_types lt ON lt.tenant_id = x.tenant_id AND lt.id = x.leave_type_id
       WHERE x.tenant_id = ${t}::uuid AND x.status = 'approved' AND x.amount IS NULL AND x.employee_id = ANY(${empIds}::uuid[])
       ORDER BY x.created_at`;

  const group = <T extends { employee_id: string }>(rows: T[]) => {
    const m = new Map<string, T[]>();
    for (const r of rows) (m.get(r.employee_id) ?? m.set(r.employee_id, []).get(r.employee_id)!).push(r);
    return m;
  };
  const linesBySetup = new Map<string, Map<string, string | null>>();
  for (const l of lines) (linesBySetup.get(l.setup_id) ?? linesBySetup.set(l.setup_id, new Map()).get(l.setup_id)!).set(l.component_id, l.amount);
  const leaveBy = group(leave);
  const attBy = group(attendance);
  const covered = new Set(esiCovered.map((r) => r.employee_id));
  const loansBy = new Map<string, LoanDue[]>();
  for (const i of installments) {
    const list = loansBy.get(i.employee_id) ?? loansBy.set(i.employee_id, []).get(i.employee_id)!;
    let l = list.find((x) => x.loan_id === i.loan_id);
    if (!l) list.push((l = { loan_id: i.loan_id, loan_number: i.loan_number, installment_ids: [], amount: "0.00" }));
    l.installment_ids.push(i.id);
    l.amount = new Decimal(l.amount).plus(i.amount).toFixed(2);
  }
  const claimsBy = new Map<string, ClaimDue[]>();
  for (const c of claims) (claimsBy.get(c.employee_id) ?? claimsBy.set(c.employee_id, []).get(c.employee_id)!).push({ claim_id: c.id, claim_number: c.claim_number, category: c.category, amount: c.amount });
  const encBy = new Map<string, EncashmentDue[]>();
  for (const x of encashments) (encBy.get(x.employee_id) ?? encBy.set(x.employee_id, []).get(x.employee_id)!).push({ encashment_id: x.id, leave_type: x.leave_type, days: x.days });
  const weeklyOffs = new Set(attendanceSettings.weekly_offs);
  const hol = holidays.map((h) => ({ ...h, date: toDateString(h.date) }));

  const structure = buildStructure(components);
  const prepared = prepareSettings(settings);
  const period = { year: run.period_year, month: run.period_month, start, end };
  const slipOf = (e: EmpRow): SlipResult => {
    const joining = toDateString(e.joining_date);
    const lwd = ds(e.last_working_day);
    const from = joining > start ? joining : start;
    const to = lwd && lwd < end ? lwd : end;
    const hols = new Set(hol.filter((h) => (h.branch_id === null || h.branch_id === e.branch_id) && (h.work_location_id === null || h.work_location_id === e.work_location_id)).map((h) => h.date));
    const spans: LeaveSpan[] = (leaveBy.get(e.id) ?? []).map((l) => ({ from: toDateString(l.from_date), to: toDateString(l.to_date), half_day_start: l.half_day_start, half_day_end: l.half_day_end, days: l.days, is_paid: l.is_paid }));
    const lop = lossOfPay(from, to, spans, (attBy.get(e.id) ?? []).map((a) => ({ date: toDateString(a.date), status: a.status })), (d) => weeklyOffs.has(weekday(d)) || hols.has(d));
    return computeSlip(structure, settings, period, {
      id: e.id,
      employee_code: e.employee_code,
      name: `${e.first_name} ${e.last_name}`.trim(),
      department: e.department,
      designation: e.designation,
      gender: e.gender,
      date_of_birth: ds(e.date_of_birth),
      joining_date: joining,
      last_working_day: lwd,
      state: e.state,
      setup: {
        monthly_ctc: e.monthly_ctc,
        all_components: e.all_components,
        pf_enabled: e.pf_enabled,
        eps_enabled: e.eps_enabled,
        esi_enabled: e.esi_enabled,
        pt_enabled: e.pt_enabled,
        pt_state: e.pt_state,
        disabled: e.disabled,
        lines: linesBySetup.get(e.setup_id) ?? new Map(),
      },
      leave_lop_days: lop.leave,
      absent_days: lop.absent,
      esi_covered_earlier: covered.has(e.id),
      loans: loansBy.get(e.id) ?? [],
      claims: claimsBy.get(e.id) ?? [],
      encashments: encBy.get(e.id) ?? [],
    }, prepared);
  };
  return { employees, employees_without_setup: withoutSetup[0]?.n ?? 0, structure, settings, slipOf };
}

const slipRow = (s: SlipResult, slipNumber: string | null) => ({
  employee_id: s.employee_id,
  slip_number: slipNumber,
  employee_code: s.employee_code,
  employee_name: s.employee_name,
  department: s.department,
  designation: s.designation,
  pay_start: s.pay_start,
  pay_end: s.pay_end,
  days_in_period: s.days_in_period,
  payable_days: s.payable_days.toFixed(1),
  lop_days: s.lop_days.toFixed(1),
  gross: s.gross.toFixed(2),
  total_deductions: s.total_deductions.toFixed(2),
  net_pay: s.net_pay.toFixed(2),
  pf_employee: s.pf_employee.toFixed(2),
  esi_employee: s.esi_employee.toFixed(2),
  professional_tax: s.professional_tax.toFixed(2),
  loan_deduction: s.loan_deduction.toFixed(2),
  reimbursements: s.reimbursements.toFixed(2),
  leave_encashment: s.leave_encashment.toFixed(2),
  employer_cost: s.employer_cost.toFixed(2),
  details: s.details,
});

/** Slip numbers of a processed run: `PS-YYYYMM-00001`, in employee-code order. */
export const slipNumberPrefix = (run: { period_year: number; period_month: number }) => `PS-${run.period_year}${String(run.period_month).padStart(2, "0")}-`;

export interface StoreOptions {
  /** Number the slips (`<prefix>00001`…) as they are written: processing. */
  slipPrefix?: string;
  /** Called after each written batch with the employees written so far and the run's total. */
  onProgress?: (processed: number, total: number) => Promise<void>;
}

/**
 * Calculates the run and replaces its slips and totals inside the caller's transaction: one
 * DELETE, then per batch of `PAYROLL_BATCH_SIZE` employees one INSERT (the next batch is computed
 * while PostgreSQL writes the previous one), then the run's totals. Nothing is visible to others
 * before the caller commits.
 */
export async function calculateAndStore(tx: ScopedTx, run: RunRef, opts: StoreOptions = {}): Promise<Calculation> {
  const t = currentTenantId();
  const inputs = await loadRunInputs(tx, run);
  const total = inputs.employees.length;
  const size = config().payrollBatchSize;
  await opts.onProgress?.(0, total);
  await tx.$executeRaw`DELETE FROM payroll_slips WHERE tenant_id = ${t}::uuid AND run_id = ${run.id}::uuid`;
  const slips: SlipResult[] = [];
  const totals = totalsOf(inputs.structure, inputs.settings.pf);
  let writing: Promise<unknown> | null = null;
  for (let i = 0; i < total; i += size) {
    // computed employee by employee, and the batch's JSON built row by row, with a turn of the
    // event loop every few ms: thousands of employees with long formulas are seconds of decimal
    // arithmetic, which in one go would hold every other request of every tenant (scripts/event-loop.ts)
    const batch = await mapYielding(inputs.employees.slice(i, i + size), (e) => {
      const slip = inputs.slipOf(e);
      totals.add(slip);
      return slip;
    });
    const rows = await stringifyYielding(
      batch.map((s, k) => ({ s, k })),
      ({ s, k }) => slipRow(s, opts.slipPrefix ? `${opts.slipPrefix}${String(i + k + 1).padStart(5, "0")}` : null),
    );
    if (writing) {
      await writing;
      await opts.onProgress?.(i, total);
    }
    const insert = tx.$executeRaw`
      INSERT INTO payroll_slips (tenant_id, run_id, employee_id, slip_number, employee_code, employee_name, department, designation, pay_start, pay_end, days_in_period,
                                 payable_days, lop_days, gross, total_deductions, net_pay, pf_employee, esi_employee, professional_tax, loan_deduction,
                                 reimbursements, leave_encashment, employer_cost, details)
      SELECT ${t}::uuid, ${run.id}::uuid, x.employee_id, x.slip_number, x.employee_code, x.employee_name, x.department, x.designation, x.pay_start, x.pay_end, x.days_in_period,
             x.payable_days, x.lop_days, x.gross, x.total_deductions, x.net_pay, x.pf_employee, x.esi_employee, x.professional_tax, x.loan_deduction,
             x.reimbursements, x.leave_encashment, x.employer_cost, x.details
        FROM jsonb_to_recordset(${rows}::jsonb) AS x(employee_id uuid, slip_number text, employee_code text, employee_name text, department text, designation text,
             pay_start date, pay_end date, days_in_period int, payable_days numeric, lop_days numeric, gross numeric, total_deductions numeric, net_pay numeric,
             pf_employee numeric, esi_employee numeric, professional_tax numeric, loan_deduction numeric, reimbursements numeric, leave_encashment numeric,
             employer_cost numeric, details jsonb)`;
    // Prisma queries start when awaited: start this one now, compute the next batch meanwhile.
    const started: Promise<unknown> = new Promise((resolve, reject) => insert.then(resolve, reject));
    started.catch(() => {}); // awaited below; a failure must not count as unhandled meanwhile
    writing = started;
    await new Promise((r) => setImmediate(r)); // let the statement go out before computing
    slips.push(...batch);
  }
  if (writing) await writing;
  if (total) await opts.onProgress?.(total, total);
  const runTotalsResult = totals.result();
  await tx.payrollRun.update({
    where: { id: run.id },
    data: {
      employee_count: runTotalsResult.employee_count,
      total_gross: runTotalsResult.gross,
      total_deductions: runTotalsResult.total_deductions,
      total_net: runTotalsResult.net_pay,
      totals: { ...runTotalsResult, employees_without_setup: inputs.employees_without_setup } as object,
      calculated_at: new Date(),
      progress_processed: total,
      progress_total: total,
    },
  });
  return { slips, totals: runTotalsResult, employees_without_setup: inputs.employees_without_setup };
}

/** Serialises calculation and processing of a tenant's runs (a claim or installment is never paid twice). */
export async function lockPayroll(tx: ScopedTx): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`payroll:${currentTenantId()}`}, 0))`;
}

/**
 * Finalises a run whose slips were just stored with their numbers (calculateAndStore with
 * `slipPrefix`) inside the caller's transaction: installments paid (loans active/closed), claims
 * paid, encashments priced, the run processed, slip notifications - set-based.
 */
export async function finalizeRun(tx: ScopedTx, run: { id: string; period_year: number; period_month: number }, calc: Calculation, userId: string | null): Promise<void> {
  const t = currentTenantId();
  const now = new Date();
  const installmentIds = calc.slips.flatMap((s) => s.details.loans.flatMap((l) => l.installment_ids));
  const loanIds = [...new Set(calc.slips.flatMap((s) => s.details.loans.map((l) => l.loan_id)))];
  const claimIds = calc.slips.flatMap((s) => s.details.reimbursements.map((c) => c.claim_id));
  const priced = calc.slips.flatMap((s) => s.details.encashments.map((x) => ({ id: x.encashment_id, amount: x.amount })));
  if (installmentIds.length) {
    await tx.$executeRaw`UPDATE loan_installments SET status = 'paid', paid_run_id = ${run.id}::uuid, paid_at = ${now} WHERE tenant_id = ${t}::uuid AND id = ANY(${installmentIds}::uuid[])`;
    await tx.$executeRaw`
      UPDATE loan_advances l
         SET repaid_amount = p.paid, updated_at = ${now},
             status = CASE WHEN p.pending = 0 THEN 'closed' ELSE 'active' END,
             closed_at = CASE WHEN p.pending = 0 THEN ${now}::timestamptz ELSE NULL END
        FROM (SELECT loan_id, COALESCE(sum(amount) FILTER (WHERE status = 'paid'), 0) AS paid, count(*) FILTER (WHERE status = 'pending') AS pending
                FROM loan_installments WHERE tenant_id = ${t}::uuid AND loan_id = ANY(${loanIds}::uuid[]) GROUP BY loan_id) p
       WHERE l.tenant_id = ${t}::uuid AND l.id = p.loan_id`;
  }
  if (claimIds.length)
    await tx.$executeRaw`UPDATE expense_claims SET status = 'paid', paid_run_id = ${run.id}::uuid, paid_at = ${now}, updated_at = ${now} WHERE tenant_id = ${t}::uuid AND id = ANY(${claimIds}::uuid[])`;
  if (priced.length)
    await tx.$executeRaw`
      UPDATE leave_encashments e SET amount = x.amount, updated_at = ${now}
        FROM jsonb_to_recordset(${JSON.stringify(priced)}::jsonb) AS x(id uuid, amount numeric)
       WHERE e.tenant_id = ${t}::uuid AND e.id = x.id`;
  await tx.payrollRun.update({ where: { id: run.id }, data: { status: "processed", processed_at: now, processed_by: userId, failure_reason: null } });
  const label = new Date(Date.UTC(run.period_year, run.period_month - 1, 1)).toLocaleString("en-GB", { month: "long", year: "numeric", timeZone: "UTC" });
  await tx.$executeRaw`
    INSERT INTO notifications (tenant_id, user_id, kind, title, link)
    SELECT m.tenant_id, m.user_id, 'payroll.slip_ready', ${`Your salary slip for ${label} is ready`}, ${`/api/payroll/my-salary/${run.id}`}
      FROM memberships m JOIN payroll_slips s ON s.tenant_id = m.tenant_id AND s.employee_id = m.employee_id
     WHERE m.tenant_id = ${t}::uuid AND s.run_id = ${run.id}::uuid`;
}
