// Form 16 (Form 130 from the tax year 2026-27) Part B as JSON: the year's computation on the salary paid;
// Part A, the TRACES certificate, is the PDF hr uploaded (form16-part-a.ts).
import { activeTenant } from "../../../db/central.ts";
import { db } from "../../../db/tenancy.ts";
import { Decimal } from "../../../lib/money.ts";
import { notFound } from "../../../platform/errors.ts";
import type { AuthContext } from "../../../platform/use-case.ts";
import { assertVisible } from "../../shared/people.ts";
import { filingRulesOn, type Quarter, quarterOf } from "./filing-rules.ts";
import { currentPartA, partAJson } from "./form16-part-a.ts";
import { incomeTaxSettings, resolveTaxYear, taxCompany } from "./profile.ts";
import { taxYearRecords } from "./projection.ts";
import { taxYearBounds } from "./rates.ts";

const ZERO = new Decimal(0);

// size: the certificate's lines in the form's order, in one place
/** The Form 16 / 130 Part B of an employee's tax year; null where the company withholds no income tax or nothing was paid. */
export async function form16Of(auth: AuthContext, employeeId: string, requestedYear?: string) {
  await assertVisible(auth, employeeId);
  const e = await db.employee.findFirst({ where: { id: employeeId, deleted_at: null }, select: { id: true } });
  if (!e) throw notFound("Employee");
  const company = await taxCompany();
  if (!company.withholds) return null;
  const { taxYear } = resolveTaxYear(requestedYear, company.timezone);
  const [record] = await taxYearRecords(taxYear, [employeeId]);
  if (!record) return null;
  const { start, end, startYear } = taxYearBounds(taxYear);
  const rules = filingRulesOn(start);
  const [settings, tenant, partA] = await Promise.all([
    incomeTaxSettings(),
    activeTenant({ name: true, legal_name: true, address: true }),
    currentPartA(db, employeeId, taxYear),
  ]);
  const c = record.computation;
  const exemptions = c.exemptions.reduce((t, x) => t.plus(x.amount), ZERO);
  const otherEmployers = new Decimal(record.previous_employer.salary);
  const quarters = (["Q1", "Q2", "Q3", "Q4"] as Quarter[]).map((q) => {
    const months = record.months.filter((m) => quarterOf(Number(m.period.slice(5, 7))) === q);
    return {
      quarter: q,
      amount_paid: months.reduce((t, m) => t.plus(m.taxable_salary), ZERO).toFixed(2),
      tax_deducted: months.reduce((t, m) => t.plus(m.tds), ZERO).toFixed(2),
    };
  });
  const deducted = new Decimal(record.tds).plus(record.previous_employer.tds);
  return {
    form: rules.forms.certificate,
    part: "B" as const,
    law: rules.law,
    tax_year: taxYear,
    // the Act 1961 certifies a "previous year" assessed in the next; the Act 2025 knows only the tax year
    assessment_year: startYear < 2026 ? `${startYear + 1}-${String((startYear + 2) % 100).padStart(2, "0")}` : null,
    period: { from: record.months[0] ? `${record.months[0].period}-01` : start, to: end },
    employer: { name: tenant.legal_name ?? tenant.name, address: tenant.address, tan: settings.deductor_tan, pan: settings.deductor_pan },
    employee: { id: record.employee_id, code: record.employee_code, name: record.employee_name, pan: record.pan },
    regime: record.regime,
    resident: record.resident,
    salary: {
      gross_from_this_employer: new Decimal(c.gross_salary).minus(otherEmployers).toFixed(2),
      from_other_employers: otherEmployers.toFixed(2),
      gross: c.gross_salary,
      exemptions: c.exemptions,
      total_exemptions: exemptions.toFixed(2),
      after_exemptions: new Decimal(c.gross_salary).minus(exemptions).toFixed(2),
      standard_deduction: c.standard_deduction,
      professional_tax: c.professional_tax,
      income_chargeable: c.income_from_salary,
    },
    house_property: c.house_property,
    other_income: c.other_income,
    gross_total_income: c.gross_total_income,
    deductions: c.deductions,
    total_deductions: c.total_deductions,
    total_income: c.taxable_income,
    tax_on_total_income: c.tax_on_income,
    rebate: c.rebate,
    surcharge: new Decimal(c.surcharge).minus(c.surcharge_relief).toFixed(2),
    cess: c.cess,
    tax_payable: new Decimal(c.tax_payable).plus(c.arrears_relief).toFixed(2),
    relief: c.arrears_relief,
    relief_detail: c.arrears_relief_detail,
    net_tax_payable: c.tax_payable,
    tds: {
      quarters,
      by_this_employer: record.tds,
      by_other_employers: new Decimal(record.previous_employer.tds).toFixed(2),
      total: deducted.toFixed(2),
    },
    balance: new Decimal(c.tax_payable).minus(deducted).toFixed(2),
    part_a: partA ? partAJson(employeeId, taxYear, partA) : null,
  };
}
