// The salary details of the fourth quarter's statement (Annexure II of Form 24Q / Form 138): per employee
// paid in the year, the year's computation on the salary paid - the figures of Form 16 / Form 130 Part B.
import { db } from "../../../db/tenancy.ts";
import { type DateString, toDateString } from "../../../lib/dates.ts";
import { Decimal } from "../../../lib/money.ts";
import { lastWorkingDays } from "../../employees/index.ts";
import type { TaxYearRecord } from "./projection.ts";

const ZERO = new Decimal(0);
// regex-bounded: a PAN is ten characters, checked after a length test
const PAN_FORM = /^[A-Z]{5}[0-9]{4}[A-Z]$/;

export type PanStatus = "valid" | "missing" | "invalid";

/** The PAN as the statement carries it: PANNOTAVBL without one, PANINVALID for one not of the form AAAAA9999A. */
export function statementPan(pan: string | null): { pan: string; pan_status: PanStatus } {
  if (!pan) return { pan: "PANNOTAVBL", pan_status: "missing" };
  const p = pan.trim().toUpperCase();
  return p.length === 10 && PAN_FORM.test(p) ? { pan: p, pan_status: "valid" } : { pan: "PANINVALID", pan_status: "invalid" };
}

// the category of the salary detail: G general, S senior citizen (60-79), O super senior (80 or more)
const CATEGORY = { below_60: "G", "60_to_79": "S", "80_plus": "O" } as const;

export type SalaryDetail = ReturnType<typeof detailOf>;

function detailOf(r: TaxYearRecord, from: DateString, to: DateString) {
  const c = r.computation;
  const previous = new Decimal(r.previous_employer.salary);
  const exemptions = c.exemptions.reduce((t, x) => t.plus(x.amount), ZERO);
  const deducted = new Decimal(r.tds).plus(r.previous_employer.tds);
  const pan: { pan: string; pan_status: PanStatus } = statementPan(r.pan);
  return {
    employee_id: r.employee_id,
    employee_code: r.employee_code,
    name: r.employee_name,
    ...pan,
    category: CATEGORY[c.age_band],
    regime: r.regime,
    employment_from: from,
    employment_to: to,
    salary_this_employer: new Decimal(c.gross_salary).minus(previous).toFixed(2),
    salary_previous_employers: previous.toFixed(2),
    total_salary: c.gross_salary,
    exemptions: c.exemptions,
    total_exemptions: exemptions.toFixed(2),
    standard_deduction: c.standard_deduction,
    professional_tax: c.professional_tax,
    income_from_salary: c.income_from_salary,
    house_property: c.house_property,
    other_income: c.other_income,
    gross_total_income: c.gross_total_income,
    deductions: c.deductions,
    total_deductions: c.total_deductions,
    taxable_income: c.taxable_income,
    tax_on_income: c.tax_on_income,
    rebate: c.rebate,
    surcharge: new Decimal(c.surcharge).minus(c.surcharge_relief).toFixed(2),
    cess: c.cess,
    relief: c.arrears_relief,
    tax_payable: c.tax_payable,
    tds_this_employer: r.tds,
    tds_previous_employers: new Decimal(r.previous_employer.tds).toFixed(2),
    tds_total: deducted.toFixed(2),
    shortfall: new Decimal(c.tax_payable).minus(deducted).toFixed(2),
  };
}

/** The salary detail of each record: employed from joining (or the year's start) to leaving (or its end). */
export async function salaryDetailsOf(records: TaxYearRecord[], year: { start: DateString; end: DateString }) {
  const [joined, exits] = await Promise.all([
    db.employee.findMany({ where: { id: { in: records.map((r) => r.employee_id) } }, select: { id: true, joining_date: true } }),
    lastWorkingDays(db),
  ]);
  const joinedOn = new Map(joined.map((e) => [e.id, toDateString(e.joining_date)]));
  const leftOn = new Map(exits.map((x) => [x.employee_id, x.last_working_day]));
  return records.map((r) => {
    const j = joinedOn.get(r.employee_id) ?? year.start;
    const l = leftOn.get(r.employee_id) ?? year.end;
    return detailOf(r, j > year.start ? j : year.start, l < year.end ? l : year.end);
  });
}
