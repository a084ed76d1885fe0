// Gratuity under the Payment of Gratuity Act 1972 and the Code on Social Security 2020 ch. V
// (DOMAIN §3.4, §3.7) - pure, exact decimals, no I/O.
//
// - Wage: the last drawn monthly wage, given by the caller: from the company's `code_wages_from`
//   (2025-11-21) the labour codes' wage of the full month (wages.ts: basic + DA + retaining allowance
//   + the excess of the exclusions over 50 % of the remuneration); before it basic + DA, the
//   full-month amounts of the earning components flagged `pf_wage` in the employee's salary setup.
// - Service: from the joining date to the last working day, both included, in calendar years,
//   months and days. Completed years count; a final part-year of more than `round_up_after_months`
//   months (6: 6 months and 1 day or more) counts as a full year.
// - Eligibility: at least `min_years` completed years (`fixed_term_min_years` for fixed-term
//   employees), not rounded up; no minimum on death or disablement.
// - Amount: wage × days_per_year ÷ divisor × counted years (15/26), rounded to the rupee (half up),
//   then capped at `cap` (₹20 lakh).
// - Monthly provision (optional, on the payroll run): the month's basic + DA × days_per_year ÷
//   divisor ÷ 12, to the paisa - the gratuity that one month of service earns.
import type { DateString } from "../../lib/dates.ts";
import { Decimal } from "../../lib/money.ts";
import type { GRATUITY_DEFAULTS } from "./statutory.ts";

export type GratuitySettings = typeof GRATUITY_DEFAULTS;

/** Why the employment ended: the five-year minimum does not apply on death or disablement. */
export type Separation = "resignation" | "retirement" | "termination" | "death" | "disablement";

export interface Service {
  years: number;
  months: number;
  days: number;
}

/** Calendar service from `from` to `to`, both days included (2018-01-01..2026-07-31 = 8 years 7 months 0 days). */
export function serviceBetween(from: DateString, to: DateString): Service {
  const [fy, fm, fd] = from.split("-").map(Number);
  // the day after the last day: service ends at its start
  const end = new Date(Date.UTC(Number(to.slice(0, 4)), Number(to.slice(5, 7)) - 1, Number(to.slice(8, 10)) + 1));
  let y = end.getUTCFullYear() - fy;
  let m = end.getUTCMonth() + 1 - fm;
  let d = end.getUTCDate() - fd;
  if (d < 0) {
    m -= 1;
    // days of the month before the end's month
    d += new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth(), 0)).getUTCDate();
  }
  if (m < 0) {
    y -= 1;
    m += 12;
  }
  if (y < 0) return { years: 0, months: 0, days: 0 };
  return { years: y, months: m, days: d };
}

export interface GratuityInput {
  /** Last drawn monthly basic + DA. */
  wage: Decimal.Value;
  joining_date: DateString;
  last_working_day: DateString;
  separation: Separation;
  fixed_term: boolean;
  settings: GratuitySettings;
}

export interface GratuityResult {
  eligible: boolean;
  /** Why nothing is payable, when nothing is. */
  reason: string | null;
  service: Service;
  counted_years: number;
  wage: string;
  /** Before the cap, rounded to the rupee. */
  computed: string;
  amount: string;
  capped: boolean;
}

const years = (n: number) => `${n} year${n === 1 ? "" : "s"}`;

export function computeGratuity(input: GratuityInput): GratuityResult {
  const s = input.settings;
  const service = serviceBetween(input.joining_date, input.last_working_day);
  const partOver = service.months > s.round_up_after_months || (service.months === s.round_up_after_months && service.days > 0);
  const partYear = service.months > 0 || service.days > 0;
  const counted = service.years + (partYear && partOver ? 1 : 0);
  const wage = new Decimal(input.wage);
  const zero = (reason: string): GratuityResult => ({
    eligible: false,
    reason,
    service,
    counted_years: counted,
    wage: wage.toFixed(2),
    computed: "0.00",
    amount: "0.00",
    capped: false,
  });
  if (!s.enabled) return zero("Gratuity is switched off in the payroll settings");
  const exempt = input.separation === "death" || input.separation === "disablement";
  const minimum = input.fixed_term ? s.fixed_term_min_years : s.min_years;
  if (!exempt && service.years < minimum) return zero(`${years(service.years)} of completed service; gratuity needs ${years(minimum)}`);
  const computed = wage.times(s.days_per_year).times(counted).div(s.divisor).toDecimalPlaces(0, Decimal.ROUND_HALF_UP);
  const cap = new Decimal(s.cap);
  const capped = computed.gt(cap);
  return {
    eligible: true,
    reason: null,
    service,
    counted_years: counted,
    wage: wage.toFixed(2),
    computed: computed.toFixed(2),
    amount: (capped ? cap : computed).toFixed(2),
    capped,
  };
}

/** The employer's monthly provision on the month's basic + DA (to the paisa). */
export function gratuityProvision(monthWage: Decimal.Value, s: Pick<GratuitySettings, "days_per_year" | "divisor">): Decimal {
  return new Decimal(monthWage).times(s.days_per_year).div(s.divisor).div(12).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}
