// Payroll's money arithmetic: rounding, the largest amounts the columns hold, and the day rates
// that leave encashment and notice pay are priced at.
import { Decimal } from "../../lib/money.ts";

export const ZERO = new Decimal(0);

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

export const r2 = (d: Decimal) => d.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
export const rupee = (d: Decimal) => d.toDecimalPlaces(0, Decimal.ROUND_HALF_UP);
export const rupeeUp = (d: Decimal) => d.toDecimalPlaces(0, Decimal.ROUND_UP);
export const pct = (base: Decimal, rate: Decimal.Value) => base.times(rate).div(100);
export const m2 = (d: Decimal) => d.toFixed(2);
