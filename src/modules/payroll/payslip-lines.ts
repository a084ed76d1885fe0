// What a payslip prints, line by line (label and amount): the data of the PDF, laid out by
// payslip-pdf.ts. Amounts are the slip's, formatted by the caller's `fmt`.
import { Decimal, money } from "../../lib/money.ts";
import { mask } from "../../platform/audit.ts";
import type { slipJson } from "./json.ts";

export type Slip = ReturnType<typeof slipJson>;

export interface PayslipCompany {
  name: string;
  address: string | null;
  currency: string;
}

/** What the payslip prints from the employee record (read when the PDF is made; null when the record is gone). */
export interface PayslipEmployee {
  joining_date: string | null;
  pan_number: string | null;
  uan: string | null;
  esi_number: string | null;
  bank_name: string | null;
  bank_account_number: string | null;
  bank_iban: string | null;
  bank_ifsc: string | null;
}

/** A line of the payslip: its label and its amount (or text). */
export type Row = [string, string];

/**
 * The pay lost to unpaid days: the earnings' full-month amounts less what was paid, in the share
 * of loss-of-pay days among all unpaid days of the month (the rest is days before joining or after
 * leaving). Components that do not depend on payment days lose nothing.
 */
export function lopAmount(slip: Pick<Slip, "earnings" | "days_in_period" | "payable_days" | "lop_days">): Decimal {
  const lop = money(slip.lop_days);
  const unpaid = new Decimal(slip.days_in_period).minus(slip.payable_days);
  if (lop.lte(0) || unpaid.lte(0)) return new Decimal(0);
  const reduction = slip.earnings.reduce((s, l) => s.plus(money(l.full_amount).minus(l.amount)), new Decimal(0));
  return reduction.times(lop).div(unpaid).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}

/** The deduction lines of a slip: components, then the statutory ones, then loan installments. */
export function deductionRows(slip: Slip): Row[] {
  const rows: Row[] = slip.deductions.map((l) => [l.name, l.amount]);
  if (slip.pf.applicable) rows.push(["Provident fund (employee)", slip.pf_employee]);
  if (slip.esi.covered) rows.push(["ESI (employee)", slip.esi_employee]);
  if (slip.professional_tax !== "0.00") rows.push(["Professional tax", slip.professional_tax]);
  // income tax at source: shown wherever the company withholds it, nil months too (the year to date is on the slip's JSON)
  if (slip.income_tax !== undefined)
    rows.push([`Income tax (TDS, year to date ${slip.income_tax_detail?.tds_to_date ?? slip.income_tax})`, slip.income_tax]);
  for (const l of slip.loans) rows.push([`Loan ${l.loan_number}`, l.amount]);
  return rows;
}

/** The employer's contributions (not deducted from pay), only those that apply. */
export function employerRows(slip: Slip): Row[] {
  const rows: Row[] = [];
  if (slip.pf.applicable) {
    rows.push(["Provident fund (EPF, employer)", slip.pf.employer_epf]);
    if (slip.pf.eps_applicable) rows.push(["Pension scheme (EPS, employer)", slip.pf.employer_eps]);
    if (slip.pf.edli !== "0.00") rows.push(["EDLI insurance", slip.pf.edli]);
    if (slip.pf.admin_charges !== "0.00") rows.push(["PF admin charges", slip.pf.admin_charges]);
  }
  if (slip.esi.covered) rows.push(["ESI (employer)", slip.esi.employer]);
  return rows;
}

/**
 * The slip's wages under the labour codes (Code on Wages s.2(y)), as paid in the month: wages,
 * exclusions, the limit and the add-back - only when the code's wage applies to the slip (a slip
 * under the pre-code rule, or calculated before slips showed it, prints none); with the line that
 * says what the wage is used for.
 */
export function codeWageRows(slip: Slip, fmt: (v: string) => string = (v) => v): { rows: Row[]; total: Row; note: string } | null {
  const cw = slip.code_wages;
  if (!cw || (cw.rule !== "code" && cw.pf_rule !== "code")) return null;
  const m = cw.month;
  const rows: Row[] = [
    ["Wages (basic pay, dearness allowance, retaining allowance)", m.wages],
    ["Exclusions (allowances and other payments of s.2(y)(a)-(i))", m.exclusions],
  ];
  if (m.gratuity_retrenchment !== "0.00")
    rows.push(["Gratuity and retrenchment compensation (in the total, not tested)", m.gratuity_retrenchment]);
  rows.push(
    ["Total remuneration", m.total_remuneration],
    [`Limit: ${cw.exclusion_limit_percent} % of the total remuneration`, m.exclusion_limit],
    ["Exclusions above the limit, added back to wages", m.add_back],
  );
  const uses = [
    cw.pf_rule === "code" ? "provident fund" : null,
    cw.rule === "code" ? `leave encashment (at the full month's wage, ${fmt(cw.day_wage)})` : null,
    cw.rule === "code" && slip.gratuity_provision !== undefined ? "gratuity provision" : null,
  ].filter(Boolean);
  const pf =
    cw.pf_rule === "code" ? "" : ` Provident fund is on the EPF Act's basic wages (${fmt(slip.pf.wages)}) until ${cw.pf_code_wages_from}.`;
  return { rows, total: ["Wage under the labour codes", m.wage], note: `Used for: ${uses.join(", ")}.${pf}` };
}

/** The employee's particulars: two pairs of label and value per printed row (the bank account masked to its last four characters). */
export function particularRows(
  slip: Slip,
  employee: PayslipEmployee | null,
  cur: string,
  fmt: (v: string | Decimal) => string,
): [Row, Row][] {
  const account = employee?.bank_account_number
    ? (mask("bank_account_number", employee.bank_account_number) as string)
    : employee?.bank_iban
      ? (mask("bank_iban", employee.bank_iban) as string)
      : "-";
  const lop = lopAmount(slip);
  return [
    [
      ["Employee name", slip.employee_name],
      ["Employee code", slip.employee_code],
    ],
    [
      ["Designation", slip.designation],
      ["Department", slip.department],
    ],
    [
      ["Date of joining", employee?.joining_date ?? "-"],
      ["Slip number", slip.slip_number ?? "-"],
    ],
    [
      ["PAN", employee?.pan_number ?? "-"],
      ["UAN", employee?.uan ?? "-"],
    ],
    [
      ["ESI number", employee?.esi_number ?? "-"],
      ["Bank", [employee?.bank_name, employee?.bank_ifsc].filter(Boolean).join(", ") || "-"],
    ],
    [
      ["Bank account", account],
      ["Pay period", `${slip.pay_start} to ${slip.pay_end}`],
    ],
    [
      ["Days in month", String(slip.days_in_period)],
      ["Paid days", slip.payable_days],
    ],
    [
      ["Loss of pay (days)", slip.lop_days],
      ["Loss of pay (amount)", `${cur} ${fmt(lop)}`],
    ],
  ];
}

/** Payments beside the salary (reimbursements, leave encashments, and the day rate the encashments are priced at). */
export function otherPaymentRows(slip: Slip, fmt: (v: string | Decimal) => string): Row[] {
  const other: Row[] = [
    ...slip.reimbursement_lines.map((c): Row => [`Reimbursement ${c.claim_number} (${c.category})`, fmt(c.amount)]),
    ...slip.encashments.map((x): Row => [`Leave encashment: ${x.days} days ${x.leave_type}`, fmt(x.amount)]),
  ];
  // the day rate the encashments are priced at (the company's basis and divisor)
  const rate = slip.encashment_rate;
  if (slip.encashments.length && rate)
    other.push([
      `Encashment day rate: ${rate.basis === "gross" ? "full-month gross" : "monthly wage"} ${fmt(rate.monthly)} / ` +
        `${rate.divisor_days} = ${fmt(rate.daily)} a day`,
      "",
    ]);
  return other;
}
