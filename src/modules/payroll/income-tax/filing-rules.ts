// The employer's TDS deadlines and the statute's arithmetic for missing them, read from effective-dated
// data (rates/filing.json: each rule with its source and the date it applies from). Used by challans and
// the quarterly return; the sources: docs/payroll-tax.md "What the employer files".
import { type DateString, daysBetween } from "../../../lib/dates.ts";
import { Decimal } from "../../../lib/money.ts";
import filing from "./rates/filing.json" with { type: "json" };

export interface FilingRules {
  effective_from: DateString;
  effective_to: DateString | null;
  law: string;
  interest: { not_deducted_rate_percent: string; deducted_not_paid_rate_percent: string; per: string; source: string };
  late_filing_fee: { per_day: string; capped_at: string; source: string };
  deposit_due: { day_of_next_month: number; march_due: string; source: string };
  return_due: Record<Quarter, string> & { source: string };
  forms: { certificate: "Form 16" | "Form 130"; quarterly_return: "Form 24Q" | "Form 138"; challan: string };
  /** The e-TDS text file of the quarterly statement: which layout, the form number and the salary section code in it. */
  etds: { layout: "24Q" | "138"; form_number: "24Q" | "138"; salary_section_code: string; source: string };
}
export type Quarter = "Q1" | "Q2" | "Q3" | "Q4";

const RULES = filing.rules as FilingRules[];

/** The rules in force on a date (the latest whose effective_from is on or before it); the first on record before that. */
export function filingRulesOn(date: DateString): FilingRules {
  let found = RULES[0];
  for (const r of RULES) if (r.effective_from <= date) found = r;
  return found;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** When tax deducted in (year, month) is due at the bank: the 7th of the next month; March's on 30 April. */
export function depositDueDate(year: number, month: number): DateString {
  const r = filingRulesOn(`${year}-${pad(month)}-01`);
  if (month === 3) return `${year}-${r.deposit_due.march_due}`;
  const y = month === 12 ? year + 1 : year;
  const m = month === 12 ? 1 : month + 1;
  return `${y}-${pad(m)}-${pad(r.deposit_due.day_of_next_month)}`;
}

/** The quarter of a tax year a month falls in (April-June is Q1). */
export const quarterOf = (month: number): Quarter => (["Q4", "Q1", "Q2", "Q3"] as const)[Math.floor((month - 1) / 3) % 4];

/** The months (year, month) of a quarter of a tax year ("2025-26", "Q4" → Jan-Mar 2026). */
export function quarterMonths(taxYear: string, q: Quarter): { year: number; month: number }[] {
  const start = Number(taxYear.slice(0, 4));
  const first = { Q1: 4, Q2: 7, Q3: 10, Q4: 1 }[q];
  const year = q === "Q4" ? start + 1 : start;
  return [0, 1, 2].map((i) => ({ year, month: first + i }));
}

/** The last day for the quarterly return of a tax year's quarter (31 July, 31 October, 31 January, 31 May). */
export function returnDueDate(taxYear: string, q: Quarter): DateString {
  const start = Number(taxYear.slice(0, 4));
  const r = filingRulesOn(`${start}-04-01`);
  return `${q === "Q1" || q === "Q2" ? start : start + 1}-${r.return_due[q]}`;
}

/**
 * Months "or part of a month" from one date to another, both counted: calendar months touched, as TRACES
 * computes (deducted 4 March, paid 7 May → March, April, May = 3). Zero when `to` is not after `from`.
 */
export function monthsOrPart(from: DateString, to: DateString): number {
  if (to <= from) return 0;
  const ym = (d: DateString) => Number(d.slice(0, 4)) * 12 + Number(d.slice(5, 7));
  return ym(to) - ym(from) + 1;
}

export interface InterestLine {
  from: DateString;
  to: DateString;
  months: number;
  rate_percent: string;
  amount: string;
  source: string;
}

/**
 * Interest on tax paid late (s.201(1A) / s.398(3) of the Act 2025): 1 % a month or part from when the tax
 * was deductible to when it was deducted, 1.5 % from when it was deducted to when it was paid (nothing
 * for the second part when paid by the due date). Each part rounded to the rupee; the rule is the one in
 * force on the date the tax was deductible.
 */
export function lateInterest(
  tax: Decimal.Value,
  dates: { deductible: DateString; deducted: DateString; paid: DateString; due: DateString },
): { total: string; lines: InterestLine[] } {
  const r = filingRulesOn(dates.deductible);
  const amount = new Decimal(tax);
  const lines: InterestLine[] = [];
  const add = (from: DateString, to: DateString, rate: string) => {
    const months = monthsOrPart(from, to);
    if (!months) return;
    const value = amount.times(rate).div(100).times(months).toDecimalPlaces(0, Decimal.ROUND_HALF_UP);
    lines.push({ from, to, months, rate_percent: rate, amount: value.toFixed(2), source: r.interest.source });
  };
  add(dates.deductible, dates.deducted, r.interest.not_deducted_rate_percent);
  if (dates.paid > dates.due) add(dates.deducted, dates.paid, r.interest.deducted_not_paid_rate_percent);
  const total = lines.reduce((t, l) => t.plus(l.amount), new Decimal(0));
  return { total: total.toFixed(2), lines };
}

/**
 * The late-filing fee of a quarterly return (s.234E / s.427 of the Act 2025): ₹200 for each day after the
 * due date until it is filed, never more than the TDS of the statement.
 */
export function lateFilingFee(
  tds: Decimal.Value,
  due: DateString,
  filed: DateString,
  // the law of the statement's tax year, not of its due date (a 2025-26 Q4 statement is due in May 2026)
  ruleDate: DateString = due,
): { days: number; fee: string; capped: boolean; source: string } {
  const r = filingRulesOn(ruleDate);
  const days = Math.max(0, daysBetween(due, filed));
  const raw = new Decimal(r.late_filing_fee.per_day).times(days);
  const cap = new Decimal(tds);
  const capped = raw.gt(cap);
  return { days, fee: (capped ? cap : raw).toFixed(2), capped, source: r.late_filing_fee.source };
}
