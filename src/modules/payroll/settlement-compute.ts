// Computing a final settlement from the current data, inside the caller's transaction: the last month's
// salary, pending loan installments, approved claims, leave to encash, gratuity (with the fifth year's
// days worked where the company counts them) and the due dates; settlement-figures.ts does the arithmetic.
import type { Prisma } from "../../../generated/prisma/client.ts";
import type { ScopedTx } from "../../db/tenancy.ts";
import { addDays, type DateString, daysBetween, toDateString, weekday } from "../../lib/dates.ts";
import { Decimal } from "../../lib/money.ts";
import { conflict, notFound } from "../../platform/errors.ts";
import type { ExitFacts } from "../employees/index.ts";
import { approvedLeaveBetween, encashmentsToPay, exitLeaveBalances, mandatoryHolidaysBetween } from "../leave/index.ts";
import { absencesBetween } from "../attendance/index.ts";
import { loadAttendanceSettings } from "../shared/work-settings.ts";
import { AmountOutOfRange, assertFits, lossOfPay, type SlipResult } from "./compute.ts";
import { employeeMonthSalary } from "./calculation.ts";
import { type FifthYear, type Separation, serviceBetween } from "./gratuity.ts";
import { FINAL_WAGES_DUE_WORKING_DAYS, settlementCodeWagesOf, settlementFigures, type SettlementFigures } from "./settlement-figures.ts";
import { readSettings } from "./statutory.ts";
import { settlementIncomeTax } from "./income-tax/settlement.ts";
import * as clock from "../../lib/clock.ts";
import { employeeSelect, type EmployeeRow, type Details } from "./settlement-json.ts";

export interface Options {
  separation: Separation;
  notice_period_days: number;
  recover_notice_shortfall: boolean;
}

/** The company's calendar for an employee: weekly offs and the mandatory holidays that apply to them. */
async function offDays(tx: ScopedTx, e: EmployeeRow, from: DateString, to: DateString) {
  const settings = await loadAttendanceSettings(tx);
  const offs = new Set(settings.weekly_offs);
  const applies = (h: { branch_id: string | null; work_location_id: string | null }) =>
    (h.branch_id === null || h.branch_id === e.branch_id) && (h.work_location_id === null || h.work_location_id === e.work_location_id);
  const hols = new Set((await mandatoryHolidaysBetween(tx, from, to)).filter(applies).map((h) => h.date));
  return { isOff: (d: DateString) => offs.has(weekday(d)) || hols.has(d), weeklyOffs: settings.weekly_offs.length };
}

/** The `n`th working day after `d` (weekly offs and mandatory holidays skipped). */
async function workingDaysAfter(tx: ScopedTx, e: EmployeeRow, d: DateString, n: number): Promise<DateString> {
  const { isOff } = await offDays(tx, e, addDays(d, 1), addDays(d, 60));
  let day = d;
  // a calendar with no working day in sight (every day off) counts calendar days after 60
  for (let k = 0; k < n; ) {
    day = addDays(day, 1);
    if (!isOff(day) || daysBetween(d, day) > 60) k++;
  }
  return day;
}

/**
 * The days actually worked in the year after four completed years (the Madras reading of
 * continuous service, GratuitySettings `continuous_service_rule`): the working days of
 * [joining + 4 years, last working day] (not weekly offs or mandatory holidays) less unpaid leave
 * and absences (absent 1, half day 0.5) - paid leave counts as worked (s.2A Explanation); 240
 * needed, 190 when the company works fewer than six days a week (two or more weekly offs).
 */
async function fifthYearOf(tx: ScopedTx, e: EmployeeRow, lwd: DateString): Promise<FifthYear> {
  const j = toDateString(e.joining_date);
  const from = `${Number(j.slice(0, 4)) + 4}${j.slice(4)}`.replace(/-02-29$/, "-03-01");
  const { isOff, weeklyOffs } = await offDays(tx, e, from, lwd);
  let working = 0;
  for (let d = from; d <= lwd; d = addDays(d, 1)) if (!isOff(d)) working++;
  const spans = await approvedLeaveBetween(tx, [e.id], from, lwd);
  const lost = lossOfPay(from, lwd, spans, await absencesBetween(tx, [e.id], from, lwd), isOff);
  const lostDays = lost.leave.plus(lost.absent);
  return {
    from,
    to: lwd,
    working_days: working,
    lost_days: lostDays.toFixed(1),
    days_worked: new Decimal(working).minus(lostDays).toFixed(1),
    required_days: weeklyOffs >= 2 ? 190 : 240,
  };
}

/** The day interest and overdue dues are counted to, and whether the settlement is paid on it (processing). */
export interface AsOf {
  date: DateString;
  paid: boolean;
}

/** The employee's pending loan installments, by loan (oldest loan number first). */
async function pendingLoans(tx: ScopedTx, employeeId: string): Promise<Details["loans"]> {
  const installments = await tx.loanInstallment.findMany({
    where: { status: "pending", loan: { employee_id: employeeId, status: { in: ["approved", "active"] } } },
    select: { id: true, amount: true, loan_id: true, loan: { select: { loan_number: true } } },
    orderBy: [{ loan: { loan_number: "asc" } }, { seq: "asc" }],
  });
  const loans: Details["loans"] = [];
  for (const i of installments) {
    let l = loans.find((x) => x.loan_id === i.loan_id);
    if (!l) {
      l = { loan_id: i.loan_id, loan_number: i.loan.loan_number, installment_ids: [], amount: "0.00" };
      loans.push(l);
    }
    l.installment_ids.push(i.id);
    l.amount = new Decimal(l.amount).plus(i.amount.toString()).toFixed(2);
  }
  return loans;
}

/** Every figure fits its column: NUMERIC(14,2), encashments NUMERIC(10,2) (409 otherwise). */
function assertStorable(figures: SettlementFigures): void {
  try {
    // every figure goes into a NUMERIC(14,2) column (encashments NUMERIC(10,2))
    assertFits(
      (["leave_encashment", "gratuity", "reimbursements", "notice_recovery", "loan_recovery", "total_payable", "net_payable"] as const).map(
        (k) => [k.replace(/_/g, " "), new Decimal(figures[k])],
      ),
    );
    assertFits(
      figures.leave_encashment_lines.map((l) => [`the encashment of ${l.leave_type}`, new Decimal(l.amount)]),
      new Decimal("99999999.99"),
    );
  } catch (err) {
    if (err instanceof AmountOutOfRange) throw conflict(`The settlement cannot be computed: ${err.message}`);
    throw err;
  }
}

/** Income tax at source on what the settlement pays (India): recovered from it (total_recovery, net_payable). */
async function recoverIncomeTax(
  tx: ScopedTx,
  employeeId: string,
  lwd: DateString,
  figures: SettlementFigures,
  f: { slip: SlipResult; paidByRun: boolean; wage: Decimal.Value },
): Promise<void> {
  const tax = await settlementIncomeTax(tx, employeeId, lwd, {
    ...f,
    leaveEncashment: figures.leave_encashment,
    gratuity: figures.gratuity,
  });
  if (!tax) return;
  figures.income_tax = tax.income_tax;
  figures.income_tax_detail = tax.income_tax_detail;
  figures.total_recovery = new Decimal(figures.total_recovery).plus(tax.income_tax).toFixed(2);
  figures.net_payable = new Decimal(figures.net_payable).minus(tax.income_tax).toFixed(2);
}

/** Computes the settlement of the exit with these options from the current data (inside the caller's transaction). */
export async function computeSettlement(tx: ScopedTx, e: EmployeeRow, exit: ExitFacts, o: Options, asOf: AsOf): Promise<Details> {
  const lwd = exit.last_working_day;
  const [year, month] = lwd.split("-").map(Number);
  const salary = await employeeMonthSalary(tx, e.id, year, month);
  if (!salary) throw conflict(`${e.employee_code} has no salary setup in force in ${lwd.slice(0, 7)}: the settlement cannot be computed`);
  // the wage of gratuity, leave encashment and notice pay: the last month's day wage under the rule
  // in force on the last working day (the slip's last day) - the labour codes' wage, or basic + DA
  const cw = salary.slip.details.code_wages!;
  const codeWages = settlementCodeWagesOf(cw);
  const paid = await tx.payrollSlip.findFirst({
    where: { employee_id: e.id, run: { status: "processed", period_year: year, period_month: month } },
    select: { slip_number: true, run_id: true },
  });
  const loans = await pendingLoans(tx, e.id);
  const claims = await tx.expenseClaim.findMany({
    where: { employee_id: e.id, status: "approved", paid_run_id: null, paid_settlement_id: null },
    select: { id: true, claim_number: true, amount: true, category: { select: { name: true } } },
    orderBy: { claim_number: "asc" },
  });
  const gratuity = await readSettings("gratuity");
  const figures = settlementFigures({
    joining_date: toDateString(e.joining_date),
    resignation_date: exit.resignation_date,
    last_working_day: lwd,
    separation: o.separation,
    fixed_term: e.employment_type === "fixed_term",
    notice_period_days: o.notice_period_days,
    recover_notice_shortfall: o.recover_notice_shortfall,
    wage: codeWages.wage,
    code_wages: codeWages,
    salary: { slip: salary.slip, paid_by_run: paid ? (paid.slip_number ?? paid.run_id) : null },
    leave: [
      ...(await encashmentsToPay(tx, [e.id])).map((x) => ({
        leave_type_id: x.leave_type_id,
        leave_type: x.leave_type,
        period_id: x.period_id,
        days: x.days,
        source: "request" as const,
        encashment_id: x.id,
      })),
      ...(await exitLeaveBalances(tx, e.id, lwd)).map((b) => ({ ...b, source: "balance" as const, encashment_id: null })),
    ],
    loans,
    claims: claims.map((c) => ({ claim_id: c.id, claim_number: c.claim_number, category: c.category.name, amount: c.amount.toFixed(2) })),
    gratuity,
    day_rate: salary.slip.details.encashment_rate,
    fifth_year:
      gratuity.continuous_service_rule === "four_years_240_days" && serviceBetween(toDateString(e.joining_date), lwd).years === 4
        ? await fifthYearOf(tx, e, lwd)
        : null,
    dues: {
      final_wages_due: await workingDaysAfter(tx, e, lwd, FINAL_WAGES_DUE_WORKING_DAYS),
      as_of: asOf.date,
      paid: asOf.paid,
    },
  });
  await recoverIncomeTax(tx, e.id, lwd, figures, { slip: salary.slip, paidByRun: Boolean(paid), wage: codeWages.wage });
  assertStorable(figures);
  return { ...figures, resignation_date: exit.resignation_date };
}

export const columns = (d: Details) => ({
  salary_net: d.salary_net,
  leave_encashment: d.leave_encashment,
  gratuity: d.gratuity,
  reimbursements: d.reimbursements,
  notice_recovery: d.notice_recovery,
  loan_recovery: d.loan_recovery,
  net_payable: d.net_payable,
  details: d as unknown as Prisma.InputJsonObject,
  computed_at: clock.now(),
});

export async function loadEmployee(tx: ScopedTx, id: string): Promise<EmployeeRow> {
  const e = await tx.employee.findFirst({ where: { id, deleted_at: null }, select: employeeSelect });
  if (!e) throw notFound("Employee");
  return e;
}
