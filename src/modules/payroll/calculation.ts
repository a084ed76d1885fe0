// Calculating a payroll run, set-based: every input of the run is read in a fixed number of
// queries (employees with their salary setup in force, setup lines, components, leave, attendance,
// holidays, ESI coverage, loan installments, claims, encashments), every employee is computed in
// memory (compute.ts), and the slips are written batch by batch (`PAYROLL_BATCH_SIZE` employees
// per INSERT … SELECT FROM jsonb_to_recordset): while PostgreSQL writes one batch, the next one
// is computed, and each written batch can report progress. The number of round trips grows only
// with the number of batches. Processing then pays what the slips deduct and reimburse.
import { config } from "../../config.ts";
import { advisoryLock } from "../../db/sql.ts";
import { db, type ScopedTx, byId } from "../../db/tenancy.ts";
import { addDays, type DateString, toDateString, weekday } from "../../lib/dates.ts";
import { Decimal } from "../../lib/money.ts";
import { mapYielding, stringifyYielding } from "../../lib/yielding.ts";
import { absencesBetween } from "../attendance/index.ts";
import { lastWorkingDays } from "../employees/index.ts";
import { approvedLeaveBetween, encashmentsToPay, mandatoryHolidaysBetween, priceEncashments } from "../leave/index.ts";
import { loadAttendanceSettings } from "../shared/work-settings.ts";
import { badRequest } from "../../platform/errors.ts";
import {
  AmountOutOfRange,
  assertFits,
  buildStructure,
  computeSlip,
  esiPeriodAnchor,
  LARGEST_TOTAL,
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
  type SetupPeriod,
  type SlipResult,
  type StatutorySettings,
} from "./compute.ts";
import {
  claimsDue,
  countEmployeesWithoutSetup,
  countPaidEmployees,
  deleteSlips,
  type Eligibility,
  insertSlips,
  installmentsDue,
  markClaimsPaid,
  markInstallmentsPaid,
  notifySlipOwners,
  paidEmployees,
  type PaidEmployeeRow,
  settleLoans,
  setupLines,
  type SetupColumns,
  setupsInForceBetween,
  setupsInForceOn,
} from "./queries/calculation.ts";
import { readSettings } from "./statutory.ts";
import { componentDef } from "./components.ts";
import * as clock from "../../lib/clock.ts";

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

/** Large runs: a calculation or processing may take longer than the default transaction limit. */
export const RUN_TX = { timeout: 600_000 };

/** The statuses of a run that a background job is working on. */
export const BUSY_STATUSES = ["calculating", "processing"] as const;
export const isBusy = (status: string) => (BUSY_STATUSES as readonly string[]).includes(status);

const ds = (d: Date | null) => (d ? toDateString(d) : null);
const endOfMonth = (d: DateString) => monthBounds(Number(d.slice(0, 4)), Number(d.slice(5, 7))).end;

export async function loadStatutory(): Promise<StatutorySettings> {
  const [pf, esi, pt, gratuity, wages] = await Promise.all([
    readSettings("pf"),
    readSettings("esi"),
    readSettings("pt"),
    readSettings("gratuity"),
    readSettings("wages"),
  ]);
  return { pf, esi, pt, gratuity, wages };
}

export async function loadComponents(client: Pick<ScopedTx, "salaryComponent"> = db): Promise<ComponentDef[]> {
  const rows = await client.salaryComponent.findMany({ orderBy: [{ position: "asc" }, { code: "asc" }] });
  return rows.map(componentDef);
}

/** Who a run of this month pays: its month, its employee filter and every exit on record. */
async function eligibility(client: Pick<ScopedTx, "employeeExit">, run: Omit<RunRef, "id">): Promise<Eligibility> {
  const { start, end } = monthBounds(run.period_year, run.period_month);
  return { start, end, employee_ids: run.employee_ids, exits: await lastWorkingDays(client) };
}

/** Eligible employees of the run with a salary setup in force (what a calculation would pay). */
export async function countRunEmployees(run: Omit<RunRef, "id">): Promise<number> {
  return countPaidEmployees(db, await eligibility(db, run));
}

/** Everything a calculation needs, read in a fixed number of queries; `slipOf` computes one employee. */
interface RunInputs {
  employees: PaidEmployeeRow[];
  employees_without_setup: number;
  structure: ReturnType<typeof buildStructure>;
  settings: StatutorySettings;
  slipOf: (e: PaidEmployeeRow) => SlipResult;
}

/** `salaryOnly`: the month's salary without loan installments, claims and encashments (the final settlement's own). */
async function loadRunInputs(tx: ScopedTx, run: RunRef, opts: { salaryOnly?: boolean } = {}): Promise<RunInputs> {
  const who = await eligibility(tx, run);
  const { start, end } = who;
  const settings = await loadStatutory();
  const components = await loadComponents(tx);
  const attendanceSettings = await loadAttendanceSettings(tx);
  const employees = await paidEmployees(tx, who);
  const withoutSetup = await countEmployeesWithoutSetup(tx, who);
  const empIds = employees.map((e) => e.id);
  // the setups at joining (EPS eligibility) and at the start of the ESI contribution period (coverage)
  const atJoining = await setupsInForceOn(
    tx,
    employees.map((e) => ({ employee_id: e.id, date: toDateString(e.joining_date) })),
  );
  const atEsiStart = await setupsInForceOn(
    tx,
    employees.map((e) => ({ employee_id: e.id, date: esiPeriodAnchor(run.period_year, run.period_month, toDateString(e.joining_date)) })),
  );
  // every setup in force during each employee's days of the month (a revision within it is prorated)
  const rangeOf = (e: PaidEmployeeRow) => {
    const joining = toDateString(e.joining_date);
    const lwd = ds(e.last_working_day);
    return { from: joining > start ? joining : start, to: lwd && lwd < end ? lwd : end };
  };
  const inMonth = await setupsInForceBetween(
    tx,
    employees.map((e) => ({ employee_id: e.id, ...rangeOf(e) })),
  );
  const setupIds = [
    ...new Set([
      ...employees.map((e) => e.setup_id),
      ...atJoining.map((s) => s.setup_id),
      ...atEsiStart.map((s) => s.setup_id),
      ...inMonth.map((s) => s.setup_id),
    ]),
  ];

  const lines = await setupLines(tx, setupIds);
  const leave = await approvedLeaveBetween(tx, empIds, start, end);
  const attendance = await absencesBetween(tx, empIds, start, end);
  const holidays = await mandatoryHolidaysBetween(tx, start, end);
  const installments = opts.salaryOnly ? [] : await installmentsDue(tx, start, empIds);
  const claims = opts.salaryOnly ? [] : await claimsDue(tx, end, empIds);
  const encashments = opts.salaryOnly ? [] : await encashmentsToPay(tx, empIds);

  const group = <T extends { employee_id: string }>(rows: T[]) => {
    const m = new Map<string, T[]>();
    for (const r of rows) (m.get(r.employee_id) ?? m.set(r.employee_id, []).get(r.employee_id)!).push(r);
    return m;
  };
  const linesBySetup = new Map<string, Map<string, string | null>>();
  for (const l of lines)
    (linesBySetup.get(l.setup_id) ?? linesBySetup.set(l.setup_id, new Map()).get(l.setup_id)!).set(l.component_id, l.amount);
  const leaveBy = group(leave);
  const setupsBy = group(inMonth);
  const attBy = group(attendance);
  const setupInput = (r: SetupColumns) => ({
    monthly_ctc: r.monthly_ctc,
    all_components: r.all_components,
    pf_enabled: r.pf_enabled,
    eps_enabled: r.eps_enabled,
    esi_enabled: r.esi_enabled,
    pt_enabled: r.pt_enabled,
    pt_state: r.pt_state,
    disabled: r.disabled,
    existing_eps_member: r.existing_eps_member,
    lines: linesBySetup.get(r.setup_id) ?? new Map(),
  });
  // the wage at joining is known when a setup was in force on the date of joining or began within
  // the month of joining; a first setup from a later month (data entered long after joining) says
  // nothing about it, and then only `eps_enabled` and the age decide EPS
  const joinedMonthEnd = new Map(employees.map((e) => [e.id, endOfMonth(toDateString(e.joining_date))]));
  const joiningSetup = new Map(
    atJoining.filter((r) => r.effective_from <= joinedMonthEnd.get(r.employee_id)!).map((r) => [r.employee_id, setupInput(r)]),
  );
  const esiStartSetup = new Map(atEsiStart.map((r) => [r.employee_id, setupInput(r)]));
  const loansBy = new Map<string, LoanDue[]>();
  for (const i of installments) {
    const list = loansBy.get(i.employee_id) ?? loansBy.set(i.employee_id, []).get(i.employee_id)!;
    let l = list.find((x) => x.loan_id === i.loan_id);
    if (!l) {
      l = { loan_id: i.loan_id, loan_number: i.loan_number, installment_ids: [], amount: "0.00" };
      list.push(l);
    }
    l.installment_ids.push(i.id);
    l.amount = new Decimal(l.amount).plus(i.amount).toFixed(2);
  }
  const claimsBy = new Map<string, ClaimDue[]>();
  for (const c of claims)
    (claimsBy.get(c.employee_id) ?? claimsBy.set(c.employee_id, []).get(c.employee_id)!).push({
      claim_id: c.id,
      claim_number: c.claim_number,
      category: c.category,
      amount: c.amount,
    });
  const encBy = new Map<string, EncashmentDue[]>();
  for (const x of encashments)
    (encBy.get(x.employee_id) ?? encBy.set(x.employee_id, []).get(x.employee_id)!).push({
      encashment_id: x.id,
      leave_type: x.leave_type,
      days: x.days,
    });
  const weeklyOffs = new Set(attendanceSettings.weekly_offs);

  const structure = buildStructure(components);
  const prepared = prepareSettings(settings);
  const period = { year: run.period_year, month: run.period_month, start, end };
  const slipOf = (e: PaidEmployeeRow): SlipResult => {
    const joining = toDateString(e.joining_date);
    const lwd = ds(e.last_working_day);
    const from = joining > start ? joining : start;
    const to = lwd && lwd < end ? lwd : end;
    const hols = new Set(
      holidays
        .filter(
          (h) =>
            (h.branch_id === null || h.branch_id === e.branch_id) &&
            (h.work_location_id === null || h.work_location_id === e.work_location_id),
        )
        .map((h) => h.date),
    );
    const spans: LeaveSpan[] = (leaveBy.get(e.id) ?? []).map((l) => ({
      from: l.from,
      to: l.to,
      half_day_start: l.half_day_start,
      half_day_end: l.half_day_end,
      days: l.days,
      is_paid: l.is_paid,
    }));
    const isOff = (d: DateString) => weeklyOffs.has(weekday(d)) || hols.has(d);
    const lop = lossOfPay(from, to, spans, attBy.get(e.id) ?? [], isOff);
    // a revision within the month: the parts of [from, to] each setup was in force, each with its loss of pay
    // (the first setup of the month also covers the days before it when none was in force on `from`)
    const inForce = setupsBy.get(e.id) ?? [];
    const periods: SetupPeriod[] | undefined =
      inForce.length > 1
        ? inForce.map((s, i) => {
            const pFrom = i === 0 ? from : s.effective_from;
            const pTo = i === inForce.length - 1 ? to : addDays(inForce[i + 1].effective_from, -1);
            const partLop = lossOfPay(pFrom, pTo, spans, attBy.get(e.id) ?? [], isOff);
            return {
              effective_from: s.effective_from,
              from: pFrom,
              to: pTo,
              setup: setupInput(s),
              leave_lop_days: partLop.leave,
              absent_days: partLop.absent,
            };
          })
        : undefined;
    return slipOrRefusal(e, () =>
      computeSlip(
        structure,
        settings,
        period,
        {
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
          setup: setupInput(e),
          leave_lop_days: periods ? periods.reduce((n, p) => n.plus(p.leave_lop_days), new Decimal(0)) : lop.leave,
          absent_days: periods ? periods.reduce((n, p) => n.plus(p.absent_days), new Decimal(0)) : lop.absent,
          setup_at_joining: joiningSetup.get(e.id) ?? null,
          setup_at_esi_period_start: esiStartSetup.get(e.id) ?? null,
          loans: loansBy.get(e.id) ?? [],
          claims: claimsBy.get(e.id) ?? [],
          encashments: encBy.get(e.id) ?? [],
          setup_periods: periods,
        },
        prepared,
      ),
    );
  };
  return { employees, employees_without_setup: withoutSetup, structure, settings, slipOf };
}

/** No run: the id given for the ESI look-back of a calculation outside a run (no run has it). */
const NO_RUN = "00000000-0000-0000-0000-000000000000";

/**
 * One employee's salary of a month as a run would calculate it (loss of pay, PF, ESI, PT), without
 * loan installments, claims and encashments: the final settlement's last month. Null when the
 * employee is not paid that month (no salary setup in force by its end). Its `code_wages` hold
 * the settlement's wage (the labour codes' wage, or basic + DA, by the rule of its last day).
 */
export async function employeeMonthSalary(
  tx: ScopedTx,
  employeeId: string,
  year: number,
  month: number,
): Promise<{ slip: SlipResult } | null> {
  const inputs = await loadRunInputs(
    tx,
    { id: NO_RUN, period_year: year, period_month: month, employee_ids: [employeeId] },
    { salaryOnly: true },
  );
  const row = inputs.employees.find((e) => e.id === employeeId);
  return row ? { slip: inputs.slipOf(row) } : null;
}

/** The employee's slip, or a 400 naming the employee and the figure that does not fit (AmountOutOfRange). */
function slipOrRefusal(e: Pick<PaidEmployeeRow, "employee_code" | "first_name" | "last_name">, compute: () => SlipResult): SlipResult {
  try {
    return compute();
  } catch (err) {
    if (!(err instanceof AmountOutOfRange)) throw err;
    throw badRequest(
      `The salary of ${e.employee_code} (${`${e.first_name} ${e.last_name}`.trim()}) cannot be calculated: ${err.message}. ` +
        "Correct the employee's salary setup or the component's formula, or leave the employee out of the run (employee_ids)",
    );
  }
}

/** A 400 when a total of the run would be more than a run can show (LARGEST_TOTAL). */
function assertTotalsFit(t: RunTotals): void {
  try {
    assertFits(
      (["gross", "total_deductions", "net_pay", "reimbursements", "leave_encashment", "loan_deductions", "employer_cost"] as const).map(
        (k) => [`the run's ${k.replace(/_/g, " ")}`, new Decimal(t[k])],
      ),
      LARGEST_TOTAL,
    );
  } catch (err) {
    if (!(err instanceof AmountOutOfRange)) throw err;
    throw badRequest(`The run cannot be calculated: ${err.message}. Split it into runs of fewer employees (employee_ids)`);
  }
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
export const slipNumberPrefix = (run: { period_year: number; period_month: number }) =>
  `PS-${run.period_year}${String(run.period_month).padStart(2, "0")}-`;

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
  const inputs = await loadRunInputs(tx, run);
  const total = inputs.employees.length;
  const size = config().payrollBatchSize;
  await opts.onProgress?.(0, total);
  await deleteSlips(tx, run.id);
  const slips: SlipResult[] = [];
  const totals = totalsOf(inputs.structure, inputs.settings.pf);
  let writing: Promise<unknown> | null = null;
  for (let i = 0; i < total; i += size) {
    // computed employee by employee, and the batch's JSON built row by row, with a turn of the
    // event loop every few ms: thousands of employees with long formulas are seconds of decimal
    // arithmetic, which in one go would hold every other request of every tenant (scripts/measure/event-loop.ts)
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
    // the INSERT starts now; the next batch is computed meanwhile
    const started = insertSlips(tx, run.id, rows);
    started.catch(() => {}); // awaited below; a failure must not count as unhandled meanwhile
    writing = started;
    await new Promise((r) => setImmediate(r)); // let the statement go out before computing
    slips.push(...batch);
  }
  if (writing) await writing;
  if (total) await opts.onProgress?.(total, total);
  const runTotalsResult = totals.result();
  assertTotalsFit(runTotalsResult);
  await tx.payrollRun.update({
    where: byId(run.id),
    data: {
      employee_count: runTotalsResult.employee_count,
      total_gross: runTotalsResult.gross,
      total_deductions: runTotalsResult.total_deductions,
      total_net: runTotalsResult.net_pay,
      totals: { ...runTotalsResult, employees_without_setup: inputs.employees_without_setup },
      calculated_at: clock.now(),
      progress_processed: total,
      progress_total: total,
    },
  });
  return { slips, totals: runTotalsResult, employees_without_setup: inputs.employees_without_setup };
}

/** Serialises calculation and processing of a tenant's runs (a claim or installment is never paid twice). */
export async function lockPayroll(tx: ScopedTx): Promise<void> {
  await advisoryLock(tx, "payroll");
}

/**
 * Finalises a run whose slips were just stored with their numbers (calculateAndStore with
 * `slipPrefix`) inside the caller's transaction: installments paid (loans active/closed), claims
 * paid, encashments priced, the run processed, slip notifications - set-based.
 */
export async function finalizeRun(
  tx: ScopedTx,
  run: { id: string; period_year: number; period_month: number },
  calc: Calculation,
  userId: string | null,
): Promise<void> {
  const now = clock.now();
  const installmentIds = calc.slips.flatMap((s) => s.details.loans.flatMap((l) => l.installment_ids));
  const loanIds = [...new Set(calc.slips.flatMap((s) => s.details.loans.map((l) => l.loan_id)))];
  const claimIds = calc.slips.flatMap((s) => s.details.reimbursements.map((c) => c.claim_id));
  const priced = calc.slips.flatMap((s) => s.details.encashments.map((x) => ({ id: x.encashment_id, amount: x.amount })));
  if (installmentIds.length) {
    await markInstallmentsPaid(tx, run.id, installmentIds, now);
    await settleLoans(tx, loanIds, now);
  }
  if (claimIds.length) await markClaimsPaid(tx, run.id, claimIds, now);
  // encashments are priced by the run that pays them
  await priceEncashments(tx, priced, now);
  await tx.payrollRun.update({
    where: byId(run.id),
    data: { status: "processed", processed_at: now, processed_by: userId, failure_reason: null },
  });
  const label = new Date(Date.UTC(run.period_year, run.period_month - 1, 1)).toLocaleString("en-GB", {
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });
  await notifySlipOwners(tx, run.id, `Your salary slip for ${label} is ready`, `/api/payroll/my-salary/${run.id}`);
}

/** The audit entry's changes of a processed run. */
export function processedChanges(from: string, calc: Calculation) {
  return {
    status: { from, to: "processed" },
    employees: calc.totals.employee_count,
    gross: calc.totals.gross,
    net_pay: calc.totals.net_pay,
    loan_installments_paid: calc.slips.reduce((n, s) => n + s.details.loans.reduce((m, l) => m + l.installment_ids.length, 0), 0),
    expense_claims_paid: calc.slips.reduce((n, s) => n + s.details.reimbursements.length, 0),
    leave_encashments_paid: calc.slips.reduce((n, s) => n + s.details.encashments.length, 0),
  };
}
