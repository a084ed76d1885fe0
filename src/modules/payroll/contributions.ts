// The statutory contributions of a slip: who is excluded from EPS, the PF, ESI and professional-tax
// settings parsed once per run, and a state's professional tax. Sources and the dates each rule
// applies from: the document's payroll settings schemas and docs/payroll-wages.md.
import type { DateString } from "../../lib/dates.ts";
import { Decimal } from "../../lib/money.ts";
import { pct, r2, rupee, rupeeUp, ZERO } from "./figures.ts";
import { ageOn } from "./months.ts";
import type { EmployeeInput, EpsExclusion, StatutorySettings } from "./slip-model.ts";
import { WAGE_DEFAULTS, type WageSettings } from "./wages.ts";

/** The date from which a new EPF member above the wage ceiling at joining cannot join EPS (EPF & MP amendment of 2014). */
export const EPS_NEW_MEMBER_RULE_FROM: DateString = "2014-09-01";

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

export function ptAmount(
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

/** A slip's PF (EPF & MP Act 1952: employee 12 %, employer 12 % of which EPS 8.33 % and EDLI, admin charges on the ceiling). */
export interface PfFigures {
  base: Decimal;
  employee: Decimal;
  employerTotal: Decimal;
  eps: Decimal;
  epf: Decimal;
  edli: Decimal;
  admin: Decimal;
  epsApplicable: boolean;
}

/**
 * The PF of a slip on its PF wage: rupee-rounded shares on the wage (capped at the ceiling when the
 * company restricts to it), EPS and EDLI always on the capped wage, EPS nil when the employee is
 * excluded (`exclusion`, asked only when PF applies).
 */
export function pfContribution(
  applicable: boolean,
  pfWage: Decimal,
  settings: StatutorySettings["pf"],
  rates: PreparedSettings["pf"],
  exclusion: () => EpsExclusion | null,
): { pf: PfFigures; epsExcluded: EpsExclusion | null } {
  const none = { base: ZERO, employee: ZERO, employerTotal: ZERO, eps: ZERO, epf: ZERO, edli: ZERO, admin: ZERO, epsApplicable: false };
  if (!applicable) return { pf: none, epsExcluded: null };
  const capped = Decimal.min(pfWage, rates.ceiling);
  const base = settings.restrict_to_ceiling ? capped : pfWage;
  const employee = rupee(pct(base, rates.employee));
  const employerTotal = rupee(pct(base, rates.employer));
  const epsExcluded = exclusion();
  const epsApplicable = epsExcluded === null;
  const eps = epsApplicable ? Decimal.min(rupee(pct(capped, rates.eps)), employerTotal) : ZERO;
  return {
    pf: {
      base,
      employee,
      employerTotal,
      eps,
      epf: employerTotal.minus(eps),
      edli: rupee(pct(capped, rates.edli)),
      admin: r2(pct(base, rates.admin)),
      epsApplicable,
    },
    epsExcluded,
  };
}

/**
 * The ESI of a slip (ESI Act 1948): covered when the wage at the start of the contribution period
 * was within the threshold (the disabled employee's threshold for them); the employee's share is
 * nil at or below the low daily wage; both shares rounded up to the rupee.
 */
export function esiContribution(
  applicable: boolean,
  esiWages: Decimal,
  dailyWage: Decimal,
  periodStartWages: Decimal,
  disabled: boolean | undefined,
  rates: PreparedSettings["esi"],
): { covered: boolean; employee: Decimal; employer: Decimal } {
  const covered = applicable && periodStartWages.lte(disabled ? rates.disabledThreshold : rates.threshold);
  const lowWage = dailyWage.lte(rates.lowWage);
  return {
    covered,
    employee: covered && !lowWage ? rupeeUp(pct(esiWages, rates.employee)) : ZERO,
    employer: covered ? rupeeUp(pct(esiWages, rates.employer)) : ZERO,
  };
}
