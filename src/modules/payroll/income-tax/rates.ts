// The income-tax rules of each tax year as data (rates/<tax year>.json: slabs, rebate, surcharge, cess,
// standard deduction, deduction caps, exemption caps, the HRA metro list, the no-PAN rate, rounding),
// each entry naming its source; a year's file applies from its `effective_from`. A new year is a new
// file listed here - no code changes. The sources and dates: docs/payroll-tax.md.
import { Decimal } from "../../../lib/money.ts";
import type { DateString } from "../../../lib/dates.ts";
import y2025 from "./rates/2025-26.json" with { type: "json" };
import y2026 from "./rates/2026-27.json" with { type: "json" };
import earlier from "./rates/earlier-years.json" with { type: "json" };

export type Regime = "new" | "old";
export type AgeBand = "below_60" | "60_to_79" | "80_plus";

interface Slab {
  from: string;
  rate: string;
}
export interface RegimeRules {
  source: string;
  slabs: Partial<Record<AgeBand | "any", Slab[]>>;
  standard_deduction: { amount: string; source: string };
  rebate: { income_limit: string; max: string; marginal_relief: boolean; residents_only: boolean; source: string };
  surcharge: { above: string; rate: string }[];
  surcharge_source: string;
  deductions: string[];
  exemptions: string[];
}
interface Limit {
  cap?: string | null;
  senior_cap?: string;
  cap_percent_of_salary?: Record<Regime, string>;
  source: string;
}
export interface TaxRules {
  tax_year: string;
  effective_from: DateString;
  effective_to: DateString;
  law: string;
  sections: Record<string, string>;
  regimes: Record<Regime, RegimeRules>;
  cess: { rate: string; source: string };
  deduction_limits: Record<string, Limit>;
  hra: { metro_percent: string; other_percent: string; rent_over_percent: string; metro_cities: string[]; source: string };
  gratuity_exemption: { cap: string; source: string };
  leave_encashment_exemption: { cap: string; source: string };
  no_pan: { rate: string; source: string };
  senior_age: { senior: number; super_senior: number; source: string };
  rounding: { income_to: string; tax_to: string; monthly_tds_to: string; source: string };
}

/** What the tax on a given total income needs of a year's rules: slabs, rebate, surcharge and cess. */
export interface RateRules {
  tax_year: string;
  law: string;
  regimes: Record<Regime, Pick<RegimeRules, "slabs" | "rebate" | "surcharge" | "source" | "surcharge_source">>;
  cess: { rate: string; source: string };
}

/** Every tax year on record, oldest first. */
export const TAX_YEARS: readonly TaxRules[] = [y2025, y2026] as TaxRules[];

/** "2025-26" for a date from 1 April 2025 to 31 March 2026. */
export function taxYearOf(date: DateString): string {
  const y = Number(date.slice(0, 4));
  const start = Number(date.slice(5, 7)) >= 4 ? y : y - 1;
  return `${start}-${String((start + 1) % 100).padStart(2, "0")}`;
}

/** The first day, last day and first calendar year of a tax year ("2025-26" → 2025-04-01, 2026-03-31, 2025). */
export function taxYearBounds(taxYear: string): { start: DateString; end: DateString; startYear: number } {
  const startYear = Number(taxYear.slice(0, 4));
  return { start: `${startYear}-04-01`, end: `${startYear + 1}-03-31`, startYear };
}

/**
 * The rules of a tax year; a later year than any on record takes the latest year's rules (rates carry
 * forward until a Finance Act changes them and its year's file is added: `carried_from` says so); null
 * before the first year on record (no deduction is computed then).
 */
export function rulesOf(taxYear: string): (TaxRules & { carried_from?: string }) | null {
  const exact = TAX_YEARS.find((r) => r.tax_year === taxYear);
  if (exact) return exact;
  const latest = TAX_YEARS[TAX_YEARS.length - 1];
  if (taxYear < latest.tax_year) return null;
  const start = Number(taxYear.slice(0, 4));
  return {
    ...latest,
    tax_year: taxYear,
    effective_from: `${start}-04-01`,
    effective_to: `${start + 1}-03-31`,
    carried_from: latest.tax_year,
  };
}

/** The age band at the end of the tax year (the Finance Act's "at any time during the previous year"). */
export function ageBandOf(dateOfBirth: DateString | null, taxYear: string, rules: TaxRules): AgeBand {
  if (!dateOfBirth) return "below_60";
  const end = taxYearBounds(taxYear).end;
  let age = Number(end.slice(0, 4)) - Number(dateOfBirth.slice(0, 4));
  if (end.slice(5) < dateOfBirth.slice(5)) age -= 1;
  if (age >= rules.senior_age.super_senior) return "80_plus";
  return age >= rules.senior_age.senior ? "60_to_79" : "below_60";
}

/** Whether a city is a metro for the HRA exemption in this tax year (names compared case-insensitively; "Bangalore" is "Bengaluru"). */
export function isMetro(city: string | null | undefined, rules: TaxRules): boolean {
  if (!city) return false;
  const alias: Record<string, string> = {
    bangalore: "bengaluru",
    bombay: "mumbai",
    calcutta: "kolkata",
    madras: "chennai",
    "new delhi": "delhi",
  };
  const c = city.trim().toLowerCase();
  const name = alias[c] ?? c;
  return rules.hra.metro_cities.some((m) => m.toLowerCase() === name);
}

type EarlierYear = Omit<RateRules, "regimes" | "cess"> & Partial<Pick<RateRules, "regimes" | "cess">> & { same_as?: string };
const EARLIER: readonly EarlierYear[] = earlier.years as EarlierYear[];

/**
 * The rates of a tax year for the tax on a total income: a year the payroll withholds in (rulesOf), or
 * an earlier one kept for relief on arrears under s.89(1) (rates/earlier-years.json); null before the
 * first of those (EARLIEST_RATES_YEAR).
 */
export function rateRulesOf(taxYear: string): RateRules | null {
  const own = rulesOf(taxYear);
  if (own) return own;
  const e = EARLIER.find((y) => y.tax_year === taxYear);
  if (!e) return null;
  const base = e.same_as ? EARLIER.find((y) => y.tax_year === e.same_as)! : e;
  return { tax_year: e.tax_year, law: e.law, regimes: base.regimes!, cess: base.cess! };
}

/** The first tax year whose rates are on record (relief for arrears of an earlier year is refused). */
export const EARLIEST_RATES_YEAR = EARLIER[0]?.tax_year ?? TAX_YEARS[0].tax_year;

export const dec = (v: string | null | undefined) => new Decimal(v ?? 0);
