// Challans: the deposits of tax deducted from salary at the bank (ITNS 281), per month, with the due date
// (7th of the next month, 30 April for March) and the statute's interest when late (filing-rules.ts).
// The month's report (tdsMonths) sets what was deducted by processed runs against what was deposited.
import { db, tenantTx } from "../../../db/tenancy.ts";
import { type DateString, toDateString } from "../../../lib/dates.ts";
import { Decimal } from "../../../lib/money.ts";
import { audit } from "../../../platform/audit.ts";
import { conflict, invalidField } from "../../../platform/errors.ts";
import type { AuthContext, RequestBody } from "../../../platform/use-case.ts";
import { tenantToday } from "../../shared/work-settings.ts";
import { paidSlips } from "../queries/income-tax.ts";
import { depositDueDate, lateInterest } from "./filing-rules.ts";
import { resolveTaxYear, taxCompany } from "./profile.ts";
import { taxYearBounds, taxYearOf } from "./rates.ts";

type Row = Awaited<ReturnType<typeof db.tdsChallan.findFirstOrThrow>>;
type Deductee = { employee_id: string; tds: string };
const ZERO = new Decimal(0);
const pad = (n: number) => String(n).padStart(2, "0");
const lastDay = (y: number, m: number): DateString => toDateString(new Date(Date.UTC(y, m, 0)));

async function withholding(path: string, year?: string) {
  const company = await taxCompany();
  if (!company.withholds) throw conflict("This company withholds no income tax (its currency is not INR): there are no TDS challans");
  return { ...resolveTaxYear(year, company.timezone, path), timezone: company.timezone };
}

/** The TDS of a month's processed slips per employee (the deductees a challan covers by default). */
async function deductedIn(year: number, month: number): Promise<Deductee[]> {
  const ym = year * 100 + month;
  const rows = await paidSlips(db, null, ym, ym + 1);
  return rows
    .filter((r) => new Decimal(r.income_tax).gt(0))
    .map((r) => ({ employee_id: r.employee_id, tds: new Decimal(r.income_tax).toFixed(2) }));
}

/** A challan's amounts as the answers show them: each part, and the total with interest and fee. */
export function challanAmounts(c: Pick<Row, "tax" | "surcharge" | "cess" | "interest" | "fee">) {
  const tax = new Decimal(c.tax).plus(c.surcharge).plus(c.cess);
  return {
    tax: new Decimal(c.tax).toFixed(2),
    surcharge: new Decimal(c.surcharge).toFixed(2),
    cess: new Decimal(c.cess).toFixed(2),
    interest: new Decimal(c.interest).toFixed(2),
    fee: new Decimal(c.fee).toFixed(2),
    total: tax.plus(c.interest).plus(c.fee).toFixed(2),
  };
}

function challanJson(c: Row) {
  const period = `${c.period_year}-${pad(c.period_month)}`;
  const deposited = toDateString(c.deposited_on);
  const due = depositDueDate(c.period_year, c.period_month);
  const tax = new Decimal(c.tax).plus(c.surcharge).plus(c.cess);
  // salary tax is deducted when the salary is paid: the month's last day
  const deducted = lastDay(c.period_year, c.period_month);
  const interest = lateInterest(tax, { deductible: deducted, deducted, paid: deposited, due });
  const warnings: string[] = [];
  if (deposited > due)
    warnings.push(`Deposited after the due date ${due}: interest of ₹${interest.total} is due (${interest.lines[0]?.source}).`);
  if (new Decimal(c.interest).lt(interest.total))
    warnings.push(`The challan's interest ₹${new Decimal(c.interest).toFixed(2)} is less than the ₹${interest.total} due.`);
  return {
    id: c.id,
    period,
    bsr_code: c.bsr_code,
    challan_serial: c.challan_serial,
    deposited_on: deposited,
    ...challanAmounts(c),
    deductees: c.deductees as Deductee[],
    due_date: due,
    late: deposited > due,
    interest_due: interest,
    warnings,
    created_at: c.created_at.toISOString(),
  };
}

/** Records a challan for a month; the deductees default to every employee whose slip of that month deducted tax. Audited. */
export async function recordDeposit(auth: AuthContext, input: RequestBody<"recordTdsChallan">) {
  const [y, m] = input.period.split("-").map(Number);
  const { timezone } = await withholding("body.period", taxYearOf(`${input.period}-01`));
  if (input.deposited_on < `${input.period}-01`)
    throw invalidField("body.deposited_on", `must not be before the month it covers (${input.period})`);
  // a challan records a deposit the bank has received; a date to come would also grow the interest without bound
  const today = tenantToday({ timezone });
  if (input.deposited_on > today)
    throw invalidField("body.deposited_on", `must not be after today (${today}): record a challan once the bank has received the deposit`);
  const deductees = input.deductees ?? (await deductedIn(y, m));
  const row = await tenantTx(async (tx) => {
    const clash = await tx.tdsChallan.findFirst({
      where: { bsr_code: input.bsr_code, challan_serial: input.challan_serial, deposited_on: new Date(input.deposited_on) },
    });
    if (clash)
      throw conflict(
        `A challan with BSR code ${input.bsr_code}, serial ${input.challan_serial} of ${input.deposited_on} is already recorded`,
      );
    const c = await tx.tdsChallan.create({
      data: {
        period_year: y,
        period_month: m,
        bsr_code: input.bsr_code,
        challan_serial: input.challan_serial,
        deposited_on: new Date(input.deposited_on),
        tax: input.tax,
        surcharge: input.surcharge ?? "0",
        cess: input.cess ?? "0",
        interest: input.interest ?? "0",
        fee: input.fee ?? "0",
        deductees,
        created_by: auth.userId,
      },
    });
    await audit({ action: "tds_challan.recorded", entity_type: "tds_challan", entity_id: c.id, changes: { ...input, deductees } }, tx);
    return c;
  });
  return challanJson(row);
}

/**
 * The months of a tax year up to today: the TDS deducted by processed runs, the challans deposited for
 * it, the due date, and warnings (not deposited, short, late, interest short).
 */
export async function tdsMonths(requestedYear?: string) {
  const company = await taxCompany();
  if (!company.withholds) return null;
  const { taxYear } = resolveTaxYear(requestedYear, company.timezone);
  const { startYear } = taxYearBounds(taxYear);
  const today = tenantToday({ timezone: company.timezone });
  const [slips, challans] = await Promise.all([
    paidSlips(db, null, startYear * 100 + 4, (startYear + 1) * 100 + 4),
    db.tdsChallan.findMany({
      where: {
        OR: [
          { period_year: startYear, period_month: { gte: 4 } },
          { period_year: startYear + 1, period_month: { lte: 3 } },
        ],
      },
      orderBy: [{ deposited_on: "asc" }, { id: "asc" }],
    }),
  ]);
  const months = [];
  for (let i = 0; i < 12; i++) {
    const y = startYear + Math.floor((i + 3) / 12);
    const m = ((i + 3) % 12) + 1;
    if (`${y}-${pad(m)}-01` > today) break;
    const deducted = slips.filter((s) => s.period_year === y && s.period_month === m).reduce((t, s) => t.plus(s.income_tax), ZERO);
    const own = challans.filter((c) => c.period_year === y && c.period_month === m).map(challanJson);
    const deposited = own.reduce((t, c) => t.plus(c.tax).plus(c.surcharge).plus(c.cess), ZERO);
    const due = depositDueDate(y, m);
    const warnings = own.flatMap((c) => c.warnings);
    const short = deducted.minus(deposited).toFixed(2);
    if (deposited.lt(deducted))
      warnings.unshift(
        today > due
          ? `₹${short} deducted is not deposited: it was due by ${due}; interest at 1.5 % a month or part runs from the deduction.`
          : `₹${short} deducted is to be deposited by ${due}.`,
      );
    months.push({
      period: `${y}-${pad(m)}`,
      deducted: deducted.toFixed(2),
      deposited: deposited.toFixed(2),
      due_date: due,
      challans: own,
      warnings,
    });
  }
  return { tax_year: taxYear, months };
}
