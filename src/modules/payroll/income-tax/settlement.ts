// Income tax on a final settlement: the same engine and projection as a run, to the exit month - the
// months paid, the last month's salary (unless a processed run paid it), leave encashed on leaving
// (exempt under s.10(10AA) up to the least of the amount, ₹25 lakh and ten months' basic + DA, the
// wage the settlement prices leave at) and gratuity (exempt under s.10(10) up to the least of the
// amount, ₹20 lakh and the Act's own formula, which is how the settlement computes it) - and no
// months after it: the settlement deducts the year's tax less what was deducted so far.
import type { ScopedTx } from "../../../db/tenancy.ts";
import { Decimal } from "../../../lib/money.ts";
import { loadComponents } from "../run-inputs.ts";
import type { SlipResult } from "../slip-model.ts";
import { computeIncomeTax, type TaxComputation } from "./engine.ts";
import { ageBand, birthDate, classesOf, monthlyTds, slipMonths, taxInputOf, type YearInputs } from "./monthly.ts";
import { taxCompany } from "./profile.ts";
import { rulesOf, taxYearOf } from "./rates.ts";
import { countingOn, yearFacts } from "./year.ts";

export interface SettlementTax {
  income_tax: string;
  income_tax_detail: { tax_year: string; regime: "new" | "old"; has_pan: boolean; tds_to_date: string; computation: TaxComputation };
}

export async function settlementIncomeTax(
  tx: ScopedTx,
  employeeId: string,
  lastWorkingDay: string,
  f: { slip: SlipResult; paidByRun: boolean; leaveEncashment: string; gratuity: string; wage: Decimal.Value },
): Promise<SettlementTax | null> {
  const company = await taxCompany();
  const taxYear = taxYearOf(lastWorkingDay);
  const rules = rulesOf(taxYear);
  if (!company.withholds || !rules) return null;
  const e = await tx.employee.findFirst({ where: { id: employeeId }, select: { id: true, date_of_birth: true } });
  if (!e) return null;
  const year = Number(lastWorkingDay.slice(0, 4));
  const month = Number(lastWorkingDay.slice(5, 7));
  const classOf = classesOf(await loadComponents(tx));
  const { counting } = await countingOn(taxYear, lastWorkingDay);
  // the months paid: up to the exit month, or including it when a processed run paid it
  const upTo = f.paidByRun ? (month === 12 ? { year: year + 1, month: 1 } : { year, month: month + 1 }) : { year, month };
  const facts = (await yearFacts(tx, taxYear, [e], upTo, counting, classOf)).get(e.id)!;
  const encashment = new Decimal(f.leaveEncashment);
  const gratuity = new Decimal(f.gratuity);
  const y: YearInputs = {
    rules,
    profile: facts.profile,
    age_band: ageBand(facts, taxYear, rules),
    paid: facts.paid,
    current: f.paidByRun ? null : slipMonths(f.slip, lastWorkingDay.slice(0, 7), classOf).current,
    regular: null,
    future_months: 0,
    declared: facts.declared,
    birth_date: birthDate(facts),
    settlement: {
      ...(gratuity.gt(0) ? { gratuity: { amount: gratuity, limit: null } } : {}),
      ...(encashment.gt(0) ? { leave_encashment: { amount: encashment, limit: new Decimal(f.wage).times(10) } } : {}),
    },
  };
  const computation = computeIncomeTax(taxInputOf(y, facts.profile.regime), rules);
  const before = facts.paid.reduce((t, p) => t.plus(p.tds), new Decimal(0));
  const tds = monthlyTds(computation.tax_payable, before.plus(facts.profile.previous_employer_tds), 0);
  return {
    income_tax: tds.toFixed(2),
    income_tax_detail: {
      tax_year: taxYear,
      regime: facts.profile.regime,
      has_pan: Boolean(facts.profile.pan),
      tds_to_date: before.plus(tds).toFixed(2),
      computation,
    },
  };
}
