// The quarterly statement of tax deducted from salary - Form 24Q up to 2025-26, Form 138 from 2026-27 - as
// data (GET /api/payroll/tds-return): the deductor, the challans of the quarter's months with the deductee
// records they cover, in Q4 the salary details of the year (Annexure II, from taxYearRecords), the due date,
// the filing as recorded and the late-filing fee. The e-TDS text file (etds-file.ts) is written from this.
import { activeTenant } from "../../../db/central.ts";
import { byId, db, tenantTx } from "../../../db/tenancy.ts";
import { type DateString, toDateString } from "../../../lib/dates.ts";
import { Decimal } from "../../../lib/money.ts";
import { audit, diff } from "../../../platform/audit.ts";
import { conflict, invalidField } from "../../../platform/errors.ts";
import type { AuthContext, RequestBody } from "../../../platform/use-case.ts";
import { tenantToday } from "../../shared/work-settings.ts";
import { challanAmounts } from "./challans.ts";
import { type FilingRules, filingRulesOn, lateFilingFee, type Quarter, quarterMonths, returnDueDate } from "./filing-rules.ts";
import { incomeTaxSettings, resolveTaxYear, taxCompany } from "./profile.ts";
import { type TaxYearRecord, taxYearRecords } from "./projection.ts";
import { taxYearBounds } from "./rates.ts";
import { type PanStatus, type SalaryDetail, salaryDetailsOf, statementPan } from "./tds-salary-detail.ts";

const ZERO = new Decimal(0);
const pad = (n: number) => String(n).padStart(2, "0");
const lastDay = (y: number, m: number): DateString => toDateString(new Date(Date.UTC(y, m, 0)));
const rupees = (v: Decimal.Value) => `₹${new Decimal(v).toFixed(2)}`;
export interface ReturnDeductee {
  employee_id: string;
  employee_code: string;
  name: string;
  pan: string;
  pan_status: PanStatus;
  section_code: string;
  amount_paid: string;
  paid_on: DateString;
  tds_deducted: string;
  tds_deposited: string;
  deducted_on: DateString;
  deposited_on: DateString;
}

type ChallanRow = Awaited<ReturnType<typeof db.tdsChallan.findFirstOrThrow>>;
type Person = { code: string; name: string; pan: string | null };

export type TdsReturn = NonNullable<Awaited<ReturnType<typeof tdsReturnOf>>>;

/** The people a statement names: the year's records, and anyone a challan names without a record. */
async function peopleOf(records: TaxYearRecord[], challans: ChallanRow[]): Promise<Map<string, Person>> {
  const people = new Map<string, Person>(records.map((r) => [r.employee_id, { code: r.employee_code, name: r.employee_name, pan: r.pan }]));
  const missing = [...new Set(challans.flatMap((c) => (c.deductees as { employee_id: string }[]).map((d) => d.employee_id)))].filter(
    (id) => !people.has(id),
  );
  if (missing.length) {
    const rows = await db.employee.findMany({
      where: { id: { in: missing } },
      select: { id: true, employee_code: true, first_name: true, last_name: true, pan_number: true },
    });
    for (const e of rows) people.set(e.id, { code: e.employee_code, name: `${e.first_name} ${e.last_name}`.trim(), pan: e.pan_number });
  }
  return people;
}

function challanOf(c: ChallanRow, people: Map<string, Person>, records: Map<string, TaxYearRecord>, rules: FilingRules, warn: string[]) {
  const period = `${c.period_year}-${pad(c.period_month)}`;
  const paidOn = lastDay(c.period_year, c.period_month);
  const depositedOn = toDateString(c.deposited_on);
  const label = `The challan of ${depositedOn} (BSR code ${c.bsr_code}, serial ${c.challan_serial})`;
  const deductees: ReturnDeductee[] = (c.deductees as { employee_id: string; tds: string }[]).map((d) => {
    const who = people.get(d.employee_id) ?? { code: "", name: "(unknown employee)", pan: null };
    const month = records.get(d.employee_id)?.months.find((m) => m.period === period);
    if (!month) warn.push(`${label} names ${who.name} (${who.code}), who has no processed slip for ${period}.`);
    else if (!new Decimal(month.tds).eq(d.tds))
      warn.push(`${who.name} (${who.code}): ${rupees(month.tds)} deducted in ${period} but ${rupees(d.tds)} in ${label.toLowerCase()}.`);
    return {
      employee_id: d.employee_id,
      employee_code: who.code,
      name: who.name,
      ...statementPan(who.pan),
      section_code: rules.etds.salary_section_code,
      amount_paid: month?.taxable_salary ?? "0.00",
      paid_on: paidOn,
      tds_deducted: month?.tds ?? "0.00",
      tds_deposited: new Decimal(d.tds).toFixed(2),
      deducted_on: paidOn,
      deposited_on: depositedOn,
    };
  });
  const tax = new Decimal(c.tax).plus(c.surcharge).plus(c.cess);
  const deducteesTds = deductees.reduce((t, d) => t.plus(d.tds_deposited), ZERO);
  if (!deducteesTds.eq(tax))
    warn.push(`${label}: its deductee records add up to ${rupees(deducteesTds)}, its tax, surcharge and cess to ${rupees(tax)}.`);
  return {
    id: c.id,
    period,
    bsr_code: c.bsr_code,
    challan_serial: c.challan_serial,
    deposited_on: depositedOn,
    minor_head: "200",
    ...challanAmounts(c),
    deductees_tds: deducteesTds.toFixed(2),
    deductees,
  };
}

type ReturnChallan = ReturnType<typeof challanOf>;

/** Months whose tax has no challan or too little of one, and employees' tax a month's challans leave out. */
function monthWarnings(taxYear: string, q: Quarter, records: TaxYearRecord[], challans: ReturnChallan[], warn: string[]) {
  for (const { year, month } of quarterMonths(taxYear, q)) {
    const period = `${year}-${pad(month)}`;
    const own = challans.filter((c) => c.period === period);
    const covered = new Set(own.flatMap((c) => c.deductees.map((d) => d.employee_id)));
    let deducted = ZERO;
    for (const r of records) {
      const m = r.months.find((x) => x.period === period);
      if (!m || new Decimal(m.tds).isZero()) continue;
      deducted = deducted.plus(m.tds);
      if (own.length && !covered.has(r.employee_id))
        warn.push(`${r.employee_name} (${r.employee_code}): ${rupees(m.tds)} deducted in ${period} is in no challan of that month.`);
    }
    const deposited = own.reduce((t, c) => t.plus(c.tax).plus(c.surcharge).plus(c.cess), ZERO);
    if (deducted.gt(0) && !own.length)
      warn.push(`No challan is recorded for ${period}: the ${rupees(deducted)} deducted that month is not in the statement.`);
    else if (deposited.lt(deducted))
      warn.push(`${period}: ${rupees(deducted)} deducted but only ${rupees(deposited)} deposited by challan.`);
  }
}

function panWarnings(challans: ReturnChallan[], details: SalaryDetail[] | null, warn: string[]) {
  const seen = new Map<string, { name: string; code: string; pan_status: PanStatus }>();
  for (const d of [...challans.flatMap((c) => c.deductees), ...(details ?? [])])
    seen.set(d.employee_id, { name: d.name, code: d.employee_code, pan_status: d.pan_status });
  for (const p of seen.values()) {
    if (p.pan_status === "missing")
      warn.push(
        `${p.name} (${p.code}) has no PAN: reported as PANNOTAVBL (tax at the higher rate without a PAN; s.206AA / its successor).`,
      );
    if (p.pan_status === "invalid") warn.push(`${p.name} (${p.code}) has a PAN not of the form AAAAA9999A: reported as PANINVALID.`);
  }
}

async function deductorOf(warn: string[]) {
  const [s, tenant] = await Promise.all([incomeTaxSettings(), activeTenant({ name: true, legal_name: true })]);
  const missing = [
    !s.deductor_tan && "the TAN (deductor_tan)",
    !s.deductor_pan && "the employer's PAN (deductor_pan)",
    !s.deductor_address && "the address (deductor_address)",
    !s.responsible_person && "the person responsible for paying salary (responsible_person)",
  ].filter(Boolean);
  if (missing.length) warn.push(`The income-tax settings lack ${missing.join(", ")}: the statement needs them.`);
  return {
    name: tenant.legal_name ?? tenant.name,
    tan: s.deductor_tan,
    pan: s.deductor_pan,
    type: s.deductor_type,
    address: s.deductor_address,
    email: s.deductor_email,
    phone: s.deductor_phone,
    responsible_person: s.responsible_person,
  };
}

// size: the statement assembled in one place - deductor, challans, salary details, filing and fee
/** The statement of a tax year's quarter; null where the company withholds no income tax. */
export async function tdsReturnOf(requestedYear: string | undefined, quarter: Quarter) {
  const company = await taxCompany();
  if (!company.withholds) return null;
  const { taxYear } = resolveTaxYear(requestedYear, company.timezone);
  const { start, end } = taxYearBounds(taxYear);
  const rules = filingRulesOn(start);
  const months = quarterMonths(taxYear, quarter);
  const period = { from: `${months[0].year}-${pad(months[0].month)}-01`, to: lastDay(months[2].year, months[2].month) };
  const today = tenantToday({ timezone: company.timezone });
  const warnings: string[] = [];
  if (today <= period.to) warnings.push(`The quarter ends on ${period.to}: the statement is not complete before then.`);
  const [records, challanRows, filing, deductor] = await Promise.all([
    taxYearRecords(taxYear),
    db.tdsChallan.findMany({
      where: { OR: months.map((m) => ({ period_year: m.year, period_month: m.month })) },
      orderBy: [{ deposited_on: "asc" }, { id: "asc" }],
    }),
    db.tdsReturnFiling.findFirst({ where: { tax_year: taxYear, quarter } }),
    deductorOf(warnings),
  ]);
  const people = await peopleOf(records, challanRows);
  const byId = new Map(records.map((r) => [r.employee_id, r]));
  const challans = challanRows.map((c) => challanOf(c, people, byId, rules, warnings));
  monthWarnings(taxYear, quarter, records, challans, warnings);
  const details = quarter === "Q4" ? await salaryDetailsOf(records, { start, end }) : null;
  panWarnings(challans, details, warnings);
  const deductees = challans.flatMap((c) => c.deductees);
  const sum = (xs: string[]) => xs.reduce((t, x) => t.plus(x), ZERO).toFixed(2);
  const totals = {
    challans: challans.length,
    deductee_records: deductees.length,
    amount_paid: sum(deductees.map((d) => d.amount_paid)),
    tds_deducted: sum(deductees.map((d) => d.tds_deducted)),
    tds_deposited: sum(deductees.map((d) => d.tds_deposited)),
    deposited_by_challans: sum(challans.map((c) => new Decimal(c.tax).plus(c.surcharge).plus(c.cess).toFixed(2))),
  };
  const due = returnDueDate(taxYear, quarter);
  const asOf = filing ? toDateString(filing.filed_on) : today;
  // s.234E caps the fee at the tax deductible in the statement: what the quarter's processed runs deducted
  const periods = new Set(months.map((m) => `${m.year}-${pad(m.month)}`));
  const deductible = sum(records.flatMap((r) => r.months.filter((m) => periods.has(m.period)).map((m) => m.tds)));
  const fee = lateFilingFee(deductible, due, asOf, start);
  return {
    form: rules.forms.quarterly_return,
    law: rules.law,
    tax_year: taxYear,
    quarter,
    period,
    due_date: due,
    deductor,
    challans,
    totals,
    salary_details: details,
    filing: filing ? { filed_on: asOf, receipt_number: filing.receipt_number, recorded_at: filing.updated_at.toISOString() } : null,
    late_fee: { as_of: asOf, filed: filing !== null, ...fee, tds_of_statement: deductible },
    warnings,
    file_name: `${rules.etds.form_number}RQ${quarter.slice(1)}_${deductor.tan ?? "NOTAN"}_${taxYear.replace("-", "")}.txt`,
  };
}

/** Records (or corrects) the filing of a quarter's statement: the date and the receipt number. Audited. */
export async function recordReturnFiling(
  auth: AuthContext,
  requestedYear: string | undefined,
  quarter: Quarter,
  input: RequestBody<"recordTdsReturnFiling">,
) {
  const company = await taxCompany();
  if (!company.withholds)
    throw conflict("This company withholds no income tax (its currency is not INR): there is no TDS statement to file");
  const { taxYear } = resolveTaxYear(requestedYear, company.timezone);
  const months = quarterMonths(taxYear, quarter);
  const quarterEnd = lastDay(months[2].year, months[2].month);
  if (input.filed_on <= quarterEnd)
    throw invalidField(
      "body.filed_on",
      `must be after the quarter's last day (${quarterEnd}): a statement is filed once the quarter is over`,
    );
  const today = tenantToday({ timezone: company.timezone });
  if (input.filed_on > today) throw invalidField("body.filed_on", `must not be after today (${today})`);
  await tenantTx(async (tx) => {
    const before = await tx.tdsReturnFiling.findFirst({ where: { tax_year: taxYear, quarter } });
    const data = { filed_on: new Date(input.filed_on), receipt_number: input.receipt_number, created_by: auth.userId };
    const saved = before
      ? await tx.tdsReturnFiling.update({ where: byId(before.id), data })
      : await tx.tdsReturnFiling.create({ data: { tax_year: taxYear, quarter, ...data } });
    const was = before ? { filed_on: toDateString(before.filed_on), receipt_number: before.receipt_number } : {};
    const changes = diff(was, { filed_on: input.filed_on, receipt_number: input.receipt_number });
    await audit(
      {
        action: "tds_return.filed",
        entity_type: "tds_return_filing",
        entity_id: saved.id,
        changes: { tax_year: taxYear, quarter, ...changes },
      },
      tx,
    );
  });
  return (await tdsReturnOf(taxYear, quarter))!;
}
