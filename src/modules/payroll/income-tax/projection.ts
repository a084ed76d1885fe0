// The projection sheet of one employee's tax year (GET /api/payroll/tax-projection/{employeeId}) and
// the year's records per employee (taxYearRecords: what the employer's certificates and returns read).
import { db, tenantTx } from "../../../db/tenancy.ts";
import type { AuthContext } from "../../../platform/use-case.ts";
import { Decimal } from "../../../lib/money.ts";
import { notFound } from "../../../platform/errors.ts";
import { lastWorkingDays } from "../../employees/index.ts";
import { assertVisible } from "../../shared/people.ts";
import { tenantToday } from "../../shared/work-settings.ts";
import { employeeMonthSalary } from "../calculation.ts";
import { loadComponents } from "../run-inputs.ts";
import { computeIncomeTax, type TaxComputation } from "./engine.ts";
import {
  ageBand,
  birthDate,
  classesOf,
  type MonthPay,
  monthIndex,
  monthlyTds,
  monthsAfter,
  projectedMonths,
  slipMonths,
  taxInputOf,
  type YearInputs,
} from "./monthly.ts";
import { resolveTaxYear, taxCompany } from "./profile.ts";
import { rulesOf, taxYearBounds } from "./rates.ts";
import { countingOn, yearFacts } from "./year.ts";

const ZERO = new Decimal(0);
const periodAt = (startYear: number, idx: number) => {
  const y = startYear + Math.floor((idx + 3) / 12);
  const m = ((idx + 3) % 12) + 1;
  return { year: y, month: m, period: `${y}-${String(m).padStart(2, "0")}` };
};

const lowerOf = (a: TaxComputation, b: TaxComputation): "new" | "old" | "equal" => {
  const c = new Decimal(a.tax_payable).cmp(b.tax_payable);
  return c < 0 ? "new" : c > 0 ? "old" : "equal";
};

// size: the sheet assembled in one place - the months paid, the month ahead, the months after it and both regimes
export async function taxProjectionOf(auth: AuthContext, employeeId: string, requestedYear?: string) {
  await assertVisible(auth, employeeId);
  const e = await db.employee.findFirst({
    where: { id: employeeId, deleted_at: null },
    select: { id: true, date_of_birth: true, joining_date: true },
  });
  if (!e) throw notFound("Employee");
  const company = await taxCompany();
  if (!company.withholds) return null;
  const { taxYear, rules } = resolveTaxYear(requestedYear, company.timezone);
  const { startYear } = taxYearBounds(taxYear);
  const today = tenantToday({ timezone: company.timezone });
  const classOf = classesOf(await loadComponents());
  const { counting, cutoff } = await countingOn(taxYear, today);
  const facts = (await yearFacts(db, taxYear, [e], null, counting, classOf)).get(e.id)!;
  // the month ahead: after the last month paid, not before today's month nor the month of joining
  const lastPaid = facts.paid.at(-1);
  const joined = e.joining_date.toISOString().slice(0, 10);
  const idxOf = (d: string) => monthIndex(taxYear, Number(d.slice(0, 4)), Number(d.slice(5, 7)));
  const next = Math.max(0, idxOf(today), idxOf(joined), lastPaid ? idxOf(`${lastPaid.period}-01`) + 1 : 0);
  const ahead = next <= 11 ? periodAt(startYear, next) : null;
  const month = ahead ? await tenantTx((tx) => employeeMonthSalary(tx, e.id, ahead.year, ahead.month)) : null;
  if (!month && !facts.paid.length) return null;
  const y: YearInputs = {
    rules,
    profile: facts.profile,
    age_band: ageBand(facts, taxYear, rules),
    paid: facts.paid,
    current: null,
    regular: null,
    future_months: 0,
    declared: facts.declared,
    birth_date: birthDate(facts),
  };
  if (month && ahead) {
    const m = slipMonths(month.slip, ahead.period, classOf);
    y.current = m.current;
    y.regular = m.regular;
    // a recorded exit ends the projection at the month of the last working day
    const exit = (await lastWorkingDays(db)).find((x) => x.employee_id === e.id);
    y.future_months = monthsAfter(taxYear, ahead.year, ahead.month, exit?.last_working_day ?? null);
  }
  const both = { new: computeIncomeTax(taxInputOf(y, "new"), rules), old: computeIncomeTax(taxInputOf(y, "old"), rules) };
  const computation = both[facts.profile.regime];
  const tdsToDate = facts.paid.reduce((t, p) => t.plus(p.tds), ZERO);
  const before = tdsToDate.plus(facts.profile.previous_employer_tds);
  // the schedule ahead: each month (the remainder ÷ the months left), the last one the exact remainder
  const schedule: Decimal[] = [];
  let paidAhead = ZERO;
  const left = y.current ? y.future_months + 1 : 0;
  for (let i = 0; i < left; i++) {
    const t = monthlyTds(computation.tax_payable, before.plus(paidAhead), left - 1 - i);
    schedule.push(t);
    paidAhead = paidAhead.plus(t);
  }
  const months = [
    ...facts.paid.map((p: MonthPay) => ({
      period: p.period,
      status: "paid" as const,
      taxable_salary: p.taxable.toFixed(2),
      tds: p.tds.toFixed(2),
    })),
    ...projectedMonths({ ...y, paid: [] }).map((p, i) => ({
      period: periodAt(startYear, next + i).period,
      status: "projected" as const,
      taxable_salary: p.taxable.toFixed(2),
      tds: (schedule[i] ?? ZERO).toFixed(2),
    })),
  ];
  return {
    employee_id: e.id,
    tax_year: taxYear,
    regime: facts.profile.regime,
    counting,
    proof_cutoff: cutoff,
    months,
    computation,
    comparison: { ...both, lower: lowerOf(both.new, both.old) },
    previous_employer_tds: new Decimal(facts.profile.previous_employer_tds).toFixed(2),
    tds_to_date: tdsToDate.toFixed(2),
    tds_remaining: paidAhead.toFixed(2),
    remaining_months: left,
    monthly_tds: (schedule[0] ?? ZERO).toFixed(2),
  };
}

/** One employee's tax year as deducted: per month and for the year (TaxYearRecord). */
export interface TaxYearRecord {
  employee_id: string;
  employee_code: string;
  employee_name: string;
  pan: string | null;
  regime: "new" | "old";
  resident: boolean;
  months: { period: string; taxable_salary: string; tds: string }[];
  taxable_salary: string;
  tds: string;
  previous_employer: { salary: string; tds: string };
  /** The year's computation on the salary paid (this employer's + the previous one's) and the verified declarations. */
  computation: TaxComputation;
}

/**
 * The records of a tax year for every employee with a processed slip in it (or only `employeeIds`), in
 * employee-code order: per month the taxable salary paid and the TDS deducted; for the year the regime,
 * PAN and the computation. For Form 16 (Form 130) Part B and the quarterly return (24Q / Form 138).
 * Empty where the company withholds no income tax or the year has no rules.
 */
export async function taxYearRecords(taxYear: string, employeeIds?: string[]): Promise<TaxYearRecord[]> {
  const rules = rulesOf(taxYear);
  if (!rules || !(await taxCompany()).withholds) return [];
  const { end } = taxYearBounds(taxYear);
  const classOf = classesOf(await loadComponents());
  const { counting } = await countingOn(taxYear, end);
  const paidIds = await db.payrollSlip.findMany({
    where: {
      ...(employeeIds ? { employee_id: { in: employeeIds } } : {}),
      run: { status: "processed", period_start: { gte: new Date(`${taxYear.slice(0, 4)}-04-01`), lte: new Date(end) } },
    },
    select: { employee_id: true },
    distinct: ["employee_id"],
  });
  const employees = await db.employee.findMany({
    where: { id: { in: paidIds.map((p) => p.employee_id) } },
    select: { id: true, employee_code: true, first_name: true, last_name: true, date_of_birth: true },
    orderBy: [{ employee_code: "asc" }, { id: "asc" }],
  });
  const facts = await yearFacts(db, taxYear, employees, null, counting, classOf);
  return employees.map((e) => {
    const f = facts.get(e.id)!;
    const y: YearInputs = {
      rules,
      profile: f.profile,
      age_band: ageBand(f, taxYear, rules),
      paid: f.paid,
      current: null,
      regular: null,
      future_months: 0,
      declared: f.declared,
      birth_date: birthDate(f),
    };
    return {
      employee_id: e.id,
      employee_code: e.employee_code,
      employee_name: `${e.first_name} ${e.last_name}`.trim(),
      pan: f.profile.pan,
      regime: f.profile.regime,
      resident: f.profile.resident,
      months: f.paid.map((p) => ({ period: p.period, taxable_salary: p.taxable.toFixed(2), tds: p.tds.toFixed(2) })),
      taxable_salary: f.paid.reduce((t, p) => t.plus(p.taxable), ZERO).toFixed(2),
      tds: f.paid.reduce((t, p) => t.plus(p.tds), ZERO).toFixed(2),
      previous_employer: { salary: f.profile.previous_employer_salary, tds: f.profile.previous_employer_tds },
      computation: computeIncomeTax(taxInputOf(y, f.profile.regime), rules),
    };
  });
}
