// The annual income tax of one employee - pure, exact decimals, no I/O; rules from the year's data
// (rates.ts), in the statute's order (docs/payroll-tax.md, "The year's tax (engine)"; sources there):
// salary less exemptions (HRA s.10(13A) rule 2A, LTA s.10(5): old regime; gratuity s.10(10), leave
// encashment s.10(10AA)), standard deduction s.16(ia), professional tax s.16(iii) (old); house property
// s.24(b); chapter VI-A at caps; total income to ₹10 (s.288A; s.516 of the 2025 Act); slabs, rebate
// s.87A, surcharge and their marginal relief, 4 % cess, tax to ₹10 (s.288B); s.89(1) relief (rule
// 21A(2)); without a PAN, s.206AA's 20 % where higher (no cess on it; CBDT's salary circular).
import { Decimal } from "../../../lib/money.ts";
import { type AgeBand, dec, type RateRules, type Regime, rateRulesOf, type TaxRules } from "./rates.ts";

const ZERO = new Decimal(0);
const HUNDRED = new Decimal(100);
const pct = (v: Decimal, rate: string) => v.times(rate).div(HUNDRED);
const nonNeg = (v: Decimal) => Decimal.max(ZERO, v);
const rupees = (v: Decimal) => v.toDecimalPlaces(0, Decimal.ROUND_HALF_UP);

/** s.288A / s.288B: paise ignored, then to the nearest multiple of ten (a last figure of five or more goes up). */
export function roundToTen(v: Decimal): Decimal {
  const whole = v.floor();
  const last = whole.mod(10);
  return last.gte(5) ? whole.minus(last).plus(10) : whole.minus(last);
}

export const DEDUCTION_SECTIONS = ["80C", "80CCD(1B)", "80D_self", "80D_parents", "80E", "24(b)", "80CCD(2)"] as const;
export type DeductionSection = (typeof DEDUCTION_SECTIONS)[number];

export interface TaxInput {
  regime: Regime;
  age_band: AgeBand;
  resident: boolean;
  has_pan: boolean;
  /** Salary of the year: this employer's (paid and projected) plus a previous employer's. */
  salary: {
    gross: Decimal;
    /** Basic + DA of the months of rent (rule 2A's "salary"). */
    basic_da: Decimal;
    hra_received: Decimal;
    rent_paid: Decimal;
    metro: boolean;
    lta_received: Decimal;
    lta_claimed: Decimal;
    /** Gratuity paid this year, and the statutory formula's figure (null: the amount itself). */
    gratuity?: { amount: Decimal; limit: Decimal | null };
    /** Leave encashed on leaving, and the least of its limits other than the ₹25 lakh (null: the amount itself). */
    leave_encashment?: { amount: Decimal; limit: Decimal | null };
    professional_tax: Decimal;
    employee_pf: Decimal;
    employer_nps?: Decimal;
  };
  other_income: Decimal;
  /** Amounts claimed per section (declared or verified), before the caps. */
  deductions: Partial<Record<DeductionSection, Decimal>>;
  parents_senior?: boolean;
  /** Salary of this year that is arrears of earlier years (s.89(1), rule 21A; Form 10E): per earlier year. */
  arrears?: EarlierYearArrears[];
}

/** Arrears paid this year that belong to an earlier tax year, with that year's total income (without them) and regime. */
export interface EarlierYearArrears {
  relates_to: string;
  amount: Decimal;
  total_income: Decimal;
  regime: Regime;
  age_band: AgeBand;
}

export interface Line {
  section: string;
  description: string;
  amount: string;
}
export interface DeductionLine {
  section: string;
  claimed: string;
  allowed: string;
}

/** The year's computation (TaxComputation of the document). */
export interface TaxComputation {
  tax_year: string;
  regime: Regime;
  age_band: AgeBand;
  resident: boolean;
  has_pan: boolean;
  gross_salary: string;
  exemptions: Line[];
  standard_deduction: string;
  professional_tax: string;
  income_from_salary: string;
  house_property: string;
  other_income: string;
  gross_total_income: string;
  deductions: DeductionLine[];
  total_deductions: string;
  taxable_income: string;
  tax_on_income: string;
  rebate: string;
  surcharge: string;
  surcharge_relief: string;
  cess: string;
  total_tax: string;
  /** Relief for arrears of earlier years (s.89(1)), deducted from the total tax. */
  arrears_relief: string;
  arrears_relief_detail: ArrearsRelief | null;
  no_pan_rate_applied: boolean;
  tax_payable: string;
}

/** Rule 21A(2)'s computation (Form 10E): this year's tax with and without the arrears, each earlier year's likewise. */
export interface ArrearsRelief {
  arrears: string;
  current_year: {
    tax_year: string;
    total_income: string;
    total_income_without_arrears: string;
    tax: string;
    tax_without_arrears: string;
    difference: string;
  };
  earlier_years: {
    tax_year: string;
    regime: Regime;
    total_income: string;
    arrears: string;
    total_income_with_arrears: string;
    tax: string;
    tax_with_arrears: string;
    difference: string;
  }[];
  earlier_difference: string;
  relief: string;
}

/** Tax by the slabs on an income. */
export function slabTax(income: Decimal, slabs: { from: string; rate: string }[]): Decimal {
  let tax = ZERO;
  slabs.forEach((s, i) => {
    const from = dec(s.from);
    const to = slabs[i + 1] ? dec(slabs[i + 1].from) : null;
    if (income.lte(from)) return;
    const top = to && income.gt(to) ? to : income;
    tax = tax.plus(pct(top.minus(from), s.rate));
  });
  return tax;
}

function slabsOf(rules: RateRules, regime: Regime, band: AgeBand, resident: boolean) {
  const table = rules.regimes[regime].slabs;
  // the senior citizens' slabs are for residents (Finance Act, First Schedule Part III A(II)-(III))
  return (resident ? table[band] : undefined) ?? table.below_60 ?? table.any!;
}

/** Surcharge on `tax` at `income`, with marginal relief at the threshold crossed. */
export function surchargeOf(income: Decimal, tax: Decimal, rules: RateRules, regime: Regime, slabs: { from: string; rate: string }[]) {
  const bands = rules.regimes[regime].surcharge;
  const i = bands.findLastIndex((b) => income.gt(b.above));
  if (i < 0) return { surcharge: ZERO, relief: ZERO };
  const surcharge = pct(tax, bands[i].rate);
  const threshold = dec(bands[i].above);
  const atThreshold = slabTax(threshold, slabs);
  const belowRate = i > 0 ? bands[i - 1].rate : "0";
  const ceiling = atThreshold.plus(pct(atThreshold, belowRate)).plus(income.minus(threshold));
  const relief = Decimal.min(surcharge, nonNeg(tax.plus(surcharge).minus(ceiling)));
  return { surcharge, relief };
}

function capOf(rules: TaxRules, section: string, senior: boolean): Decimal | null {
  const l = rules.deduction_limits[section];
  if (!l || l.cap === null || l.cap === undefined) return null;
  return dec(senior && l.senior_cap ? l.senior_cap : l.cap);
}

/** HRA exempt under s.10(13A) and rule 2A: the least of the three. */
export function hraExemption(s: TaxInput["salary"], rules: TaxRules): Decimal {
  if (s.hra_received.lte(0) || s.rent_paid.lte(0)) return ZERO;
  const rentOver = nonNeg(s.rent_paid.minus(pct(s.basic_da, rules.hra.rent_over_percent)));
  const share = pct(s.basic_da, s.metro ? rules.hra.metro_percent : rules.hra.other_percent);
  return Decimal.min(s.hra_received, rentOver, share);
}

// size: the computation written out step by step in the statute's order (see the header)
export function computeIncomeTax(input: TaxInput, rules: TaxRules): TaxComputation {
  const { regime, salary: s } = input;
  const r = rules.regimes[regime];
  const allowsExemption = (sec: string) => r.exemptions.includes(sec);
  const exemptions: Line[] = [];
  const exempt = (section: string, description: string, amount: Decimal) => {
    if (amount.gt(0)) exemptions.push({ section, description, amount: amount.toFixed(2) });
  };
  if (allowsExemption("10(13A)")) exempt("10(13A)", "House rent allowance", hraExemption(s, rules));
  if (allowsExemption("10(5)")) exempt("10(5)", "Leave travel allowance", Decimal.min(s.lta_received, s.lta_claimed));
  if (s.gratuity && allowsExemption("10(10)")) {
    const limits = [s.gratuity.amount, dec(rules.gratuity_exemption.cap), ...(s.gratuity.limit ? [s.gratuity.limit] : [])];
    exempt("10(10)", "Gratuity", nonNeg(Decimal.min(...limits)));
  }
  if (s.leave_encashment && allowsExemption("10(10AA)")) {
    const limits = [
      s.leave_encashment.amount,
      dec(rules.leave_encashment_exemption.cap),
      ...(s.leave_encashment.limit ? [s.leave_encashment.limit] : []),
    ];
    exempt("10(10AA)", "Leave encashment on leaving", nonNeg(Decimal.min(...limits)));
  }
  const totalExempt = exemptions.reduce((t, e) => t.plus(e.amount), ZERO);
  const afterExempt = nonNeg(s.gross.minus(totalExempt));
  const standard = Decimal.min(afterExempt, dec(r.standard_deduction.amount));
  const pt = allowsExemption("16(iii)") ? Decimal.min(s.professional_tax, nonNeg(afterExempt.minus(standard))) : ZERO;
  const fromSalary = nonNeg(afterExempt.minus(standard).minus(pt));

  const senior = input.age_band !== "below_60";
  const claimed = { ...input.deductions };
  const allowed = (sec: DeductionSection) => r.deductions.includes(sec);
  const interest = allowed("24(b)") ? (claimed["24(b)"] ?? ZERO) : ZERO;
  const houseProperty = interest.gt(0) ? Decimal.min(interest, capOf(rules, "24(b)", false) ?? interest).neg() : ZERO;
  const grossTotal = nonNeg(fromSalary.plus(houseProperty).plus(input.other_income));

  const lines: DeductionLine[] = [];
  let room = grossTotal;
  const take = (sec: string, claim: Decimal, cap: Decimal | null) => {
    if (claim.lte(0)) return;
    const a = Decimal.min(claim, cap ?? claim, room);
    room = room.minus(a);
    lines.push({ section: sec, claimed: claim.toFixed(2), allowed: a.toFixed(2) });
  };
  if (allowed("80C")) take("80C", (claimed["80C"] ?? ZERO).plus(s.employee_pf), capOf(rules, "80C", false));
  if (allowed("80CCD(1B)")) take("80CCD(1B)", claimed["80CCD(1B)"] ?? ZERO, capOf(rules, "80CCD(1B)", false));
  if (allowed("80CCD(2)") && s.employer_nps?.gt(0)) {
    const p = rules.deduction_limits["80CCD(2)"]?.cap_percent_of_salary?.[regime];
    take("80CCD(2)", s.employer_nps, p ? pct(s.basic_da, p) : null);
  }
  if (allowed("80D_self")) take("80D_self", claimed["80D_self"] ?? ZERO, capOf(rules, "80D_self", senior));
  if (allowed("80D_parents")) take("80D_parents", claimed["80D_parents"] ?? ZERO, capOf(rules, "80D_parents", !!input.parents_senior));
  if (allowed("80E")) take("80E", claimed["80E"] ?? ZERO, capOf(rules, "80E", false));
  const totalDeductions = lines.reduce((t, l) => t.plus(l.allowed), ZERO);

  const taxable = roundToTen(nonNeg(grossTotal.minus(totalDeductions)));
  const t = taxOnTotalIncome(taxable, input, rules);
  const arrears = arrearsReliefOf(input, rules, taxable, t.total);
  const afterRelief = t.total.minus(arrears?.relief ?? ZERO);
  const noPan = !input.has_pan && afterRelief.gt(0) && pct(taxable, rules.no_pan.rate).gt(afterRelief);
  const payable = noPan ? roundToTen(pct(taxable, rules.no_pan.rate)) : afterRelief;
  const m = (v: Decimal) => v.toFixed(2);
  return {
    tax_year: rules.tax_year,
    regime,
    age_band: input.age_band,
    resident: input.resident,
    has_pan: input.has_pan,
    gross_salary: m(s.gross),
    exemptions,
    standard_deduction: m(standard),
    professional_tax: m(pt),
    income_from_salary: m(fromSalary),
    house_property: m(houseProperty),
    other_income: m(input.other_income),
    gross_total_income: m(grossTotal),
    deductions: lines,
    total_deductions: m(totalDeductions),
    taxable_income: m(taxable),
    tax_on_income: m(rupees(t.tax)),
    rebate: m(rupees(t.rebate)),
    surcharge: m(rupees(t.surcharge)),
    surcharge_relief: m(rupees(t.surcharge_relief)),
    cess: m(rupees(t.cess)),
    total_tax: m(t.total),
    arrears_relief: m(arrears?.relief ?? ZERO),
    arrears_relief_detail: arrears ? arrears.detail : null,
    no_pan_rate_applied: noPan,
    tax_payable: m(payable),
  };
}

/**
 * The tax on a total income (already rounded to ₹10) at a year's rates: slab tax − rebate (s.87A, with
 * marginal relief where the year has it) + surcharge − its marginal relief + cess, rounded to ₹10 (s.288B).
 */
export function taxOnTotalIncome(
  taxable: Decimal,
  who: { regime: Regime; age_band: AgeBand; resident: boolean },
  rules: RateRules,
): { tax: Decimal; rebate: Decimal; surcharge: Decimal; surcharge_relief: Decimal; cess: Decimal; total: Decimal } {
  const r = rules.regimes[who.regime];
  const slabs = slabsOf(rules, who.regime, who.age_band, who.resident);
  const tax = slabTax(taxable, slabs);
  let rebate = ZERO;
  const limit = dec(r.rebate.income_limit);
  if (who.resident || !r.rebate.residents_only) {
    if (taxable.lte(limit)) rebate = Decimal.min(tax, dec(r.rebate.max));
    else if (r.rebate.marginal_relief) rebate = nonNeg(tax.minus(taxable.minus(limit)));
  }
  const afterRebate = tax.minus(rebate);
  const { surcharge, relief } = surchargeOf(taxable, afterRebate, rules, who.regime, slabs);
  const beforeCess = afterRebate.plus(surcharge).minus(relief);
  const cess = pct(beforeCess, rules.cess.rate);
  return { tax, rebate, surcharge, surcharge_relief: relief, cess, total: roundToTen(beforeCess.plus(cess)) };
}

/**
 * Relief for arrears under s.89(1) by rule 21A(2): (this year's tax with the arrears − without them) −
 * Σ over the earlier years (that year's tax on its total income with its arrears − without), each year
 * at its own rates and under its own regime; never below nil. "Without" this year is the same
 * computation on the salary less the arrears. Years without rates on record are refused where the
 * arrears are recorded (profile.ts), so every year here has rates.
 */
function arrearsReliefOf(input: TaxInput, rules: TaxRules, taxable: Decimal, total: Decimal) {
  const arrears = input.arrears ?? [];
  if (!arrears.length) return null;
  const sum = arrears.reduce((t, a) => t.plus(a.amount), ZERO);
  const salary = { ...input.salary, gross: nonNeg(input.salary.gross.minus(sum)) };
  const without = computeIncomeTax({ ...input, salary, arrears: [] }, rules);
  const current = total.minus(without.total_tax);
  const years = arrears.map((a) => {
    const rates = rateRulesOf(a.relates_to);
    if (!rates) throw new Error(`no rates on record for the tax year ${a.relates_to}`);
    const who = { regime: a.regime, age_band: a.age_band, resident: input.resident };
    const base = roundToTen(a.total_income);
    const raised = roundToTen(a.total_income.plus(a.amount));
    const before = taxOnTotalIncome(base, who, rates).total;
    const after = taxOnTotalIncome(raised, who, rates).total;
    return { a, base, raised, before, after, difference: after.minus(before) };
  });
  const earlier = years.reduce((t, y) => t.plus(y.difference), ZERO);
  const relief = nonNeg(current.minus(earlier));
  const m = (v: Decimal) => v.toFixed(2);
  const detail: ArrearsRelief = {
    arrears: m(sum),
    current_year: {
      tax_year: rules.tax_year,
      total_income: m(taxable),
      total_income_without_arrears: without.taxable_income,
      tax: m(total),
      tax_without_arrears: without.total_tax,
      difference: m(current),
    },
    earlier_years: years.map((y) => ({
      tax_year: y.a.relates_to,
      regime: y.a.regime,
      total_income: m(y.base),
      arrears: m(y.a.amount),
      total_income_with_arrears: m(y.raised),
      tax: m(y.before),
      tax_with_arrears: m(y.after),
      difference: m(y.difference),
    })),
    earlier_difference: m(earlier),
    relief: m(relief),
  };
  return { relief, detail };
}

/** An input with no exemptions, deductions or other income: a salary alone. */
export function salaryOnly(gross: Decimal.Value, regime: Regime, extra: Partial<TaxInput> = {}): TaxInput {
  return {
    regime,
    age_band: "below_60",
    resident: true,
    has_pan: true,
    salary: {
      gross: new Decimal(gross),
      basic_da: ZERO,
      hra_received: ZERO,
      rent_paid: ZERO,
      metro: false,
      lta_received: ZERO,
      lta_claimed: ZERO,
      professional_tax: ZERO,
      employee_pf: ZERO,
    },
    other_income: ZERO,
    deductions: {},
    ...extra,
  };
}
