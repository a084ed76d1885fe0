// The monthly deduction (s.192 of the 1961 Act; s.392 of the 2025 Act): the year projected, its tax ÷
// the months left, the last month the exact remainder, so the year lands on the tax (docs/payroll-tax.md,
// "The monthly deduction"). An excess is not refunded through payroll. Taxable salary of a month = gross
// + leave encashment (reimbursements are not salary).
import { toDateString } from "../../../lib/dates.ts";
import { Decimal } from "../../../lib/money.ts";
import type { SlipResult } from "../slip-model.ts";
import { type WageClass, wageClassOf } from "../wages.ts";
import type { DeclarationSection } from "./declarations.ts";
import { computeIncomeTax, type DeductionSection, type TaxComputation, type TaxInput } from "./engine.ts";
import type { ProfileFacts } from "./profile.ts";
import { type AgeBand, ageBandOf, isMetro, type Regime, type TaxRules, taxYearBounds } from "./rates.ts";

const ZERO = new Decimal(0);
export const HRA_CODE = "HRA";
export const LTA_CODE = "LTA";

/** One month's pay as the tax counts it. */
export interface MonthPay {
  period: string;
  taxable: Decimal;
  basic_da: Decimal;
  hra: Decimal;
  lta: Decimal;
  pf: Decimal;
  pt: Decimal;
  tds: Decimal;
}

export type ClassOf = (code: string) => WageClass | null;

/** A class lookup from the company's components. */
export function classesOf(components: { code: string; type: string; pf_wage: boolean; wage_class?: WageClass }[]): ClassOf {
  const m = new Map(components.map((c) => [c.code, wageClassOf(c)]));
  return (code) => m.get(code) ?? null;
}

export function monthPay(
  period: string,
  earnings: { code: string; amount: string }[],
  classOf: ClassOf,
  f: { gross: Decimal.Value; encashment: Decimal.Value; pf: Decimal.Value; pt: Decimal.Value; tds: Decimal.Value },
): MonthPay {
  let basic = ZERO;
  let hra = ZERO;
  let lta = ZERO;
  for (const l of earnings) {
    const code = l.code.toUpperCase();
    if (code === HRA_CODE) hra = hra.plus(l.amount);
    else if (code === LTA_CODE) lta = lta.plus(l.amount);
    else if (classOf(l.code) === "wages") basic = basic.plus(l.amount);
  }
  return {
    period,
    taxable: new Decimal(f.gross).plus(f.encashment),
    basic_da: basic,
    hra,
    lta,
    pf: new Decimal(f.pf),
    pt: new Decimal(f.pt),
    tds: new Decimal(f.tds),
  };
}

/** What a projection of one employee's year takes. */
export interface YearInputs {
  rules: TaxRules;
  profile: ProfileFacts;
  age_band: AgeBand;
  /** Months paid by processed runs before the month being calculated. */
  paid: MonthPay[];
  /** The month being calculated (null: none - a projection after the last month paid). */
  current: MonthPay | null;
  /** A full month at the salary setup in force, and how many such months follow the current one. */
  regular: MonthPay | null;
  future_months: number;
  /** Counted declaration amounts per section. */
  declared: Partial<Record<DeclarationSection, Decimal>>;
  /** A final settlement's gratuity and leave encashment with their statutory limits. */
  settlement?: Pick<TaxInput["salary"], "gratuity" | "leave_encashment">;
  /** The date of birth (the age band of each earlier year that arrears belong to). */
  birth_date?: string | null;
}

const sumOf = (months: MonthPay[], k: keyof Omit<MonthPay, "period">) => months.reduce((t, m) => t.plus(m[k]), ZERO);

/** The months the projection counts: paid, current and the regular month repeated. */
export function projectedMonths(y: YearInputs): MonthPay[] {
  return [...y.paid, ...(y.current ? [y.current] : []), ...(y.regular ? Array(y.future_months).fill(y.regular) : [])];
}

/** A figure summed over projectedMonths(y) without building them: the regular month times the months after the current one (exact). */
function projectedSum(y: YearInputs, k: keyof Omit<MonthPay, "period">): Decimal {
  let t = sumOf(y.paid, k);
  if (y.current) t = t.plus(y.current[k]);
  return y.regular && y.future_months > 0 ? t.plus(y.regular[k].times(y.future_months)) : t;
}

/** The engine's input for the year under a regime. */
export function taxInputOf(y: YearInputs, regime: Regime): TaxInput {
  const p = y.profile;
  const d = y.declared;
  const extra = y.settlement ?? {};
  const gross = projectedSum(y, "taxable")
    .plus(p.previous_employer_salary)
    .plus(extra.gratuity?.amount ?? 0)
    .plus(extra.leave_encashment?.amount ?? 0);
  const deductions: Partial<Record<DeductionSection, Decimal>> = {};
  for (const s of ["80C", "80CCD(1B)", "80D_self", "80D_parents", "80E", "24(b)"] as const) if (d[s]) deductions[s] = d[s];
  return {
    regime,
    age_band: y.age_band,
    resident: p.resident,
    has_pan: Boolean(p.pan),
    salary: {
      gross,
      basic_da: projectedSum(y, "basic_da"),
      hra_received: projectedSum(y, "hra"),
      rent_paid: d.hra_rent ?? ZERO,
      metro: isMetro(p.city, y.rules),
      lta_received: projectedSum(y, "lta"),
      lta_claimed: d.lta ?? ZERO,
      professional_tax: projectedSum(y, "pt").plus(p.previous_employer_professional_tax),
      employee_pf: projectedSum(y, "pf").plus(p.previous_employer_pf),
      ...extra,
    },
    other_income: new Decimal(p.other_income),
    deductions,
    parents_senior: p.parents_senior,
    arrears: p.arrears.map((a) => ({
      relates_to: a.relates_to,
      amount: new Decimal(a.amount),
      total_income: new Decimal(a.total_income),
      regime: a.regime,
      age_band: p.age_band ?? ageBandOf(y.birth_date ?? null, a.relates_to, y.rules),
    })),
  };
}

/** (The year's tax − TDS so far) ÷ the months left including this one, to the rupee; the last month the remainder; never below nil. */
export function monthlyTds(payable: Decimal.Value, tdsSoFar: Decimal.Value, futureMonths: number): Decimal {
  const due = new Decimal(payable).minus(tdsSoFar);
  if (due.lte(0)) return ZERO;
  if (futureMonths <= 0) return due.toDecimalPlaces(0, Decimal.ROUND_HALF_UP);
  return due.div(futureMonths + 1).toDecimalPlaces(0, Decimal.ROUND_HALF_UP);
}

/** The month's index in its tax year (April 0 … March 11). */
export const monthIndex = (taxYear: string, year: number, month: number) => (year - taxYearBounds(taxYear).startYear) * 12 + month - 4;

/** Months after (year, month) up to March, or up to the month of the last working day when it falls in the tax year. */
export function monthsAfter(taxYear: string, year: number, month: number, lastWorkingDay: string | null): number {
  let last = 11;
  if (lastWorkingDay && lastWorkingDay <= taxYearBounds(taxYear).end)
    last = Math.min(last, monthIndex(taxYear, Number(lastWorkingDay.slice(0, 4)), Number(lastWorkingDay.slice(5, 7))));
  return Math.max(0, last - monthIndex(taxYear, year, month));
}

export interface EmployeeTaxFacts {
  profile: ProfileFacts;
  date_of_birth: Date | string | null;
  paid: MonthPay[];
  declared: Partial<Record<DeclarationSection, Decimal>>;
}

/** The date of birth of the facts as a date string. */
export const birthDate = (f: EmployeeTaxFacts): string | null =>
  f.date_of_birth ? (typeof f.date_of_birth === "string" ? f.date_of_birth : toDateString(f.date_of_birth)) : null;

export const ageBand = (f: EmployeeTaxFacts, taxYear: string, rules: TaxRules): AgeBand =>
  f.profile.age_band ?? ageBandOf(birthDate(f), taxYear, rules);

/** The slip's month, and a full month at its structure, as MonthPay. */
export function slipMonths(slip: SlipResult, period: string, classOf: ClassOf): { current: MonthPay; regular: MonthPay } {
  const current = monthPay(period, slip.details.earnings, classOf, {
    gross: slip.gross,
    encashment: slip.leave_encashment,
    pf: slip.pf_employee,
    pt: slip.professional_tax,
    tds: 0,
  });
  const full = slip.details.earnings.map((l) => ({ code: l.code, amount: l.full_amount }));
  const regular = monthPay("", full, classOf, {
    gross: slip.details.full_month_gross,
    encashment: 0,
    pf: slip.pf_employee,
    pt: slip.professional_tax,
    tds: 0,
  });
  return { current, regular };
}

/** Adds the month's income tax to a freshly computed slip; `year` is the employee's year so far. */
export function withholdOnSlip(
  slip: SlipResult,
  f: EmployeeTaxFacts,
  at: { taxYear: string; rules: TaxRules; year: number; month: number; lastWorkingDay: string | null; classOf: ClassOf },
): TaxComputation {
  const period = `${at.year}-${String(at.month).padStart(2, "0")}`;
  const { current, regular } = slipMonths(slip, period, at.classOf);
  const y: YearInputs = {
    rules: at.rules,
    profile: f.profile,
    age_band: ageBand(f, at.taxYear, at.rules),
    paid: f.paid,
    current,
    regular,
    future_months: monthsAfter(at.taxYear, at.year, at.month, at.lastWorkingDay),
    declared: f.declared,
    birth_date: birthDate(f),
  };
  const computation = computeIncomeTax(taxInputOf(y, f.profile.regime), at.rules);
  const before = sumOf(f.paid, "tds").plus(f.profile.previous_employer_tds);
  // never more than the month pays (a deduction cannot make the net negative)
  const tds = Decimal.min(monthlyTds(computation.tax_payable, before, y.future_months), Decimal.max(ZERO, slip.net_pay.floor()));
  slip.income_tax = tds;
  slip.total_deductions = slip.total_deductions.plus(tds);
  slip.net_pay = slip.net_pay.minus(tds);
  const paidTaxable = sumOf(f.paid, "taxable").plus(current.taxable);
  slip.details.income_tax = {
    tax_year: at.taxYear,
    regime: f.profile.regime,
    has_pan: Boolean(f.profile.pan),
    taxable_salary: current.taxable.toFixed(2),
    tds: tds.toFixed(2),
    taxable_salary_to_date: paidTaxable.toFixed(2),
    tds_to_date: sumOf(f.paid, "tds").plus(tds).toFixed(2),
    projected_taxable_salary: computation.gross_salary,
    annual_tax: computation.tax_payable,
    remaining_months: y.future_months,
    basic_da: current.basic_da.toFixed(2),
    hra: current.hra.toFixed(2),
    lta: current.lta.toFixed(2),
  };
  return computation;
}
