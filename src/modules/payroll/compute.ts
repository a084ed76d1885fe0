// The payroll calculation of one employee for one month - pure, exact decimals, no I/O.
// src/modules/payroll/calculation.ts loads every input of a run in a few set-based queries and calls
// computeSlip() per employee; tests call it directly.
//
// Rules (EPF & MP Act 1952 and its schemes, ESI Act 1948, the states' professional-tax acts, the
// Code on Wages 2019's wage; sources and dates: docs/payroll-wages.md and the document's payroll schemas):
// - Components: full monthly amounts first (fixed: the employee's amount or the component's
//   default; formula: evaluated over the full amounts of the other components and CTC, in
//   dependency order), each rounded to paise and never below zero. Components that depend on
//   payment days are then prorated: full × payable days ÷ calendar days of the month.
// - Payable days = days employed in the month (from joining, up to the last working day) − LOP.
//   LOP = approved unpaid leave days + absent (1) / half-day (0.5) attendance days not covered
//   by approved leave, capped at the days employed.
// - Wages under the labour codes (wages.ts, the WageSettings schema): every slip sums its earnings
//   by `wage_class` - as paid in the month and at full-month amounts - and applies the codes'
//   definition (wages + the excess of the exclusions over 50 % of the remuneration), shown in
//   `code_wages`. The rules are those in force on the slip's last day (pay_end).
// - PF (when enabled for the company and the employee): PF wages = prorated earnings flagged
//   `pf_wage` (basic + DA; EPF & MP Act 1952), or from `pf_code_wages_from` (2026-06-29, EPF Scheme
//   2026) the codes' wage of the month as paid. Employee share = 12 % of min(PF wages, ceiling) (of PF wages when
//   `restrict_to_ceiling` is false), rounded to the rupee. Employer: EPS 8.33 % of min(PF wages,
//   ceiling) rounded to the rupee (≤ ₹1,250); EPF = employer share − EPS. EPS is nil (the whole
//   employer share goes to EPF) when the employee is not eligible for the pension scheme
//   (epsExclusion): set so in the salary setup (`eps_enabled` false); 58 or older on the first
//   day of the month; or a new member from 1 Sep 2014 (joined on or after it, not an existing EPS
//   member from earlier employment) whose full-month PF wages at joining - per the salary setup in
//   force on the date of joining, by the PF rule in force on that date - were above the wage ceiling. EDLI 0.5 % of the capped wages
//   (rupee); admin charges 0.5 % of the PF base (paise; the establishment minimum of ₹500 is
//   applied to the run total).
// - ESI: coverage is decided per contribution period (Apr-Sep, Oct-Mar) by the full-month ESI
//   wages (earnings flagged `esi_applicable`) at the period's start - per the salary setup in
//   force on its first day, or on the date of joining for an employee who joined during it: at
//   most the threshold (₹21,000; ₹25,000 for persons with disability) = covered for the whole
//   period, on full wages even after a raise above the threshold. It never depends on which
//   earlier months were run. Contributions on the month's ESI wages: employee 0.75 %, employer
//   3.25 %, each rounded up to the next rupee; no employee share when the average daily wage is
//   at most ₹176.
// - Professional tax: the slab of the employee's state (setup override, else the employee's
//   state) and gender (slabs of the gender, else "any"; an employee without male/female gender
//   uses the male slabs) for the month's gross; February uses the February amount.
// - Loan installments due up to this month, approved expense claims and approved leave
//   encashments are added; encashment and reimbursements are paid on top of gross and are not
//   PF/ESI/PT wages. A day of leave encashed is worth the daily wage, the day wage ÷ 26: from
//   `code_wages_from` (2025-11-21) the codes' wage of the full month; before it full-month basic +
//   DA (the earnings flagged `pf_wage`, before proration) - the rate the full and final settlement pays
//   leave at (encashmentPay, the one function both use); days × basic + DA ÷ 26 is rounded once per
//   encashment to the paisa (half up), not per day. LOP is a different rule (gross ÷ calendar days).
// - Gratuity provision (only when the gratuity settings' `monthly_provision` is on): the month's
//   wage (the codes' wage of the month from `code_wages_from`, else the PF-wage earnings, basic +
//   DA) × 15/26 ÷ 12, to the paisa, an employer contribution (gratuity.ts).
import { addDays, daysBetween, type DateString } from "../../lib/dates.ts";
import { Decimal } from "../../lib/money.ts";
import { evaluate, evaluationOrder, parseFormula, variablesOf, type Node } from "./formula.ts";
import { gratuityProvision } from "./gratuity.ts";
import type { ESI_DEFAULTS, GRATUITY_DEFAULTS, PF_DEFAULTS, PT_DEFAULTS } from "./statutory.ts";
import {
  addToParts,
  type CodeWageFigures,
  codeWageFigures,
  codeWages,
  noWageParts,
  WAGE_DEFAULTS,
  wageClassOf,
  type WageClass,
  type WageRule,
  wageRuleOn,
  type WageSettings,
} from "./wages.ts";

export interface ComponentDef {
  id: string;
  code: string;
  name: string;
  type: "earning" | "deduction";
  calculation: "fixed" | "formula";
  amount: string | null;
  formula: string | null;
  pf_wage: boolean;
  /** Under the labour codes' definition of wages; absent (a structure built outside the database): from `pf_wage` (wageClassOf). */
  wage_class?: WageClass;
  esi_applicable: boolean;
  depends_on_payment_days: boolean;
  position: number;
  active: boolean;
}

export interface SetupInput {
  monthly_ctc: string | null;
  all_components: boolean;
  pf_enabled: boolean;
  eps_enabled: boolean;
  esi_enabled: boolean;
  pt_enabled: boolean;
  pt_state: string | null;
  disabled: boolean;
  /** Already a member of the pension scheme from earlier employment (EPS applies whatever the joining date and wage). */
  existing_eps_member?: boolean;
  /** component id → the employee's amount (null = the component's default). */
  lines: Map<string, string | null>;
}

export interface PeriodInput {
  year: number;
  month: number;
  start: DateString;
  end: DateString;
}

export interface StatutorySettings {
  pf: typeof PF_DEFAULTS;
  esi: typeof ESI_DEFAULTS;
  pt: typeof PT_DEFAULTS;
  /** Read for the optional monthly gratuity provision (absent: no provision). */
  gratuity?: typeof GRATUITY_DEFAULTS;
  /** The labour codes' wage rule and its dates (absent: the statutory defaults, WAGE_DEFAULTS). */
  wages?: WageSettings;
}

export interface LoanDue {
  loan_id: string;
  loan_number: string;
  installment_ids: string[];
  amount: string;
}
export interface ClaimDue {
  claim_id: string;
  claim_number: string;
  category: string;
  amount: string;
}
export interface EncashmentDue {
  encashment_id: string;
  leave_type: string;
  days: string;
}

export interface EmployeeInput {
  id: string;
  employee_code: string;
  name: string;
  department: string;
  designation: string;
  gender: string | null;
  date_of_birth: DateString | null;
  joining_date: DateString;
  last_working_day: DateString | null;
  state: string | null;
  setup: SetupInput;
  /** Unpaid leave days within the employment range of the month. */
  leave_lop_days: Decimal;
  /** Absent / half-day attendance days within the employment range, not covered by leave. */
  absent_days: Decimal;
  /**
   * The salary setup in force on the date of joining (the earliest one when none was): decides
   * EPS eligibility of a member who joined from 1 Sep 2014. Null = unknown: only `eps_enabled`
   * and the age limit decide (a run always passes it: every employee it pays has a setup).
   */
  setup_at_joining?: SetupInput | null;
  /**
   * The salary setup in force at the start of the month's ESI contribution period (or on the date
   * of joining when the employee joined during the period; the earliest one when none was):
   * decides ESI coverage for the whole period. Null = the setup of the month.
   */
  setup_at_esi_period_start?: SetupInput | null;
  loans: LoanDue[];
  claims: ClaimDue[];
  encashments: EncashmentDue[];
  /**
   * The salary setups in force during the slip's range when more than one was (a revision within
   * the month), in order; `setup` is then the last of them (in force on the slip's last day), and
   * `leave_lop_days` / `absent_days` their totals. Absent or one: `setup` for the whole range.
   */
  setup_periods?: SetupPeriod[];
}

/** A part of a slip's range with one salary setup in force (SalaryPeriod of the document). */
export interface SetupPeriod {
  effective_from: DateString;
  from: DateString;
  to: DateString;
  setup: SetupInput;
  leave_lop_days: Decimal;
  absent_days: Decimal;
}

/** SalaryPeriod of the document: a part of the month paid at one salary setup. */
export interface SalaryPeriodJson {
  effective_from: DateString;
  from: DateString;
  to: DateString;
  days: number;
  lop_days: string;
  payable_days: string;
  monthly_ctc: string | null;
  full_month_gross: string;
  gross: string;
}

export interface Line {
  component_id: string;
  code: string;
  name: string;
  full_amount: string;
  amount: string;
}

export interface SlipResult {
  employee_id: string;
  employee_code: string;
  employee_name: string;
  department: string;
  designation: string;
  pay_start: DateString;
  pay_end: DateString;
  days_in_period: number;
  payable_days: Decimal;
  lop_days: Decimal;
  gross: Decimal;
  total_deductions: Decimal;
  net_pay: Decimal;
  pf_employee: Decimal;
  esi_employee: Decimal;
  professional_tax: Decimal;
  loan_deduction: Decimal;
  reimbursements: Decimal;
  leave_encashment: Decimal;
  employer_cost: Decimal;
  details: SlipDetails;
}

export interface SlipDetails {
  earnings: Line[];
  deductions: Line[];
  full_month_gross: string;
  lop: { leave_days: string; absent_days: string };
  pf: {
    applicable: boolean;
    wages: string;
    base: string;
    employee: string;
    employer_total: string;
    employer_epf: string;
    employer_eps: string;
    edli: string;
    admin_charges: string;
    eps_applicable: boolean;
    eps_exclusion: EpsExclusion | null;
  };
  esi: {
    applicable: boolean;
    covered: boolean;
    wages: string;
    employee: string;
    employer: string;
    /** Full-month ESI wages at the start of the contribution period (what decided `covered`). */
    period_start_wages: string;
  };
  professional_tax: { state: string | null; amount: string };
  loans: LoanDue[];
  reimbursements: ClaimDue[];
  encashments: (EncashmentDue & { amount: string })[];
  employer_contributions: string;
  /** The employer's gratuity provision of the month: present only when the company's monthly provision is on. */
  gratuity_provision?: string;
  /** The slip's wages under the labour codes (absent on slips calculated before they were shown). */
  code_wages?: SlipCodeWages;
  /** Present when more than one salary setup was in force in the slip's range: each part and what it paid. */
  salary_periods?: SalaryPeriodJson[];
  /** The rate leave encashment is paid at on this slip (the company's encashment basis and divisor). */
  encashment_rate?: DayRateJson;
}

/** SlipCodeWages of the document. */
export interface SlipCodeWages extends WageRule {
  code_wages_from: DateString;
  pf_code_wages_from: DateString;
  exclusion_limit_percent: string;
  month: CodeWageFigures;
  full_month: CodeWageFigures;
  day_wage: string;
}

const ZERO = new Decimal(0);

/** Days of a month's wage: the daily wage is the monthly basic + DA ÷ 26 (leave encashment, the settlement's day-based figures). */
export const WAGE_DAYS_PER_MONTH = 26;

/**
 * The monthly wage day-based figures (leave encashment, notice shortfall) and gratuity are priced
 * by: full-month basic + DA, the earnings flagged `pf_wage`. A structure that flags none (a
 * consolidated salary, or one outside India's PF) has no basic + DA of its own: its full-month gross
 * stands in, so an approved encashment never pays nothing.
 */
export function wageForDays(flaggedFull: Decimal.Value, grossFull: Decimal.Value): Decimal {
  const flagged = new Decimal(flaggedFull);
  return flagged.gt(0) ? flagged : new Decimal(grossFull);
}

/**
 * The money for `days` of leave encashed - by a payroll run or by the full and final settlement -
 * at the daily wage: days × `monthlyWage` (full-month basic + DA, the earnings flagged `pf_wage`)
 * ÷ 26, rounded once on the total to the paisa (half up), never per day: 7 days of 25 000 =
 * 6 730.769… → 6 730.77 (not 7 × 961.54 = 6 730.78).
 */
export function encashmentPay(days: Decimal.Value, monthlyWage: Decimal.Value, divisor: number = WAGE_DAYS_PER_MONTH): Decimal {
  return new Decimal(days).times(monthlyWage).div(divisor).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}

/** What a day of leave encashed (and of notice pay) is priced on: the wage (`code_wages`) or the full-month gross. */
export type DayRateBasis = "wage" | "gross";
/** The days a month's pay is divided into for it: 26, 30, or the calendar days of the month. */
export type DayRateDivisor = "26" | "30" | "month_days";

/** DayRate of the document: the monthly amount a day's pay is found from, and its divisor. */
export interface DayRateJson {
  basis: DayRateBasis;
  divisor: DayRateDivisor;
  /** 26, 30 or the days of the month (28-31). */
  divisor_days: number;
  monthly: string;
  /** monthly ÷ divisor_days, rounded to the paisa for show (figures use days × monthly ÷ divisor_days, rounded once). */
  daily: string;
}

/**
 * The day rate of leave encashment and notice pay by the company's wage settings
 * (`encashment_basis`, `encashment_divisor`): the month's wage (`code_wages`: the codes' wage, or
 * basic + DA before them) or its full-month gross, ÷ 26 (the default), 30 or the month's days.
 */
export function dayRate(
  s: { encashment_basis?: string; encashment_divisor?: string },
  wage: Decimal,
  gross: Decimal,
  daysOfMonth: number,
): DayRateJson {
  const basis: DayRateBasis = s.encashment_basis === "gross" ? "gross" : "wage";
  const divisor: DayRateDivisor = s.encashment_divisor === "30" ? "30" : s.encashment_divisor === "month_days" ? "month_days" : "26";
  const divisorDays = divisor === "26" ? WAGE_DAYS_PER_MONTH : divisor === "30" ? 30 : daysOfMonth;
  const monthly = basis === "gross" ? gross : wage;
  return { basis, divisor, divisor_days: divisorDays, monthly: m2(monthly), daily: m2(r2(monthly.div(divisorDays))) };
}

/** The money for `days` at a day rate, rounded once on the total to the paisa (half up). */
export const dayPay = (days: Decimal.Value, rate: Pick<DayRateJson, "monthly" | "divisor_days">): Decimal =>
  encashmentPay(days, rate.monthly, rate.divisor_days);

/**
 * The largest amount a salary figure may be: what a figure's column holds (NUMERIC(14,2)) - a
 * setup's CTC and amounts, a component's full-month result, a slip's figures.
 */
export const LARGEST_AMOUNT = new Decimal("999999999999.99");
/** The largest total of a run: what the document's Money (13 digits) can show (the columns, NUMERIC(16,2), hold more). */
export const LARGEST_TOTAL = new Decimal("9999999999999.99");

/** How a figure too large for its column is shown in a message: exact up to 20 digits, else in powers of ten. */
export const describeAmount = (v: Decimal): string =>
  !v.isFinite() ? "not a finite number" : v.abs().lt("1e20") ? v.toFixed(2) : v.toSignificantDigits(6).toExponential();

/** A figure of a calculation that would not fit: `what` names it (`component HRA`, `gross`). */
export class AmountOutOfRange extends Error {
  constructor(
    readonly what: string,
    readonly value: Decimal,
    readonly largest: Decimal = LARGEST_AMOUNT,
  ) {
    super(`${what} would be ${describeAmount(value)}, more than the largest amount ${largest.toFixed(2)}`);
    this.name = "AmountOutOfRange";
  }
}

/** Whether the figure is a finite number within ±`largest`. */
export const fits = (v: Decimal, largest: Decimal = LARGEST_AMOUNT): boolean => v.isFinite() && v.abs().lte(largest);

/** Throws AmountOutOfRange for the first figure that does not fit. */
export function assertFits(figures: [string, Decimal][], largest: Decimal = LARGEST_AMOUNT): void {
  for (const [what, v] of figures) if (!fits(v, largest)) throw new AmountOutOfRange(what, v, largest);
}

const r2 = (d: Decimal) => d.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
const rupee = (d: Decimal) => d.toDecimalPlaces(0, Decimal.ROUND_HALF_UP);
const rupeeUp = (d: Decimal) => d.toDecimalPlaces(0, Decimal.ROUND_UP);
const pct = (base: Decimal, rate: Decimal.Value) => base.times(rate).div(100);
const m2 = (d: Decimal) => d.toFixed(2);

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function monthBounds(year: number, month: number): { start: DateString; end: DateString } {
  const mm = String(month).padStart(2, "0");
  return { start: `${year}-${mm}-01`, end: `${year}-${mm}-${String(daysInMonth(year, month)).padStart(2, "0")}` };
}

/** First month (1-12, year) of the ESI contribution period containing the month. */
export function esiContributionStart(year: number, month: number): { year: number; month: number } {
  if (month >= 4 && month <= 9) return { year, month: 4 };
  if (month >= 10) return { year, month: 10 };
  return { year: year - 1, month: 10 };
}

/** Age in whole years on a date. */
export function ageOn(dateOfBirth: DateString, on: DateString): number {
  const [by, bm, bd] = dateOfBirth.split("-").map(Number);
  const [y, m, d] = on.split("-").map(Number);
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}

/** The date from which a new EPF member above the wage ceiling at joining cannot join EPS (EPF & MP amendment of 2014). */
export const EPS_NEW_MEMBER_RULE_FROM: DateString = "2014-09-01";

/** The first day the ESI contribution period containing the month covers for the employee: its start, or the joining date. */
export function esiPeriodAnchor(year: number, month: number, joining: DateString): DateString {
  const s = esiContributionStart(year, month);
  const start = monthBounds(s.year, s.month).start;
  return joining > start ? joining : start;
}

/** Why EPS is nil for an employee (null = EPS applies). */
export type EpsExclusion = "not_member" | "age_limit" | "joined_above_wage_ceiling";

/**
 * Full-month PF and ESI wages of a salary setup (before proration): ESI wages are the earnings
 * flagged `esi_applicable`; PF wages by the PF rule in force on `on` (wageRuleOn) - the earnings
 * flagged `pf_wage`, or the labour codes' wage of the full month.
 */
export function setupWages(
  structure: Structure,
  setup: SetupInput,
  on: DateString,
  wages: Pick<PreparedSettings["wages"], "settings" | "limit">,
): { pf: Decimal; esi: Decimal } {
  const full = fullAmounts(structure, setup);
  let pf = ZERO;
  let esi = ZERO;
  const parts = noWageParts();
  for (const c of structure.components) {
    const f = full.get(c.code);
    if (f === undefined || c.type !== "earning") continue;
    if (c.pf_wage) pf = pf.plus(f);
    if (c.esi_applicable) esi = esi.plus(f);
    addToParts(parts, wageClassOf(c), f);
  }
  const rule = wageRuleOn(on, wages.settings, parts.wages.gt(0));
  return { pf: rule.pf_rule === "code" ? codeWages(parts, wages.limit).wage : pf, esi };
}

/**
 * Whether the employee is excluded from EPS in the month (Employees' Pension Scheme 1995, as amended
 * by G.S.R. 609(E) of 22 Aug 2014, in force 1 Sep 2014): not a member per the salary
 * setup; 58 or older on the month's first day; or a new member from 1 Sep 2014 - joined on or after
 * it and not an existing EPS member from earlier employment - whose PF wages at joining were above
 * the wage ceiling.
 */
export function epsExclusion(
  e: Pick<EmployeeInput, "setup" | "date_of_birth" | "joining_date">,
  pfWagesAtJoining: Decimal | null,
  ceiling: Decimal,
  ageLimit: number,
  monthStart: DateString,
): EpsExclusion | null {
  if (!e.setup.eps_enabled) return "not_member";
  if (e.date_of_birth && ageOn(e.date_of_birth, monthStart) >= ageLimit) return "age_limit";
  if (e.joining_date >= EPS_NEW_MEMBER_RULE_FROM && !e.setup.existing_eps_member && pfWagesAtJoining?.gt(ceiling))
    return "joined_above_wage_ceiling";
  return null;
}

/** Parsed formulas of the active components, shared by every employee of a run. */
export interface Structure {
  components: ComponentDef[];
  byCode: Map<string, ComponentDef>;
  parsed: Map<string, Node>;
  deps: Map<string, Set<string>>;
}

export function buildStructure(components: ComponentDef[]): Structure {
  const active = components.filter((c) => c.active).sort((a, b) => a.position - b.position || a.code.localeCompare(b.code));
  const parsed = new Map<string, Node>();
  const deps = new Map<string, Set<string>>();
  for (const c of active) {
    if (c.calculation === "formula" && c.formula) {
      const n = parseFormula(c.formula);
      parsed.set(c.code, n);
      deps.set(c.code, variablesOf(n));
    } else deps.set(c.code, new Set());
  }
  return { components: active, byCode: new Map(active.map((c) => [c.code, c])), parsed, deps };
}

/**
 * Full monthly amounts of the components that apply to an employee (code → amount). A result
 * beyond LARGEST_AMOUNT (or not a number) is an AmountOutOfRange naming the component.
 */
export function fullAmounts(structure: Structure, setup: SetupInput): Map<string, Decimal> {
  const applies = structure.components.filter((c) => setup.all_components || setup.lines.has(c.id));
  const codes = new Set(applies.map((c) => c.code));
  const graph = new Map([...structure.deps].filter(([code]) => codes.has(code)));
  const values = new Map<string, Decimal>();
  const ctc = new Decimal(setup.monthly_ctc ?? 0);
  const lookup = (name: string) => (name === "CTC" ? ctc : (values.get(name) ?? ZERO));
  for (const code of evaluationOrder(graph)) {
    const c = structure.byCode.get(code)!;
    let v: Decimal;
    if (c.calculation === "formula") v = evaluate(structure.parsed.get(code)!, lookup);
    else v = new Decimal(setup.lines.get(c.id) ?? c.amount ?? 0);
    const amount = v.isNaN() ? v : Decimal.max(ZERO, r2(v));
    if (!fits(amount)) throw new AmountOutOfRange(`component ${code}`, amount);
    values.set(code, amount);
  }
  return values;
}

/**
 * The statutory rates, limits and professional-tax slabs as decimals, parsed once for a run
 * instead of once per employee (decimal parsing was the largest cost of computing a slip).
 */
export interface PreparedSettings {
  pf: { ceiling: Decimal; employee: Decimal; employer: Decimal; eps: Decimal; edli: Decimal; admin: Decimal };
  esi: { threshold: Decimal; disabledThreshold: Decimal; lowWage: Decimal; employee: Decimal; employer: Decimal };
  /** state (trimmed, lower case) → the slabs that apply to each gender, in order */
  pt: Map<string, Record<"male" | "female", { min: Decimal; max: Decimal | null; monthly: Decimal; february: Decimal }[]>>;
  /** The labour codes' wage rule: the settings and the exclusion limit in per cent. */
  wages: { settings: WageSettings; limit: Decimal };
}

export function prepareSettings(settings: StatutorySettings): PreparedSettings {
  const d = (v: Decimal.Value) => new Decimal(v);
  const pt: PreparedSettings["pt"] = new Map();
  for (const st of settings.pt.states) {
    const key = st.state.trim().toLowerCase();
    if (pt.has(key)) continue; // the first entry of a state applies
    const forGender = (g: "male" | "female") => {
      const hasGendered = st.slabs.some((s) => s.gender === g);
      return st.slabs
        .filter((s) => (hasGendered ? s.gender === g || s.gender === "any" : s.gender === "any" || s.gender === g))
        .map((s) => ({
          min: d(s.min_salary),
          max: s.max_salary === null ? null : d(s.max_salary),
          monthly: d(s.monthly_amount),
          february: d(s.february_amount),
        }));
    };
    pt.set(key, { male: forGender("male"), female: forGender("female") });
  }
  const { pf, esi } = settings;
  const wages = settings.wages ?? WAGE_DEFAULTS;
  return {
    wages: { settings: wages, limit: d(wages.exclusion_limit_percent) },
    pf: {
      ceiling: d(pf.wage_ceiling),
      employee: d(pf.employee_rate),
      employer: d(pf.employer_rate),
      eps: d(pf.eps_rate),
      edli: d(pf.edli_rate),
      admin: d(pf.admin_charge_rate),
    },
    esi: {
      threshold: d(esi.wage_threshold),
      disabledThreshold: d(esi.disabled_wage_threshold),
      lowWage: d(esi.low_wage_daily_exemption),
      employee: d(esi.employee_rate),
      employer: d(esi.employer_rate),
    },
    pt,
  };
}

function ptAmount(
  enabled: boolean,
  prepared: PreparedSettings["pt"],
  state: string | null,
  gender: string | null,
  salary: Decimal,
  month: number,
): Decimal {
  if (!enabled || !state) return ZERO;
  const st = prepared.get(state.trim().toLowerCase());
  if (!st) return ZERO;
  const slab = st[gender === "female" ? "female" : "male"].find((s) => salary.gte(s.min) && (s.max === null || salary.lte(s.max)));
  if (!slab) return ZERO;
  return month === 2 ? slab.february : slab.monthly;
}

/** One employee's slip; `prepared` (prepareSettings) is passed by callers computing many. */
export function computeSlip(
  structure: Structure,
  settings: StatutorySettings,
  period: PeriodInput,
  e: EmployeeInput,
  prepared: PreparedSettings = prepareSettings(settings),
): SlipResult {
  const dim = daysInMonth(period.year, period.month);
  const payStart = e.joining_date > period.start ? e.joining_date : period.start;
  const payEnd = e.last_working_day && e.last_working_day < period.end ? e.last_working_day : period.end;
  const employed = new Decimal(Math.max(0, daysBetween(payStart, payEnd) + 1));
  // a revision within the month: each setup pays the days it was in force (its own loss of pay)
  const periods = e.setup_periods && e.setup_periods.length > 1 ? e.setup_periods : null;
  const parts = periods?.map((p) => {
    const days = new Decimal(Math.max(0, daysBetween(p.from, p.to) + 1));
    const partLop = Decimal.min(days, p.leave_lop_days.plus(p.absent_days));
    return { p, days, lop: partLop, payable: days.minus(partLop), full: fullAmounts(structure, p.setup) };
  });
  const lop = parts ? parts.reduce((n, x) => n.plus(x.lop), ZERO) : Decimal.min(employed, e.leave_lop_days.plus(e.absent_days));
  const payable = employed.minus(lop);
  const factor = payable.div(dim);
  /**
   * A component's amount of the month: one setup - the full amount × payable days ÷ calendar days
   * (or the full amount when it does not depend on payment days); several - the sum of each
   * setup's full amount × its own payable days ÷ calendar days (× its days ÷ the days employed
   * when it does not depend on payment days), rounded once.
   */
  const amountOf = (c: ComponentDef, f: Decimal | undefined): Decimal => {
    if (!parts) return c.depends_on_payment_days ? r2(f!.times(factor)) : f!;
    let v = ZERO;
    for (const x of parts) {
      const pf = x.full.get(c.code);
      if (pf === undefined) continue;
      v = v.plus(c.depends_on_payment_days ? pf.times(x.payable).div(dim) : employed.gt(0) ? pf.times(x.days).div(employed) : ZERO);
    }
    return r2(v);
  };

  // components
  const full = fullAmounts(structure, e.setup);
  const earnings: Line[] = [];
  const deductions: Line[] = [];
  let gross = ZERO;
  let fullGross = ZERO;
  let componentDeductions = ZERO;
  let pfWages = ZERO;
  let pfWagesFull = ZERO;
  let esiWages = ZERO;
  let esiWagesFull = ZERO;
  const monthParts = noWageParts();
  const fullParts = noWageParts();
  for (const c of structure.components) {
    const inLast = full.get(c.code);
    if (inLast === undefined && !parts?.some((x) => x.full.has(c.code))) continue;
    // the full-month amount is the one of the setup in force on the slip's last day (0 when it has not the component)
    const f = inLast ?? ZERO;
    const amount = amountOf(c, inLast);
    const line = { component_id: c.id, code: c.code, name: c.name, full_amount: m2(f), amount: m2(amount) };
    if (c.type === "earning") {
      earnings.push(line);
      gross = gross.plus(amount);
      fullGross = fullGross.plus(f);
      if (c.pf_wage) {
        pfWages = pfWages.plus(amount);
        pfWagesFull = pfWagesFull.plus(f);
      }
      if (c.esi_applicable) {
        esiWages = esiWages.plus(amount);
        esiWagesFull = esiWagesFull.plus(f);
      }
      const cls = wageClassOf(c);
      addToParts(monthParts, cls, amount);
      addToParts(fullParts, cls, f);
    } else {
      deductions.push(line);
      componentDeductions = componentDeductions.plus(amount);
    }
  }

  // wages under the labour codes: the rules in force on the slip's last day
  const wageS = prepared.wages.settings;
  const rule = wageRuleOn(payEnd, wageS, fullParts.wages.gt(0));
  const monthCode = codeWages(monthParts, prepared.wages.limit);
  const fullCode = codeWages(fullParts, prepared.wages.limit);
  const pfWage = rule.pf_rule === "code" ? monthCode.wage : pfWages;
  // the monthly wage leave encashment days are priced at (÷ 26), and the month's gratuity wage
  const dayWage = rule.rule === "code" ? fullCode.wage : wageForDays(pfWagesFull, fullGross);
  // the rate a day of leave encashed is paid at: the company's basis (this wage, or the full-month gross) ÷ its divisor
  const encashRate = dayRate(wageS, dayWage, fullGross, dim);
  const gratuityWage = rule.rule === "code" ? monthCode.wage : wageForDays(pfWages, gross);

  // PF
  const pfS = settings.pf;
  const pfApplicable = pfS.enabled && e.setup.pf_enabled && pfWage.gt(0);
  let pf = { base: ZERO, employee: ZERO, employerTotal: ZERO, eps: ZERO, epf: ZERO, edli: ZERO, admin: ZERO, epsApplicable: false };
  let epsExcluded: EpsExclusion | null = null;
  if (pfApplicable) {
    const capped = Decimal.min(pfWage, prepared.pf.ceiling);
    const base = pfS.restrict_to_ceiling ? capped : pfWage;
    const employee = rupee(pct(base, prepared.pf.employee));
    const employerTotal = rupee(pct(base, prepared.pf.employer));
    const atJoining = e.setup_at_joining ? setupWages(structure, e.setup_at_joining, e.joining_date, prepared.wages).pf : null;
    epsExcluded = epsExclusion(e, atJoining, prepared.pf.ceiling, pfS.eps_age_limit, period.start);
    const epsApplicable = epsExcluded === null;
    const eps = epsApplicable ? Decimal.min(rupee(pct(capped, prepared.pf.eps)), employerTotal) : ZERO;
    pf = {
      base,
      employee,
      employerTotal,
      eps,
      epf: employerTotal.minus(eps),
      edli: rupee(pct(capped, prepared.pf.edli)),
      admin: r2(pct(base, prepared.pf.admin)),
      epsApplicable,
    };
  }

  // ESI
  const esiS = settings.esi;
  const periodSetup = e.setup_at_esi_period_start ?? e.setup;
  const periodStartWages = e.setup_at_esi_period_start ? setupWages(structure, periodSetup, payEnd, prepared.wages).esi : esiWagesFull;
  const threshold = periodSetup.disabled ? prepared.esi.disabledThreshold : prepared.esi.threshold;
  const esiApplicable = esiS.enabled && e.setup.esi_enabled && esiWages.gt(0);
  const covered = esiApplicable && periodStartWages.lte(threshold);
  const lowWage = esiWagesFull.div(dim).lte(prepared.esi.lowWage);
  const esiEmployee = covered && !lowWage ? rupeeUp(pct(esiWages, prepared.esi.employee)) : ZERO;
  const esiEmployer = covered ? rupeeUp(pct(esiWages, prepared.esi.employer)) : ZERO;

  // professional tax
  const ptState = e.setup.pt_state ?? e.state;
  const pt = e.setup.pt_enabled && gross.gt(0) ? ptAmount(settings.pt.enabled, prepared.pt, ptState, e.gender, gross, period.month) : ZERO;

  // loans, claims, encashments
  const loanDeduction = e.loans.reduce((s, l) => s.plus(l.amount), ZERO);
  const reimbursements = e.claims.reduce((s, c) => s.plus(c.amount), ZERO);
  const encashments = e.encashments.map((x) => ({ ...x, amount: m2(dayPay(x.days, encashRate)) }));
  const encashmentTotal = encashments.reduce((s, x) => s.plus(x.amount), ZERO);

  const totalDeductions = componentDeductions.plus(pf.employee).plus(esiEmployee).plus(pt).plus(loanDeduction);
  const net = gross.minus(totalDeductions).plus(reimbursements).plus(encashmentTotal);
  // the month's gratuity wage: the codes' wage of the month; before them basic + DA as paid this
  // month, or the gross of a consolidated salary (wageForDays)
  const provision = settings.gratuity?.monthly_provision ? gratuityProvision(gratuityWage, settings.gratuity) : null;
  const employerContributions = pf.epf
    .plus(pf.eps)
    .plus(pf.edli)
    .plus(pf.admin)
    .plus(esiEmployer)
    .plus(provision ?? ZERO);
  const employerCost = gross.plus(employerContributions).plus(encashmentTotal).plus(reimbursements);
  // the slip's figures each go into a NUMERIC(14,2) column (the components were checked above)
  assertFits([
    ["gross", gross],
    ["full-month gross", fullGross],
    ["total deductions", totalDeductions],
    ["net pay", net],
    ["reimbursements", reimbursements],
    ["leave encashment", encashmentTotal],
    ["loan deduction", loanDeduction],
    ["employer cost", employerCost],
  ]);

  return {
    employee_id: e.id,
    employee_code: e.employee_code,
    employee_name: e.name,
    department: e.department,
    designation: e.designation,
    pay_start: payStart,
    pay_end: payEnd,
    days_in_period: dim,
    payable_days: payable,
    lop_days: lop,
    gross,
    total_deductions: totalDeductions,
    net_pay: net,
    pf_employee: pf.employee,
    esi_employee: esiEmployee,
    professional_tax: pt,
    loan_deduction: loanDeduction,
    reimbursements,
    leave_encashment: encashmentTotal,
    employer_cost: employerCost,
    details: {
      earnings,
      deductions,
      full_month_gross: m2(fullGross),
      lop: { leave_days: e.leave_lop_days.toFixed(1), absent_days: e.absent_days.toFixed(1) },
      pf: {
        applicable: pfApplicable,
        wages: m2(pfWage),
        base: m2(pf.base),
        employee: m2(pf.employee),
        employer_total: m2(pf.employerTotal),
        employer_epf: m2(pf.epf),
        employer_eps: m2(pf.eps),
        edli: m2(pf.edli),
        admin_charges: m2(pf.admin),
        eps_applicable: pf.epsApplicable,
        eps_exclusion: pfApplicable ? epsExcluded : null,
      },
      esi: {
        applicable: esiApplicable,
        covered,
        wages: m2(esiWages),
        employee: m2(esiEmployee),
        employer: m2(esiEmployer),
        period_start_wages: m2(periodStartWages),
      },
      professional_tax: { state: ptState, amount: m2(pt) },
      loans: e.loans,
      reimbursements: e.claims,
      encashments,
      employer_contributions: m2(employerContributions),
      ...(provision ? { gratuity_provision: m2(provision) } : {}),
      code_wages: {
        ...rule,
        code_wages_from: wageS.code_wages_from,
        pf_code_wages_from: wageS.pf_code_wages_from,
        exclusion_limit_percent: wageS.exclusion_limit_percent,
        month: codeWageFigures(monthCode),
        full_month: codeWageFigures(fullCode),
        day_wage: m2(dayWage),
      },
      encashment_rate: encashRate,
      ...(parts
        ? {
            salary_periods: parts.map((x) => {
              let partGross = ZERO;
              for (const c of structure.components) {
                const pf = x.full.get(c.code);
                if (pf === undefined || c.type !== "earning") continue;
                partGross = partGross.plus(
                  c.depends_on_payment_days ? pf.times(x.payable).div(dim) : employed.gt(0) ? pf.times(x.days).div(employed) : ZERO,
                );
              }
              let partFull = ZERO;
              for (const c of structure.components) if (c.type === "earning") partFull = partFull.plus(x.full.get(c.code) ?? ZERO);
              return {
                effective_from: x.p.effective_from,
                from: x.p.from,
                to: x.p.to,
                days: x.days.toNumber(),
                lop_days: x.lop.toFixed(1),
                payable_days: x.payable.toFixed(1),
                monthly_ctc: x.p.setup.monthly_ctc === null ? null : m2(new Decimal(x.p.setup.monthly_ctc)),
                full_month_gross: m2(partFull),
                gross: m2(r2(partGross)),
              };
            }),
          }
        : {}),
    },
  };
}

export interface RunTotals {
  employee_count: number;
  gross: string;
  total_deductions: string;
  net_pay: string;
  reimbursements: string;
  leave_encashment: string;
  loan_deductions: string;
  employer_cost: string;
  pf: {
    members: number;
    wages: string;
    employee: string;
    employer_epf: string;
    employer_eps: string;
    edli: string;
    admin_charges: string;
    admin_charges_minimum_applied: boolean;
  };
  esi: { members: number; wages: string; employee: string; employer: string };
  professional_tax: string;
  components: { code: string; name: string; type: "earning" | "deduction"; amount: string }[];
}

/** Totals of a run; the PF admin-charge minimum (per establishment per month) is applied here. */
export function runTotals(slips: SlipResult[], structure: Structure, pfSettings: StatutorySettings["pf"]): RunTotals {
  const totals = totalsOf(structure, pfSettings);
  for (const s of slips) totals.add(s);
  return totals.result();
}

/** The run's totals, slip by slip (calculation.ts adds each slip as it is computed, with turns of the event loop in between). */
export function totalsOf(
  structure: Structure,
  pfSettings: StatutorySettings["pf"],
): { add: (s: SlipResult) => void; result: () => RunTotals } {
  let count = 0;
  let pfMembers = 0;
  let esiMembers = 0;
  const keys = [
    "gross",
    "total_deductions",
    "net_pay",
    "reimbursements",
    "leave_encashment",
    "loan_deduction",
    "employer_cost",
    "pf_wages",
    "pf_employee",
    "employer_epf",
    "employer_eps",
    "edli",
    "admin",
    "esi_wages",
    "esi_employee",
    "esi_employer",
    "professional_tax",
  ] as const;
  const sums = Object.fromEntries(keys.map((k) => [k, ZERO])) as Record<(typeof keys)[number], Decimal>;
  const add = (k: (typeof keys)[number], v: Decimal.Value) => (sums[k] = sums[k].plus(v));
  const compTotals = new Map<string, Decimal>();
  return {
    add(s) {
      count++;
      if (s.details.pf.applicable) pfMembers++;
      if (s.details.esi.covered) esiMembers++;
      add("gross", s.gross);
      add("total_deductions", s.total_deductions);
      add("net_pay", s.net_pay);
      add("reimbursements", s.reimbursements);
      add("leave_encashment", s.leave_encashment);
      add("loan_deduction", s.loan_deduction);
      add("employer_cost", s.employer_cost);
      add("pf_wages", s.details.pf.wages);
      add("pf_employee", s.pf_employee);
      add("employer_epf", s.details.pf.employer_epf);
      add("employer_eps", s.details.pf.employer_eps);
      add("edli", s.details.pf.edli);
      add("admin", s.details.pf.admin_charges);
      add("esi_wages", s.details.esi.covered ? s.details.esi.wages : 0);
      add("esi_employee", s.esi_employee);
      add("esi_employer", s.details.esi.employer);
      add("professional_tax", s.professional_tax);
      for (const l of [...s.details.earnings, ...s.details.deductions])
        compTotals.set(l.code, (compTotals.get(l.code) ?? ZERO).plus(l.amount));
    },
    result() {
      const adminRaw = sums.admin;
      const adminMin = pfMembers > 0 && adminRaw.lt(pfSettings.admin_charge_minimum);
      const admin = adminMin ? new Decimal(pfSettings.admin_charge_minimum) : adminRaw;
      const employerCost = sums.employer_cost.plus(admin.minus(adminRaw));
      return {
        employee_count: count,
        gross: m2(sums.gross),
        total_deductions: m2(sums.total_deductions),
        net_pay: m2(sums.net_pay),
        reimbursements: m2(sums.reimbursements),
        leave_encashment: m2(sums.leave_encashment),
        loan_deductions: m2(sums.loan_deduction),
        employer_cost: m2(employerCost),
        pf: {
          members: pfMembers,
          wages: m2(sums.pf_wages),
          employee: m2(sums.pf_employee),
          employer_epf: m2(sums.employer_epf),
          employer_eps: m2(sums.employer_eps),
          edli: m2(sums.edli),
          admin_charges: m2(admin),
          admin_charges_minimum_applied: adminMin,
        },
        esi: { members: esiMembers, wages: m2(sums.esi_wages), employee: m2(sums.esi_employee), employer: m2(sums.esi_employer) },
        professional_tax: m2(sums.professional_tax),
        components: structure.components
          .filter((c) => compTotals.has(c.code))
          .map((c) => ({ code: c.code, name: c.name, type: c.type, amount: m2(compTotals.get(c.code)!) })),
      };
    },
  };
}

/** Totals of a run that has no calculation (yet, or any more: a queued or failed run). */
export function emptyTotals(): RunTotals & { employees_without_setup: number } {
  const zero = "0.00";
  return {
    employee_count: 0,
    employees_without_setup: 0,
    gross: zero,
    total_deductions: zero,
    net_pay: zero,
    reimbursements: zero,
    leave_encashment: zero,
    loan_deductions: zero,
    employer_cost: zero,
    pf: {
      members: 0,
      wages: zero,
      employee: zero,
      employer_epf: zero,
      employer_eps: zero,
      edli: zero,
      admin_charges: zero,
      admin_charges_minimum_applied: false,
    },
    esi: { members: 0, wages: zero, employee: zero, employer: zero },
    professional_tax: zero,
    components: [],
  };
}

// ───────────────────────────── loss of pay ─────────────────────────────

export interface LeaveSpan {
  from: DateString;
  to: DateString;
  half_day_start: boolean;
  half_day_end: boolean;
  days: string;
  is_paid: boolean;
}

/**
 * LOP days of an employee within [from, to] (the employment range of the month): unpaid leave
 * (the request's own day count when it lies wholly inside, else its working days inside the
 * range), plus absent (1) and half-day (0.5) attendance on working days not covered by leave.
 */
export function lossOfPay(
  from: DateString,
  to: DateString,
  leave: LeaveSpan[],
  attendance: { date: DateString; status: string }[],
  isOff: (d: DateString) => boolean,
): { leave: Decimal; absent: Decimal } {
  let leaveDays = ZERO;
  const covered = new Set<DateString>();
  for (const l of leave) {
    const a = l.from > from ? l.from : from;
    const b = l.to < to ? l.to : to;
    if (a > b) continue;
    for (let d = a; d <= b; d = addDays(d, 1)) covered.add(d);
    if (l.is_paid) continue;
    if (l.from >= from && l.to <= to) {
      leaveDays = leaveDays.plus(l.days);
      continue;
    }
    for (let d = a; d <= b; d = addDays(d, 1)) {
      if (isOff(d)) continue;
      const half = (d === l.from && l.half_day_start) || (d === l.to && l.half_day_end);
      leaveDays = leaveDays.plus(half ? "0.5" : 1);
    }
  }
  let absent = ZERO;
  for (const r of attendance) {
    if (r.date < from || r.date > to || covered.has(r.date) || isOff(r.date)) continue;
    if (r.status === "absent") absent = absent.plus(1);
    else if (r.status === "half_day") absent = absent.plus("0.5");
  }
  return { leave: leaveDays, absent };
}
