// The payroll calculation of one employee for one month - pure, exact decimals, no I/O; the rules with
// their acts and dates: docs/payroll-slip.md.
import { daysBetween } from "../../lib/dates.ts";
import { Decimal } from "../../lib/money.ts";
import { gratuityProvision } from "./gratuity.ts";
import { addToParts, codeWageFigures, codeWages, noWageParts, wageClassOf, wageRuleOn } from "./wages.ts";
import { ZERO, r2, m2, assertFits, dayRate, dayPay, wageForDays } from "./figures.ts";
import { daysInMonth } from "./months.ts";
import { epsExclusion, esiContribution, pfContribution, prepareSettings, ptAmount, type PreparedSettings } from "./contributions.ts";
import { fullAmounts, setupWages, type Structure } from "./structure.ts";
import type {
  ComponentDef,
  EmployeeInput,
  Line,
  PeriodInput,
  SalaryPeriodJson,
  SetupPeriod,
  SlipResult,
  StatutorySettings,
} from "./slip-model.ts";

export * from "./contributions.ts";
export * from "./figures.ts";
export * from "./loss-of-pay.ts";
export * from "./months.ts";
export * from "./slip-model.ts";
export * from "./structure.ts";
export * from "./totals.ts";

/** One employee's slip; `prepared` (prepareSettings) is passed by callers computing many. */
// size: long for its result, not its rules (structure.ts, contributions.ts, wages.ts, figures.ts): the slip written out field by field
export function computeSlip(
  structure: Structure,
  settings: StatutorySettings,
  period: PeriodInput,
  e: EmployeeInput,
  prepared: PreparedSettings = prepareSettings(settings),
): SlipResult {
  const dim = daysInMonth(period.year, period.month);
  const payStart = e.joining_date > period.start ? e.joining_date : period.start;
  const payEnd = e.last_working_day && e.last_working_day < period.end ? e.last_working_day : period.end;
  const employed = new Decimal(Math.max(0, daysBetween(payStart, payEnd) + 1));
  // a revision within the month: each setup pays the days it was in force (its own loss of pay)
  const periods = e.setup_periods && e.setup_periods.length > 1 ? e.setup_periods : null;
  const parts = periods?.map((p) => {
    const days = new Decimal(Math.max(0, daysBetween(p.from, p.to) + 1));
    const partLop = Decimal.min(days, p.leave_lop_days.plus(p.absent_days));
    return { p, days, lop: partLop, payable: days.minus(partLop), full: fullAmounts(structure, p.setup) };
  });
  const lop = parts ? parts.reduce((n, x) => n.plus(x.lop), ZERO) : Decimal.min(employed, e.leave_lop_days.plus(e.absent_days));
  const payable = employed.minus(lop);
  const factor = payable.div(dim);
  /**
   * A component's amount of the month: one setup - the full amount × payable days ÷ calendar days
   * (or the full amount when it does not depend on payment days); several - the sum of each
   * setup's full amount × its own payable days ÷ calendar days (× its days ÷ the days employed
   * when it does not depend on payment days), rounded once.
   */
  const amountOf = (c: ComponentDef, f: Decimal | undefined): Decimal => {
    if (!parts) return c.depends_on_payment_days ? r2(f!.times(factor)) : f!;
    let v = ZERO;
    for (const x of parts) {
      const pf = x.full.get(c.code);
      if (pf === undefined) continue;
      v = v.plus(c.depends_on_payment_days ? pf.times(x.payable).div(dim) : employed.gt(0) ? pf.times(x.days).div(employed) : ZERO);
    }
    return r2(v);
  };

  // components
  const full = fullAmounts(structure, e.setup);
  const earnings: Line[] = [];
  const deductions: Line[] = [];
  let gross = ZERO;
  let fullGross = ZERO;
  let componentDeductions = ZERO;
  let pfWages = ZERO;
  let pfWagesFull = ZERO;
  let esiWages = ZERO;
  let esiWagesFull = ZERO;
  const monthParts = noWageParts();
  const fullParts = noWageParts();
  for (const c of structure.components) {
    const inLast = full.get(c.code);
    if (inLast === undefined && !parts?.some((x) => x.full.has(c.code))) continue;
    // the full-month amount is the one of the setup in force on the slip's last day (0 when it has not the component)
    const f = inLast ?? ZERO;
    const amount = amountOf(c, inLast);
    const line = { component_id: c.id, code: c.code, name: c.name, full_amount: m2(f), amount: m2(amount) };
    if (c.type === "earning") {
      earnings.push(line);
      gross = gross.plus(amount);
      fullGross = fullGross.plus(f);
      if (c.pf_wage) {
        pfWages = pfWages.plus(amount);
        pfWagesFull = pfWagesFull.plus(f);
      }
      if (c.esi_applicable) {
        esiWages = esiWages.plus(amount);
        esiWagesFull = esiWagesFull.plus(f);
      }
      const cls = wageClassOf(c);
      addToParts(monthParts, cls, amount);
      addToParts(fullParts, cls, f);
    } else {
      deductions.push(line);
      componentDeductions = componentDeductions.plus(amount);
    }
  }

  // wages under the labour codes: the rules in force on the slip's last day
  const wageS = prepared.wages.settings;
  const rule = wageRuleOn(payEnd, wageS, fullParts.wages.gt(0));
  const monthCode = codeWages(monthParts, prepared.wages.limit);
  const fullCode = codeWages(fullParts, prepared.wages.limit);
  const pfWage = rule.pf_rule === "code" ? monthCode.wage : pfWages;
  // the monthly wage leave encashment days are priced at (÷ 26), and the month's gratuity wage
  const dayWage = rule.rule === "code" ? fullCode.wage : wageForDays(pfWagesFull, fullGross);
  // the rate a day of leave encashed is paid at: the company's basis (this wage, or the full-month gross) ÷ its divisor
  const encashRate = dayRate(wageS, dayWage, fullGross, dim);
  const gratuityWage = rule.rule === "code" ? monthCode.wage : wageForDays(pfWages, gross);

  // PF
  const pfApplicable = settings.pf.enabled && e.setup.pf_enabled && pfWage.gt(0);
  const atJoining = () => (e.setup_at_joining ? setupWages(structure, e.setup_at_joining, e.joining_date, prepared.wages).pf : null);
  const { pf, epsExcluded } = pfContribution(pfApplicable, pfWage, settings.pf, prepared.pf, () =>
    epsExclusion(e, atJoining(), prepared.pf.ceiling, settings.pf.eps_age_limit, period.start),
  );

  // ESI
  const periodSetup = e.setup_at_esi_period_start ?? e.setup;
  const periodStartWages = e.setup_at_esi_period_start ? setupWages(structure, periodSetup, payEnd, prepared.wages).esi : esiWagesFull;
  const esiApplicable = settings.esi.enabled && e.setup.esi_enabled && esiWages.gt(0);
  const esi = esiContribution(esiApplicable, esiWages, esiWagesFull.div(dim), periodStartWages, periodSetup.disabled, prepared.esi);
  const { covered, employee: esiEmployee, employer: esiEmployer } = esi;

  // professional tax
  const ptState = e.setup.pt_state ?? e.state;
  const pt = e.setup.pt_enabled && gross.gt(0) ? ptAmount(settings.pt.enabled, prepared.pt, ptState, e.gender, gross, period.month) : ZERO;

  // loans, claims, encashments
  const loanDeduction = e.loans.reduce((s, l) => s.plus(l.amount), ZERO);
  const reimbursements = e.claims.reduce((s, c) => s.plus(c.amount), ZERO);
  const encashments = e.encashments.map((x) => ({ ...x, amount: m2(dayPay(x.days, encashRate)) }));
  const encashmentTotal = encashments.reduce((s, x) => s.plus(x.amount), ZERO);

  const totalDeductions = componentDeductions.plus(pf.employee).plus(esiEmployee).plus(pt).plus(loanDeduction);
  const net = gross.minus(totalDeductions).plus(reimbursements).plus(encashmentTotal);
  // the month's gratuity wage: the codes' wage of the month; before them basic + DA as paid this
  // month, or the gross of a consolidated salary (wageForDays)
  const provision = settings.gratuity?.monthly_provision ? gratuityProvision(gratuityWage, settings.gratuity) : null;
  const employerContributions = pf.epf
    .plus(pf.eps)
    .plus(pf.edli)
    .plus(pf.admin)
    .plus(esiEmployer)
    .plus(provision ?? ZERO);
  const employerCost = gross.plus(employerContributions).plus(encashmentTotal).plus(reimbursements);
  // the slip's figures each go into a NUMERIC(14,2) column (the components were checked above)
  assertFits([
    ["gross", gross],
    ["full-month gross", fullGross],
    ["total deductions", totalDeductions],
    ["net pay", net],
    ["reimbursements", reimbursements],
    ["leave encashment", encashmentTotal],
    ["loan deduction", loanDeduction],
    ["employer cost", employerCost],
  ]);

  return {
    employee_id: e.id,
    employee_code: e.employee_code,
    employee_name: e.name,
    department: e.department,
    designation: e.designation,
    pay_start: payStart,
    pay_end: payEnd,
    days_in_period: dim,
    payable_days: payable,
    lop_days: lop,
    gross,
    total_deductions: totalDeductions,
    net_pay: net,
    pf_employee: pf.employee,
    esi_employee: esiEmployee,
    professional_tax: pt,
    loan_deduction: loanDeduction,
    reimbursements,
    leave_encashment: encashmentTotal,
    employer_cost: employerCost,
    details: {
      earnings,
      deductions,
      full_month_gross: m2(fullGross),
      lop: { leave_days: e.leave_lop_days.toFixed(1), absent_days: e.absent_days.toFixed(1) },
      pf: {
        applicable: pfApplicable,
        wages: m2(pfWage),
        base: m2(pf.base),
        employee: m2(pf.employee),
        employer_total: m2(pf.employerTotal),
        employer_epf: m2(pf.epf),
        employer_eps: m2(pf.eps),
        edli: m2(pf.edli),
        admin_charges: m2(pf.admin),
        eps_applicable: pf.epsApplicable,
        eps_exclusion: pfApplicable ? epsExcluded : null,
      },
      esi: {
        applicable: esiApplicable,
        covered,
        wages: m2(esiWages),
        employee: m2(esiEmployee),
        employer: m2(esiEmployer),
        period_start_wages: m2(periodStartWages),
      },
      professional_tax: { state: ptState, amount: m2(pt) },
      loans: e.loans,
      reimbursements: e.claims,
      encashments,
      employer_contributions: m2(employerContributions),
      ...(provision ? { gratuity_provision: m2(provision) } : {}),
      code_wages: {
        ...rule,
        code_wages_from: wageS.code_wages_from,
        pf_code_wages_from: wageS.pf_code_wages_from,
        exclusion_limit_percent: wageS.exclusion_limit_percent,
        month: codeWageFigures(monthCode),
        full_month: codeWageFigures(fullCode),
        day_wage: m2(dayWage),
      },
      encashment_rate: encashRate,
      ...(parts ? { salary_periods: salaryPeriodsJson(structure, parts, dim, employed) } : {}),
    },
  };
}

/** A slip's part of the month at one salary setup, with its days and the full amounts of its setup. */
interface SetupPart {
  p: SetupPeriod;
  days: Decimal;
  lop: Decimal;
  payable: Decimal;
  full: Map<string, Decimal>;
}

/** SalaryPeriod of the document for each part: its days, loss of pay, CTC and gross (rounded once). */
function salaryPeriodsJson(structure: Structure, parts: SetupPart[], dim: number, employed: Decimal): SalaryPeriodJson[] {
  return parts.map((x) => {
    let partGross = ZERO;
    let partFull = ZERO;
    for (const c of structure.components) {
      const pf = x.full.get(c.code);
      if (pf === undefined || c.type !== "earning") continue;
      partFull = partFull.plus(pf);
      partGross = partGross.plus(
        c.depends_on_payment_days ? pf.times(x.payable).div(dim) : employed.gt(0) ? pf.times(x.days).div(employed) : ZERO,
      );
    }
    return {
      effective_from: x.p.effective_from,
      from: x.p.from,
      to: x.p.to,
      days: x.days.toNumber(),
      lop_days: x.lop.toFixed(1),
      payable_days: x.payable.toFixed(1),
      monthly_ctc: x.p.setup.monthly_ctc === null ? null : m2(new Decimal(x.p.setup.monthly_ctc)),
      full_month_gross: m2(partFull),
      gross: m2(r2(partGross)),
    };
  });
}
