// The labour codes' single definition of "wages" (Code on Wages 2019 s.2(y), Code on Social Security
// 2020 s.2(88)) - pure, exact decimals, no I/O. The rule, the reading that reproduces the published
// illustration, the dates each use of it applies from and the sources: docs/payroll-wages.md and the
// WageSettings schema of the document.
import type { DateString } from "../../lib/dates.ts";
import { Decimal } from "../../lib/money.ts";

/** What an earning is under the codes' definition of wages (WageClass of the document). */
export const WAGE_CLASSES = ["wages", "excluded", "gratuity_retrenchment", "outside_remuneration"] as const;
export type WageClass = (typeof WAGE_CLASSES)[number];

/** The company's wage settings (WageSettings of the document); statutory.ts serves them. */
export const WAGE_DEFAULTS = {
  /** The Code on Wages 2019 and the Code on Social Security 2020 came into force on 21 November 2025. */
  code_wages_from: "2025-11-21",
  /** The Employees' Provident Funds Scheme 2026 (G.S.R. 525(E)) came into force on its publication, 29 June 2026. */
  pf_code_wages_from: "2026-06-29",
  /** "one-half, or such other per cent. as may be notified by the Central Government" (s.2(y) proviso). */
  exclusion_limit_percent: "50.00",
  /**
   * Company policy, not statute: what leave encashment (runs and settlements) and notice pay are
   * priced on - `wage` (the code's wage, or basic + DA before it: the behaviour before the setting)
   * or `gross` (the full-month gross) - and the divisor of the month: `26` (default), `30` or
   * `month_days`. Gratuity keeps its statutory 15/26 of the wage.
   */
  encashment_basis: "wage" as "wage" | "gross",
  encashment_divisor: "26" as "26" | "30" | "month_days",
};
export type WageSettings = typeof WAGE_DEFAULTS;

/** An earning's class: its own, or - for a component that has none (built outside the database) - classified as the migration did. */
export function wageClassOf(c: { type: string; pf_wage: boolean; wage_class?: WageClass }): WageClass {
  if (c.wage_class) return c.wage_class;
  if (c.type === "deduction") return "outside_remuneration";
  return c.pf_wage ? "wages" : "excluded";
}

/** Earnings summed by class. */
export interface WageParts {
  wages: Decimal;
  excluded: Decimal;
  gratuity_retrenchment: Decimal;
  outside_remuneration: Decimal;
}

export const noWageParts = (): WageParts => ({
  wages: new Decimal(0),
  excluded: new Decimal(0),
  gratuity_retrenchment: new Decimal(0),
  outside_remuneration: new Decimal(0),
});

export function addToParts(parts: WageParts, cls: WageClass, amount: Decimal.Value): void {
  parts[cls] = parts[cls].plus(amount);
}

/** The code's arithmetic on one set of earnings (CodeWageFigures of the document, as decimals). */
export interface CodeWages {
  wages: Decimal;
  exclusions: Decimal;
  gratuity_retrenchment: Decimal;
  outside_remuneration: Decimal;
  total_remuneration: Decimal;
  exclusion_limit: Decimal;
  add_back: Decimal;
  wage: Decimal;
}

/**
 * wages + (exclusions − limit when positive), limit = (wages + exclusions + gratuity and
 * retrenchment) × `limitPercent` %, rounded to the paisa (half up) - the figures shown add up:
 * add-back = exclusions − limit exactly. (With the exact half, a month whose prorated exclusions
 * are 0.01 above the prorated wages would add half a paisa back.)
 */
export function codeWages(parts: WageParts, limitPercent: Decimal.Value): CodeWages {
  const total = parts.wages.plus(parts.excluded).plus(parts.gratuity_retrenchment);
  const limit = total.times(limitPercent).div(100).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  const addBack = parts.excluded.gt(limit) ? parts.excluded.minus(limit) : new Decimal(0);
  return {
    wages: parts.wages,
    exclusions: parts.excluded,
    gratuity_retrenchment: parts.gratuity_retrenchment,
    outside_remuneration: parts.outside_remuneration,
    total_remuneration: total,
    exclusion_limit: limit,
    add_back: addBack,
    wage: parts.wages.plus(addBack),
  };
}

/** The figures as the document shows them (CodeWageFigures). */
export interface CodeWageFigures {
  wages: string;
  exclusions: string;
  gratuity_retrenchment: string;
  outside_remuneration: string;
  total_remuneration: string;
  exclusion_limit: string;
  add_back: string;
  wage: string;
}

export const codeWageFigures = (w: CodeWages): CodeWageFigures => ({
  wages: w.wages.toFixed(2),
  exclusions: w.exclusions.toFixed(2),
  gratuity_retrenchment: w.gratuity_retrenchment.toFixed(2),
  outside_remuneration: w.outside_remuneration.toFixed(2),
  total_remuneration: w.total_remuneration.toFixed(2),
  exclusion_limit: w.exclusion_limit.toFixed(2),
  add_back: w.add_back.toFixed(2),
  wage: w.wage.toFixed(2),
});

export interface WageRule {
  /** `code`: the code's wage prices gratuity, leave encashment, notice pay and the gratuity provision. */
  rule: "code" | "pre_code";
  /** `code`: PF wages are the code's wage (EPF Scheme 2026); `epf_act`: the earnings flagged `pf_wage`. */
  pf_rule: "code" | "epf_act";
  /** Why the code's wage is not applied, when it is not. */
  note: string | null;
}

/**
 * The rules in force on `date` (a slip's last day, a settlement's last working day) for a structure
 * that has earnings of class `wages` (`hasWages`); one that has none is not put to the test.
 */
export function wageRuleOn(date: DateString, s: Pick<WageSettings, "code_wages_from" | "pf_code_wages_from">, hasWages: boolean): WageRule {
  if (!hasWages)
    return {
      rule: "pre_code",
      pf_rule: "epf_act",
      note:
        "No earning of the salary is of class wages (basic pay, DA, retaining allowance): " +
        "the labour codes' test is not applied; basic + DA is the earnings flagged pf_wage",
    };
  const code = date >= s.code_wages_from;
  return {
    rule: code ? "code" : "pre_code",
    pf_rule: date >= s.pf_code_wages_from ? "code" : "epf_act",
    note: code
      ? null
      : `Before ${s.code_wages_from}, when the labour codes' definition of wages applies from (code_wages_from): basic + DA`,
  };
}
