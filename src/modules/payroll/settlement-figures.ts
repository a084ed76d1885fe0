// The figures of a full and final settlement - pure, exact decimals, no I/O (settlements.ts loads
// the inputs): last month's salary, leave encashment, gratuity, notice shortfall, loans and claims,
// with the statutory due dates and interest on late gratuity. The rules are the FinalSettlement
// schema's description; sources and examples: docs/payroll-settlements.md, "Settlement rules".
import { addDays, daysBetween, type DateString } from "../../lib/dates.ts";
import { Decimal } from "../../lib/money.ts";
import { type ClaimDue, type DayRateJson, dayPay, type Line, type LoanDue, type SalaryPeriodJson, type SlipResult } from "./compute.ts";
import {
  computeGratuity,
  DEATH_OR_DISABLEMENT,
  type FifthYear,
  type GratuityResult,
  type GratuitySettings,
  type Separation,
} from "./gratuity.ts";

/** Simple interest a year on gratuity paid late: S.O. 874(E) of 1 Oct 1987 under s.7(3A) of the Payment of Gratuity Act 1972. */
export const GRATUITY_LATE_INTEREST_PERCENT = "10.00";
/** Days within which gratuity is paid once payable (s.7(3)). */
export const GRATUITY_DUE_DAYS = 30;
/** Working days after the separation within which final wages are paid (Code on Wages 2019 s.17(2)). */
export const FINAL_WAGES_DUE_WORKING_DAYS = 2;

/** SettlementDues of the document. */
export interface SettlementDues {
  final_wages_due: DateString;
  gratuity_due: DateString | null;
  /** The day interest is counted to: the processing day once processed, else the day the draft was computed. */
  as_of: DateString;
  paid_on: DateString | null;
  gratuity_interest: { rate_percent: string; from: DateString; to: DateString; days: number; amount: string } | null;
}

/** The dates the caller found (working days need the company's calendar). */
export interface DuesInput {
  final_wages_due: DateString;
  /** Today (a draft), or the processing day. */
  as_of: DateString;
  paid: boolean;
}
import type { CodeWageFigures, WageRule } from "./wages.ts";

/** SettlementCodeWages of the document: the rule in force on the last working day and the wage it gives. */
export interface SettlementCodeWages {
  rule: WageRule["rule"];
  note: string | null;
  code_wages_from: DateString;
  exclusion_limit_percent: string;
  full_month: CodeWageFigures;
  wage: string;
}

/** A settlement's code wage from its last month's slip: the slip's rule and figures, the day wage as the wage. */
export function settlementCodeWagesOf(cw: NonNullable<SlipResult["details"]["code_wages"]>): SettlementCodeWages {
  return {
    rule: cw.rule,
    note: cw.note,
    code_wages_from: cw.code_wages_from,
    exclusion_limit_percent: cw.exclusion_limit_percent,
    full_month: cw.full_month,
    wage: cw.day_wage,
  };
}

export interface LeaveBalanceInput {
  leave_type_id: string;
  leave_type: string;
  period_id: string;
  days: string;
  /** `balance`: the days left, encashed by processing; `request`: an approved encashment request not yet paid (its id). */
  source: "balance" | "request";
  encashment_id: string | null;
}

export interface SettlementInput {
  joining_date: DateString;
  resignation_date: DateString;
  last_working_day: DateString;
  separation: Separation;
  fixed_term: boolean;
  notice_period_days: number;
  recover_notice_shortfall: boolean;
  /** The monthly wage (full month): the labour codes' wage, or basic + DA before them. */
  wage: Decimal.Value;
  /** How the wage was found (shown on the settlement); null when not known. */
  code_wages?: SettlementCodeWages | null;
  /** The last month's salary as a run computes it, and whether a processed run already paid it. */
  salary: { slip: SlipResult; paid_by_run: string | null };
  leave: LeaveBalanceInput[];
  loans: LoanDue[];
  claims: ClaimDue[];
  gratuity: GratuitySettings;
  /** The day rate of leave encashment and notice pay (the last month's slip: the company's basis and divisor); absent: wage ÷ 26. */
  day_rate?: DayRateJson;
  /** The fifth year's days actually worked (the Madras reading of continuous service), when they may decide. */
  fifth_year?: FifthYear | null;
  /** The due dates and the day of payment (absent: none shown, no interest). */
  dues?: DuesInput;
}

export interface SalaryPart {
  included: boolean;
  note: string | null;
  month: string;
  pay_start: DateString;
  pay_end: DateString;
  days_in_period: number;
  payable_days: string;
  lop_days: string;
  earnings: Line[];
  deductions: Line[];
  gross: string;
  pf_employee: string;
  esi_employee: string;
  professional_tax: string;
  total_deductions: string;
  net: string;
  /** The parts of the month paid at each salary setup, when it was revised within the month. */
  periods?: SalaryPeriodJson[];
}

export interface SettlementFigures {
  daily_wage: string;
  /** Absent on settlements computed before it was shown (the API answers null). */
  code_wages?: SettlementCodeWages | null;
  salary: SalaryPart;
  leave_encashment_lines: (LeaveBalanceInput & { amount: string })[];
  gratuity_detail: GratuityResult;
  notice: { required_days: number; served_days: number; shortfall_days: number; recovered: boolean; amount: string; note?: string | null };
  /** The day rate of leave encashment and notice pay (absent on settlements computed before it was shown). */
  day_rate?: DayRateJson;
  /** Statutory due dates and the interest on late gratuity (absent on settlements computed before they were shown). */
  dues?: SettlementDues;
  /** Interest on gratuity paid late, included in total_payable (absent before it was shown: none). */
  gratuity_interest?: string;
  loans: LoanDue[];
  claims: ClaimDue[];
  salary_net: string;
  leave_encashment: string;
  gratuity: string;
  reimbursements: string;
  notice_recovery: string;
  loan_recovery: string;
  total_payable: string;
  total_recovery: string;
  net_payable: string;
  /** Income tax at source recovered by the settlement (India; absent where none is withheld), part of total_recovery. */
  income_tax?: string;
  income_tax_detail?: import("./income-tax/settlement.ts").SettlementTax["income_tax_detail"];
}

const r2 = (d: Decimal) => d.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
const m2 = (d: Decimal) => d.toFixed(2);
const sum = (values: Decimal.Value[]) => values.reduce<Decimal>((s, v) => s.plus(v), new Decimal(0));

// size: the statement's figures in the order the settlement shows them, each with the rule it follows
export function settlementFigures(input: SettlementInput): SettlementFigures {
  const wage = new Decimal(input.wage);
  const rate: DayRateJson = input.day_rate ?? {
    basis: "wage",
    divisor: "26",
    divisor_days: 26,
    monthly: m2(wage),
    daily: m2(r2(wage.div(26))),
  };
  // notice shortfall: days × the day rate, rounded once, as leave encashment (below) is
  const daysPay = (n: Decimal.Value) => dayPay(n, rate);

  const s = input.salary.slip;
  const included = input.salary.paid_by_run === null;
  const zero = "0.00";
  const salary: SalaryPart = {
    included,
    note: included ? null : `Paid by the processed payroll run ${input.salary.paid_by_run}`,
    month: s.pay_end.slice(0, 7),
    pay_start: s.pay_start,
    pay_end: s.pay_end,
    days_in_period: s.days_in_period,
    payable_days: s.payable_days.toFixed(1),
    lop_days: s.lop_days.toFixed(1),
    earnings: included ? s.details.earnings : [],
    deductions: included ? s.details.deductions : [],
    gross: included ? m2(s.gross) : zero,
    pf_employee: included ? m2(s.pf_employee) : zero,
    esi_employee: included ? m2(s.esi_employee) : zero,
    professional_tax: included ? m2(s.professional_tax) : zero,
    total_deductions: included ? m2(s.total_deductions) : zero,
    net: included ? m2(s.net_pay) : zero,
    ...(included && s.details.salary_periods ? { periods: s.details.salary_periods } : {}),
  };

  // leave: the rule a payroll run pays an approved encashment by, so a day is worth the same either way
  const leave = input.leave.map((l) => ({ ...l, amount: m2(daysPay(l.days)) }));
  const gratuity = computeGratuity({
    wage,
    joining_date: input.joining_date,
    last_working_day: input.last_working_day,
    separation: input.separation,
    fixed_term: input.fixed_term,
    settings: input.gratuity,
    fifth_year: input.fifth_year ?? null,
  });
  const served = daysBetween(input.resignation_date, input.last_working_day) + 1;
  const shortfall = Math.max(0, input.notice_period_days - served);
  // never on death or disablement: there is no notice to serve
  const noRecovery = DEATH_OR_DISABLEMENT.includes(input.separation);
  const recovered = input.recover_notice_shortfall && !noRecovery;
  const noticeAmount = recovered ? daysPay(shortfall) : new Decimal(0);
  const noticeNote =
    noRecovery && input.recover_notice_shortfall && shortfall > 0
      ? `No notice shortfall is recovered on ${input.separation} (${m2(daysPay(shortfall))} would have been recovered)`
      : null;

  // due dates and interest on gratuity paid late
  let dues: SettlementDues | undefined;
  let interest = new Decimal(0);
  if (input.dues) {
    const payable = new Decimal(gratuity.amount).gt(0);
    const gratuityDue = payable ? addDays(input.last_working_day, GRATUITY_DUE_DAYS) : null;
    const late = gratuityDue !== null && input.dues.as_of > gratuityDue;
    const days = late ? daysBetween(input.last_working_day, input.dues.as_of) : 0;
    interest = late
      ? new Decimal(gratuity.amount).times(GRATUITY_LATE_INTEREST_PERCENT).times(days).div(36500).toDecimalPlaces(2, Decimal.ROUND_HALF_UP)
      : interest;
    dues = {
      final_wages_due: input.dues.final_wages_due,
      gratuity_due: gratuityDue,
      as_of: input.dues.as_of,
      paid_on: input.dues.paid ? input.dues.as_of : null,
      gratuity_interest: late
        ? { rate_percent: GRATUITY_LATE_INTEREST_PERCENT, from: input.last_working_day, to: input.dues.as_of, days, amount: m2(interest) }
        : null,
    };
  }

  const encashment = sum(leave.map((l) => l.amount));
  const reimbursements = sum(input.claims.map((c) => c.amount));
  const loanRecovery = sum(input.loans.map((l) => l.amount));
  const totalPayable = sum([salary.net, encashment, gratuity.amount, interest, reimbursements]);
  const totalRecovery = noticeAmount.plus(loanRecovery);
  return {
    daily_wage: rate.daily,
    day_rate: rate,
    ...(dues ? { dues, gratuity_interest: m2(interest) } : {}),
    code_wages: input.code_wages ?? null,
    salary,
    leave_encashment_lines: leave,
    gratuity_detail: gratuity,
    notice: {
      required_days: input.notice_period_days,
      served_days: served,
      shortfall_days: shortfall,
      recovered,
      amount: m2(noticeAmount),
      note: noticeNote,
    },
    loans: input.loans,
    claims: input.claims,
    salary_net: salary.net,
    leave_encashment: m2(encashment),
    gratuity: gratuity.amount,
    reimbursements: m2(reimbursements),
    notice_recovery: m2(noticeAmount),
    loan_recovery: m2(loanRecovery),
    total_payable: m2(totalPayable),
    total_recovery: m2(totalRecovery),
    net_payable: m2(totalPayable.minus(totalRecovery)),
  };
}
