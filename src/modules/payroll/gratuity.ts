// Gratuity under the Payment of Gratuity Act 1972 and the Code on Social Security 2020 ch. V - pure,
// exact decimals, no I/O (sources and dates: docs/payroll-settlements.md, docs/payroll-wages.md). The
// wage is the caller's: from `code_wages_from` (2025-11-21) the labour codes' wage (wages.ts), before it
// basic + DA (`pf_wage` components). Amount: wage × 15/26 × completed years (a last part over six months
// counts), to the rupee, capped at ₹20 lakh; the optional monthly provision is a month's share, to the paisa.
import type { DateString } from "../../lib/dates.ts";
import { Decimal } from "../../lib/money.ts";
import type { GRATUITY_DEFAULTS } from "./statutory.ts";

export type GratuitySettings = typeof GRATUITY_DEFAULTS;

/**
 * Why the employment ended: the five-year minimum does not apply on death or disablement; on the
 * expiry of a fixed-term contract (Code on Social Security 2020 s.53(1)(d) and the first proviso)
 * the fixed-term minimum of one year applies (Industrial Relations Code 2020 s.2(o)(iii)).
 */
export type Separation = "resignation" | "retirement" | "termination" | "death" | "disablement" | "fixed_term_expiry";

/** Separations on which a notice shortfall is never recovered, and the five years are waived. */
export const DEATH_OR_DISABLEMENT: readonly Separation[] = ["death", "disablement"];

/**
 * How the five years' continuous service are read (GratuitySettings `continuous_service_rule`):
 * `five_full_years` - five completed calendar years (Andhra Pradesh High Court, 1985; the default,
 * the stricter reading); `four_years_240_days` - four completed years and, in the fifth, 240 days
 * actually worked (190 for an establishment working fewer than six days a week) count as five
 * (Madras High Court, Mettur Beardsell, 1998 LLR 1072; Payment of Gratuity Act s.2A(2), Code on
 * Social Security s.54).
 */
export type ContinuousServiceRule = "five_full_years" | "four_years_240_days";

/** The days actually worked in the year after four completed years (the Madras reading), computed by the caller. */
export interface FifthYear {
  from: DateString;
  to: DateString;
  /** Days of the span the establishment works (not weekly offs or holidays). */
  working_days: number;
  /** Working days lost to unpaid leave and absence. */
  lost_days: string;
  /** working_days − lost_days: paid leave counts as worked (s.2A Explanation). */
  days_worked: string;
  /** 240, or 190 for an establishment working fewer than six days a week. */
  required_days: 190 | 240;
}

/** How eligibility was decided (shown on the settlement). */
export interface ContinuousServiceResult {
  rule: ContinuousServiceRule;
  /** What decided: `minimum_waived`, `fixed_term_minimum`, `completed_years`, `fifth_year_days`. */
  decided_by: "minimum_waived" | "fixed_term_minimum" | "completed_years" | "fifth_year_days";
  minimum_years: number;
  explanation: string;
  fifth_year: FifthYear | null;
}

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
  /** The fifth year's days actually worked: given when the Madras reading may decide (4 completed years). */
  fifth_year?: FifthYear | null;
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
  /** Which reading of continuous service decided eligibility (absent on settlements computed before it was shown). */
  continuous_service?: ContinuousServiceResult;
}

const years = (n: number) => `${n} year${n === 1 ? "" : "s"}`;

// size: the Act's steps in order (service, eligibility, wage, amount, ceiling), each beside the section it follows
export function computeGratuity(input: GratuityInput): GratuityResult {
  const s = input.settings;
  const service = serviceBetween(input.joining_date, input.last_working_day);
  const partOver = service.months > s.round_up_after_months || (service.months === s.round_up_after_months && service.days > 0);
  const partYear = service.months > 0 || service.days > 0;
  const counted = service.years + (partYear && partOver ? 1 : 0);
  const wage = new Decimal(input.wage);
  const rule: ContinuousServiceRule = s.continuous_service_rule === "four_years_240_days" ? "four_years_240_days" : "five_full_years";
  const exempt = DEATH_OR_DISABLEMENT.includes(input.separation);
  const fixedTerm = input.fixed_term || input.separation === "fixed_term_expiry";
  const minimum = fixedTerm ? s.fixed_term_min_years : s.min_years;
  // the fifth year's days decide only under the Madras reading, for four completed years of a five-year minimum
  const fifth =
    !exempt && !fixedTerm && rule === "four_years_240_days" && minimum === 5 && service.years === 4 ? (input.fifth_year ?? null) : null;
  const fifthCounts = fifth !== null && new Decimal(fifth.days_worked).gte(fifth.required_days);
  const continuous: ContinuousServiceResult = exempt
    ? {
        rule,
        decided_by: "minimum_waived",
        minimum_years: 0,
        explanation: `No minimum service on ${input.separation} (Code on Social Security s.53(1), first proviso)`,
        fifth_year: null,
      }
    : fixedTerm
      ? {
          rule,
          decided_by: "fixed_term_minimum",
          minimum_years: minimum,
          explanation:
            `Fixed-term employment: ${years(minimum)} of completed service (Industrial Relations Code s.2(o)(iii); ` +
            "five years waived on the expiry of the contract, Code on Social Security s.53(1)(d) and first proviso); " +
            "pro rata: 15 days' wages for each completed year and a final part over six months",
          fifth_year: null,
        }
      : fifth
        ? {
            rule,
            decided_by: "fifth_year_days",
            minimum_years: minimum,
            explanation: fifthCounts
              ? `4 completed years and ${fifth.days_worked} days actually worked in the fifth (at least ${fifth.required_days}) ` +
                "count as 5 years (Madras High Court reading)"
              : `4 completed years and ${fifth.days_worked} days actually worked in the fifth: fewer than ${fifth.required_days}, ` +
                "not 5 years (Madras High Court reading)",
            fifth_year: fifth,
          }
        : {
            rule,
            decided_by: "completed_years",
            minimum_years: minimum,
            explanation:
              rule === "five_full_years"
                ? `${years(service.years)} completed; ${years(minimum)} of completed service needed ` +
                  "(Andhra Pradesh High Court reading: five full years)"
                : `${years(service.years)} completed; ${years(minimum)} needed`,
            fifth_year: null,
          };
  const zero = (reason: string): GratuityResult => ({
    eligible: false,
    reason,
    service,
    counted_years: counted,
    wage: wage.toFixed(2),
    computed: "0.00",
    amount: "0.00",
    capped: false,
    continuous_service: continuous,
  });
  if (!s.enabled) return zero("Gratuity is switched off in the payroll settings");
  if (!exempt && service.years < minimum && !fifthCounts)
    return zero(
      fifth
        ? `${years(service.years)} of completed service and ${fifth.days_worked} days worked in the fifth year ` +
            `(${fifth.required_days} needed); gratuity needs ${years(minimum)}`
        : `${years(service.years)} of completed service; gratuity needs ${years(minimum)}`,
    );
  // the Madras reading treats 4 years + the fifth year's days as 5 years of service
  const countedYears = fifthCounts ? Math.max(counted, minimum) : counted;
  const computed = wage.times(s.days_per_year).times(countedYears).div(s.divisor).toDecimalPlaces(0, Decimal.ROUND_HALF_UP);
  const cap = new Decimal(s.cap);
  const capped = computed.gt(cap);
  return {
    eligible: true,
    reason: null,
    service,
    counted_years: countedYears,
    wage: wage.toFixed(2),
    computed: computed.toFixed(2),
    amount: (capped ? cap : computed).toFixed(2),
    capped,
    continuous_service: continuous,
  };
}

/** The employer's monthly provision on the month's basic + DA (to the paisa). */
export function gratuityProvision(monthWage: Decimal.Value, s: Pick<GratuitySettings, "days_per_year" | "divisor">): Decimal {
  return new Decimal(monthWage).times(s.days_per_year).div(s.divisor).div(12).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}
