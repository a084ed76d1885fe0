// Everything a payroll calculation needs, read set-based: the company's facts once, then a fixed number
// of queries per batch of employees, and `forBatch`'s function computing each slip in memory (compute.ts).
import type { RunRef } from "./calculation.ts";
import { db, type ScopedTx } from "../../db/tenancy.ts";
import { addDays, type DateString, toDateString, weekday } from "../../lib/dates.ts";
import { Decimal } from "../../lib/money.ts";
import { absencesBetween } from "../attendance/index.ts";
import { lastWorkingDays } from "../employees/index.ts";
import { approvedLeaveBetween, encashmentsToPay, mandatoryHolidaysBetween } from "../leave/index.ts";
import { loadAttendanceSettings } from "../shared/work-settings.ts";
import { badRequest } from "../../platform/errors.ts";
import {
  AmountOutOfRange,
  buildStructure,
  computeSlip,
  esiPeriodAnchor,
  lossOfPay,
  monthBounds,
  prepareSettings,
  type ClaimDue,
  type ComponentDef,
  type EncashmentDue,
  type LeaveSpan,
  type LoanDue,
  type SetupPeriod,
  type SlipResult,
  type StatutorySettings,
} from "./compute.ts";
import {
  claimsDue,
  countEmployeesWithoutSetup,
  countPaidEmployees,
  type Eligibility,
  installmentsDue,
  paidEmployees,
  type PaidEmployeeRow,
  setupLines,
  type SetupColumns,
  setupsInForceBetween,
  setupsInForceOn,
} from "./queries/calculation.ts";
import { readSettings } from "./statutory.ts";
import { componentDef } from "./components.ts";
import { runIncomeTax } from "./income-tax/year.ts";
import { InputsDigest } from "./inputs-digest.ts";

export const ds = (d: Date | null) => (d ? toDateString(d) : null);
export const endOfMonth = (d: DateString) => monthBounds(Number(d.slice(0, 4)), Number(d.slice(5, 7))).end;

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
export async function eligibility(client: Pick<ScopedTx, "employeeExit">, run: Omit<RunRef, "id">): Promise<Eligibility> {
  const { start, end } = monthBounds(run.period_year, run.period_month);
  return { start, end, employee_ids: run.employee_ids, exits: await lastWorkingDays(client) };
}

/** Company facts once, employees a page and their facts a batch at a time: memory grows with a batch, not the company. */
export interface RunInputs {
  /** The employees the run pays, as counted when the inputs were read (for progress). */
  total: number;
  /** The employees the run pays, read a page of `size` at a time in employee-code order. */
  pages: (size: number) => AsyncGenerator<PaidEmployeeRow[]>;
  /** The digest of the company-wide facts read (inputs-digest.ts). */
  digest: string;
  employees_without_setup: number;
  structure: ReturnType<typeof buildStructure>;
  settings: StatutorySettings;
  /** Reads the facts of these employees (of `employees`): what computes each one's slip, and the digest of those facts. */
  forBatch: (batch: PaidEmployeeRow[]) => Promise<BatchInputs>;
}

export interface BatchInputs {
  slipOf: (e: PaidEmployeeRow) => SlipResult;
  /** Every row the batch's slips are computed from, as one digest (inputs-digest.ts). */
  digest: string;
  /** The employees with loan installments, claims or encashments due: the only slips that can pay any. */
  payers: string[];
}

/**
 * `salaryOnly`: the month's salary without loan installments, claims and encashments (the final settlement's own).
 * `digestOnly`: the inputs read only to be digested (processing a draft): no slip can be computed from them.
 */
type InputsOptions = { salaryOnly?: boolean; digestOnly?: boolean };

export async function loadRunInputs(tx: ScopedTx, run: RunRef, opts: InputsOptions = {}): Promise<RunInputs> {
  const who = await eligibility(tx, run);
  const { start, end } = who;
  const settings = await loadStatutory();
  const components = await loadComponents(tx);
  const attendanceSettings = await loadAttendanceSettings(tx);
  const total = await countPaidEmployees(tx, who);
  const withoutSetup = await countEmployeesWithoutSetup(tx, who);
  const holidays = await mandatoryHolidaysBetween(tx, start, end);
  const structure = buildStructure(components);
  const prepared = prepareSettings(settings);
  const digest = new InputsDigest()
    .add("run", [run.period_year, run.period_month, run.employee_ids.join(), !!opts.salaryOnly].join(" "))
    .add("exits", who.exits)
    .add("holidays", holidays)
    .add("company", { settings, components, attendanceSettings, withoutSetup })
    .end();
  const weeklyOffs = new Set(attendanceSettings.weekly_offs);
  const forBatch = async (batch: PaidEmployeeRow[]) => {
    const f = await batchFacts(tx, run, batch, who, opts.salaryOnly);
    // income tax at source (India): the year's facts of these employees (year to date in one query)
    const period = { ...run, period_end: end };
    const tax = opts.salaryOnly ? null : await runIncomeTax(tx, period, batch, components, f.digest, opts.digestOnly);
    if (opts.digestOnly) return { slipOf: digestOnly, digest: f.digest.end(), payers: payersOf(f) };
    const setupInput = setupInputOf(f.lines);
    // a first setup from after the month of joining says nothing of the wage at joining: EPS by `eps_enabled` and age
    const joinedMonthEnd = new Map(batch.map((e) => [e.id, endOfMonth(toDateString(e.joining_date))]));
    const salaryOf = slipCalculator({
      structure,
      settings,
      prepared,
      period: { year: run.period_year, month: run.period_month, start, end },
      weeklyOffs,
      holidays,
      setupInput,
      leaveBy: byEmployee(f.leave),
      setupsBy: byEmployee(f.setups.inMonth),
      attBy: byEmployee(f.attendance),
      joiningSetup: new Map(
        f.setups.atJoining.filter((r) => r.effective_from <= joinedMonthEnd.get(r.employee_id)!).map((r) => [r.employee_id, setupInput(r)]),
      ),
      esiStartSetup: new Map(f.setups.atEsiStart.map((r) => [r.employee_id, setupInput(r)])),
      loansBy: loansByEmployee(f.installments),
      claimsBy: byEmployee(f.claims, (c) => ({ claim_id: c.id, claim_number: c.claim_number, category: c.category, amount: c.amount })),
      encBy: byEmployee(f.encashments, (x) => ({ encashment_id: x.id, leave_type: x.leave_type, days: x.days })),
    });
    const payers = payersOf(f);
    if (!tax) return { slipOf: salaryOf, digest: f.digest.end(), payers };
    const slipOf = (e: PaidEmployeeRow) => {
      const slip = salaryOf(e);
      tax.apply(slip, e);
      return slip;
    };
    return { slipOf, digest: f.digest.end(), payers };
  };
  const pages = (size: number) => employeePages(tx, who, size);
  return { total, pages, digest, employees_without_setup: withoutSetup, structure, settings, forBatch };
}

const digestOnly = (): never => {
  throw new Error("The run's inputs were read only to be digested");
};

/** The employees with loan installments, claims or encashments due. */
const payersOf = (f: Awaited<ReturnType<typeof batchFacts>>) => [
  ...new Set([...f.installments, ...f.claims, ...f.encashments].map((r) => r.employee_id)),
];

/** The employees paid, a page of `size` at a time in employee-code order. */
async function* employeePages(tx: ScopedTx, who: Eligibility, size: number) {
  for (let after: string | null = null; ; ) {
    const page = await paidEmployees(tx, who, after, size);
    if (page.length) yield page;
    if (page.length < size) return;
    after = page[page.length - 1].employee_code;
  }
}

/** A batch's own facts (a fixed number of queries whatever its size), and the digest of every row read. */
async function batchFacts(tx: ScopedTx, run: RunRef, batch: PaidEmployeeRow[], { start, end }: Eligibility, salaryOnly = false) {
  const empIds = batch.map((e) => e.id);
  const setups = await setupsOfMonth(tx, run, batch, start, end);
  const lines = await setupLines(tx, setups.setupIds);
  const leave = await approvedLeaveBetween(tx, empIds, start, end);
  const attendance = await absencesBetween(tx, empIds, start, end);
  const installments = salaryOnly ? [] : await installmentsDue(tx, start, empIds);
  const claims = salaryOnly ? [] : await claimsDue(tx, end, empIds);
  const encashments = salaryOnly ? [] : await encashmentsToPay(tx, empIds);
  const digest = new InputsDigest()
    .add("employees", batch)
    .add("setups at joining", setups.atJoining)
    .add("setups at the ESI period's start", setups.atEsiStart)
    .add("setups in the month", setups.inMonth)
    .add("lines", lines)
    .add("leave", leave)
    .add("attendance", attendance)
    .add("installments", installments)
    .add("claims", claims)
    .add("encashments", encashments);
  return { setups, lines, leave, attendance, installments, claims, encashments, digest };
}

/** The rows of each employee (mapped by `as`), in their order. */
function byEmployee<T extends { employee_id: string }, U = T>(rows: T[], as: (r: T) => U = (r) => r as unknown as U): Map<string, U[]> {
  const m = new Map<string, U[]>();
  for (const r of rows) (m.get(r.employee_id) ?? m.set(r.employee_id, []).get(r.employee_id)!).push(as(r));
  return m;
}

/** The setups at joining (EPS), at the ESI period's start (coverage) and in force in the month (prorated revisions). */
async function setupsOfMonth(tx: ScopedTx, run: RunRef, employees: PaidEmployeeRow[], start: DateString, end: DateString) {
  const atJoining = await setupsInForceOn(
    tx,
    employees.map((e) => ({ employee_id: e.id, date: toDateString(e.joining_date) })),
  );
  const atEsiStart = await setupsInForceOn(
    tx,
    employees.map((e) => ({ employee_id: e.id, date: esiPeriodAnchor(run.period_year, run.period_month, toDateString(e.joining_date)) })),
  );
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
  return { atJoining, atEsiStart, inMonth, setupIds };
}

type SetupInput = ReturnType<ReturnType<typeof setupInputOf>>;

/** A setup row as computeSlip takes it, with its lines (`lines`: the lines of every setup read). */
function setupInputOf(lines: Awaited<ReturnType<typeof setupLines>>) {
  const linesBySetup = new Map<string, Map<string, string | null>>();
  for (const l of lines)
    (linesBySetup.get(l.setup_id) ?? linesBySetup.set(l.setup_id, new Map()).get(l.setup_id)!).set(l.component_id, l.amount);
  return (r: SetupColumns) => ({
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
}

/** The installments due of each employee, by loan. */
function loansByEmployee(installments: Awaited<ReturnType<typeof installmentsDue>>): Map<string, LoanDue[]> {
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
  return loansBy;
}

/** What slipOf computes a slip from: the run's inputs, by employee. */
interface SlipSources {
  structure: ReturnType<typeof buildStructure>;
  settings: StatutorySettings;
  prepared: ReturnType<typeof prepareSettings>;
  period: { year: number; month: number; start: DateString; end: DateString };
  weeklyOffs: Set<number>;
  holidays: Awaited<ReturnType<typeof mandatoryHolidaysBetween>>;
  setupInput: (r: SetupColumns) => SetupInput;
  leaveBy: Map<string, Awaited<ReturnType<typeof approvedLeaveBetween>>>;
  setupsBy: Map<string, Awaited<ReturnType<typeof setupsInForceBetween>>>;
  attBy: Map<string, Awaited<ReturnType<typeof absencesBetween>>>;
  joiningSetup: Map<string, SetupInput>;
  esiStartSetup: Map<string, SetupInput>;
  loansBy: Map<string, LoanDue[]>;
  claimsBy: Map<string, ClaimDue[]>;
  encBy: Map<string, EncashmentDue[]>;
}

/** Computes one employee's slip from the run's inputs (in memory). */
function slipCalculator(s: SlipSources): (e: PaidEmployeeRow) => SlipResult {
  const { start, end } = s.period;
  return (e) => {
    const joining = toDateString(e.joining_date);
    const lwd = ds(e.last_working_day);
    const from = joining > start ? joining : start;
    const to = lwd && lwd < end ? lwd : end;
    const hols = holidaysOf(s.holidays, e);
    const spans: LeaveSpan[] = s.leaveBy.get(e.id) ?? [];
    const isOff = (d: DateString) => s.weeklyOffs.has(weekday(d)) || hols.has(d);
    const absences = s.attBy.get(e.id) ?? [];
    const lop = lossOfPay(from, to, spans, absences, isOff);
    const periods = setupPeriods(
      s.setupsBy.get(e.id) ?? [],
      from,
      to,
      (pFrom, pTo) => lossOfPay(pFrom, pTo, spans, absences, isOff),
      s.setupInput,
    );
    return slipOrRefusal(e, () =>
      computeSlip(
        s.structure,
        s.settings,
        s.period,
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
          setup: s.setupInput(e),
          leave_lop_days: periods ? periods.reduce((n, p) => n.plus(p.leave_lop_days), new Decimal(0)) : lop.leave,
          absent_days: periods ? periods.reduce((n, p) => n.plus(p.absent_days), new Decimal(0)) : lop.absent,
          setup_at_joining: s.joiningSetup.get(e.id) ?? null,
          setup_at_esi_period_start: s.esiStartSetup.get(e.id) ?? null,
          loans: s.loansBy.get(e.id) ?? [],
          claims: s.claimsBy.get(e.id) ?? [],
          encashments: s.encBy.get(e.id) ?? [],
          setup_periods: periods,
        },
        s.prepared,
      ),
    );
  };
}

/** The dates of the mandatory holidays that apply to the employee (their branch's and work location's, and the company's). */
function holidaysOf(holidays: SlipSources["holidays"], e: PaidEmployeeRow): Set<DateString> {
  return new Set(
    holidays
      .filter(
        (h) =>
          (h.branch_id === null || h.branch_id === e.branch_id) &&
          (h.work_location_id === null || h.work_location_id === e.work_location_id),
      )
      .map((h) => h.date),
  );
}

/** Each setup's part of [from, to] with its loss of pay (the first also covers days before it); undefined with one. */
function setupPeriods(
  inForce: Awaited<ReturnType<typeof setupsInForceBetween>>,
  from: DateString,
  to: DateString,
  lossOfPayBetween: (from: DateString, to: DateString) => ReturnType<typeof lossOfPay>,
  setupInput: (r: SetupColumns) => SetupInput,
): SetupPeriod[] | undefined {
  if (inForce.length <= 1) return undefined;
  return inForce.map((s, i) => {
    const pFrom = i === 0 ? from : s.effective_from;
    const pTo = i === inForce.length - 1 ? to : addDays(inForce[i + 1].effective_from, -1);
    const partLop = lossOfPayBetween(pFrom, pTo);
    return {
      effective_from: s.effective_from,
      from: pFrom,
      to: pTo,
      setup: setupInput(s),
      leave_lop_days: partLop.leave,
      absent_days: partLop.absent,
    };
  });
}

/** The employee's slip, or a 400 naming the employee and the figure that does not fit (AmountOutOfRange). */
export function slipOrRefusal(
  e: Pick<PaidEmployeeRow, "employee_code" | "first_name" | "last_name">,
  compute: () => SlipResult,
): SlipResult {
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
