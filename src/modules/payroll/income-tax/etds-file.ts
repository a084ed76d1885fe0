// The quarterly statement (tds-return.ts) written as the e-TDS text file of a regular salary statement for
// the return preparation utility / File Validation Utility (FVU): FH, BH, then each challan (CD) followed by
// its deductee details (DD), and in Q4 each salary detail (SD) followed by its section 16 (S16) and chapter
// VI-A (C6A) records; ASCII, CRLF, "^" between fields. Only the FVU makes it upload-ready.
import { db } from "../../../db/tenancy.ts";
import { Decimal } from "../../../lib/money.ts";
import { conflict } from "../../../platform/errors.ts";
import { tenantToday } from "../../shared/work-settings.ts";
import { type LayoutId, type RecordType, writeRecord } from "./etds-layout.ts";
import { filingRulesOn, type Quarter } from "./filing-rules.ts";
import { taxCompany } from "./profile.ts";
import type { SalaryDetail } from "./tds-salary-detail.ts";
import { type ReturnDeductee, type TdsReturn, tdsReturnOf } from "./tds-return.ts";

/** The name of the utility that prepared the file (the file header's "return preparation utility"). */
const PREPARED_BY = "HRMS API";
const ZERO = new Decimal(0);
const ddmmyyyy = (d: string) => `${d.slice(8, 10)}${d.slice(5, 7)}${d.slice(0, 4)}`;
const money = (v: Decimal.Value) => new Decimal(v).toFixed(2);
const sum = (xs: Decimal.Value[]) => xs.reduce<Decimal>((t, x) => t.plus(x), ZERO);
// the file is ASCII: letters outside it (a name's diacritics) are dropped, as the FVU accepts no others
const ascii = (s: string | null | undefined, max = 75) =>
  (s ?? "")
    .normalize("NFKD")
    .replace(/[^\x20-\x7e]/g, "")
    .toUpperCase()
    .slice(0, max);

type Values = Record<string, string | number>;

/** The previous quarter's regular statement as recorded: the batch header says whether one was filed, and its token. */
async function previousFiling(taxYear: string, q: Quarter) {
  const start = Number(taxYear.slice(0, 4));
  const prev =
    q === "Q1"
      ? { tax_year: `${start - 1}-${String(start % 100).padStart(2, "0")}`, quarter: "Q4" }
      : { tax_year: taxYear, quarter: `Q${Number(q[1]) - 1}` };
  return db.tdsReturnFiling.findFirst({ where: prev });
}

function batchHeader(r: TdsReturn, layout: LayoutId, previous: { receipt_number: string } | null): Values {
  const d = r.deductor;
  const rp = d.responsible_person;
  const start = Number(r.tax_year.slice(0, 4));
  const yyyyyy = (y: number) => `${y}${String((y + 1) % 100).padStart(2, "0")}`;
  const lines = (prefix: string, xs: string[] | undefined) =>
    Object.fromEntries((xs ?? []).map((l, i) => [`${prefix} ${i + 1}`, ascii(l, 25)]));
  const sd = r.salary_details;
  const common: Values = {
    "batch number": 1,
    "challan count": r.challans.length,
    "form number": layout,
    "previous token number": previous?.receipt_number ?? "",
    TAN: d.tan ?? "",
    PAN: d.pan ?? "",
    "assessment year": yyyyyy(start + 1),
    "financial year": yyyyyy(start),
    period: r.quarter,
    "deductor name": ascii(d.name),
    ...lines("deductor address", d.address?.lines),
    "deductor state": d.address?.state_code ?? "",
    "deductor PIN": d.address?.pin ?? "",
    "deductor email": d.email ?? "",
    "deductor telephone": d.phone ?? "",
    "deductor type": d.type,
    "responsible name": ascii(rp?.name),
    "responsible designation": ascii(rp?.designation, 20),
    ...lines("responsible address", rp?.address.lines),
    "responsible state": rp?.address.state_code ?? "",
    "responsible PIN": rp?.address.pin ?? "",
    "responsible email": rp?.email ?? "",
    "responsible PAN": rp?.pan ?? "",
    "batch total deposit": money(sum(r.challans.map((c) => c.total))),
    "salary detail count": sd ? sd.length : "",
    "batch total gross total income": sd ? money(sum(sd.map((s) => s.gross_total_income))) : "",
    "earlier regular statement filed": previous ? "Y" : "N",
  };
  if (layout === "24Q")
    return {
      ...common,
      "deductor branch": "NA",
      "deductor address changed": "N",
      "responsible mobile": rp?.mobile ?? "",
      "responsible address changed": "N",
      "AO approval": "N",
    };
  return {
    ...common,
    "deductor country": "INDIA",
    "deductor country code": d.phone ? "91" : "",
    "responsible country": "INDIA",
    "responsible country code": "91",
    "responsible telephone": rp?.mobile ?? "",
  };
}

function challanRecord(c: TdsReturn["challans"][number], n: number, layout: LayoutId): Values {
  const dd = c.deductees;
  const deducted = money(sum(dd.map((d) => d.tds_deducted)));
  const deposited = money(sum(dd.map((d) => d.tds_deposited)));
  const common: Values = { "batch number": 1, "challan record number": n, "deductee count": dd.length, "NIL challan indicator": "N" };
  const ids = {
    "BSR code": c.bsr_code,
    "challan serial": c.challan_serial,
    "challan date": ddmmyyyy(c.deposited_on),
    "minor head": c.minor_head,
  };
  if (layout === "24Q")
    return {
      ...common,
      ...ids,
      "oltas income tax": c.tax,
      "oltas surcharge": c.surcharge,
      "oltas cess": c.cess,
      "oltas interest": c.interest,
      "oltas others": "0.00",
      "total deposit": c.total,
      "deposited as per deductees": deposited,
      "TDS income tax": deducted,
      "TDS surcharge": "0.00",
      "TDS cess": "0.00",
      "total TDS": deducted,
      "TDS interest": c.interest,
      "TDS others": "0.00",
      "book entry": "N",
      fee: c.fee,
    };
  return {
    ...common,
    ...ids,
    "total tax deducted": deducted,
    "total interest": c.interest,
    "total fee": c.fee,
    "total others": "0.00",
    "total deposit": c.total,
    "mode of payment": "C",
    "deposited as per deductees": deposited,
    "deducted as per deductees": deducted,
  };
}

function deducteeRecord(d: ReturnDeductee, challan: number, n: number, layout: LayoutId): Values {
  const taxed = new Decimal(d.tds_deducted).gt(0);
  const common: Values = {
    "batch number": 1,
    "challan record number": challan,
    "deductee record number": n,
    mode: "O",
    PAN: d.pan,
    name: ascii(d.name),
    "section code": d.section_code,
    "amount paid": d.amount_paid,
    "date of payment": ddmmyyyy(d.paid_on),
    "date of deduction": taxed ? ddmmyyyy(d.deducted_on) : "",
    "date of deposit": ddmmyyyy(d.deposited_on),
    "total TDS": d.tds_deducted,
    "total deposited": d.tds_deposited,
    // C: deducted at the higher rate for want of a PAN
    reason: d.pan_status === "missing" ? "C" : "",
  };
  if (layout === "24Q")
    return {
      ...common,
      "employee reference number": d.pan_status === "valid" ? "" : ascii(d.employee_code, 10),
      "TDS income tax": d.tds_deducted,
      "TDS surcharge": "0.00",
      "TDS cess": "0.00",
    };
  return { ...common, "whether deposited": new Decimal(d.tds_deposited).gte(d.tds_deducted) ? "Y" : "N" };
}

function exempt(s: SalaryDetail, section: string) {
  return money(sum(s.exemptions.filter((e) => e.section === section).map((e) => e.amount)));
}

// size: the salary detail's fields in the layout's order, in one place
function salaryRecords(s: SalaryDetail, n: number): [RecordType, Values][] {
  const s16 = [
    ["16(ia)", s.standard_deduction],
    ["16(iii)", s.professional_tax],
  ].filter(([, a]) => new Decimal(a).gt(0));
  const c6a = s.deductions.filter((x) => new Decimal(x.allowed).gt(0));
  const sd: Values = {
    "batch number": 1,
    "salary detail record number": n,
    mode: "A",
    PAN: s.pan,
    "PAN reference": s.pan_status === "valid" ? "" : ascii(s.employee_code, 10),
    name: ascii(s.name),
    category: s.category,
    "employed from": ddmmyyyy(s.employment_from),
    "employed to": ddmmyyyy(s.employment_to),
    "total salary": s.total_salary,
    "S16 count": s16.length,
    "S16 total": money(sum(s16.map(([, a]) => a))),
    "income chargeable under salaries": s.income_from_salary,
    "income from other heads": money(new Decimal(s.house_property).plus(s.other_income)),
    "gross total income": s.gross_total_income,
    "C6A count": c6a.length,
    "C6A total": s.total_deductions,
    "total taxable income": s.taxable_income,
    "income tax on total income": s.tax_on_income,
    surcharge: s.surcharge,
    cess: s.cess,
    "relief 89": s.relief,
    "net tax payable": s.tax_payable,
    "total TDS of the year": s.tds_total,
    shortfall: s.shortfall,
    "taxable salary this employer": s.salary_this_employer,
    "taxable salary previous employers": s.salary_previous_employers,
    "TDS this employer": s.tds_this_employer,
    "TDS previous employers": s.tds_previous_employers,
    "higher rate without PAN": s.pan_status === "missing" ? "Y" : "N",
    "rent above one lakh": "N",
    "landlord count": 0,
    "lender interest": "N",
    "lender count": 0,
    "superannuation repaid": "N",
    "salary 17(1)": s.salary_this_employer,
    "perquisites 17(2)": "0.00",
    "profits 17(3)": "0.00",
    "exempt 10(5)": exempt(s, "10(5)"),
    "exempt 10(10)": exempt(s, "10(10)"),
    "exempt 10(10A)": "0.00",
    "exempt 10(10AA)": exempt(s, "10(10AA)"),
    "exempt 10(13A)": exempt(s, "10(13A)"),
    "exempt 10 other": "0.00",
    "exempt 10 total": s.total_exemptions,
    "other sources offered": s.other_income,
    "rebate 87A": s.rebate,
    "opting out of 115BAC": s.regime === "old" ? "Y" : "N",
    "allowances 10(14)": "0.00",
    "other TDS 192(2B)": "0.00",
  };
  const base = { "batch number": 1, "salary detail record number": n };
  return [
    ["SD", sd],
    ...s16.map(([section, amount], i): [RecordType, Values] => ["S16", { ...base, "S16 record number": i + 1, section, amount }]),
    // the three amounts carry the amount allowed: the implementations read disagree on their order
    ...c6a.map((x, i): [RecordType, Values] => [
      "C6A",
      {
        ...base,
        "C6A record number": i + 1,
        section: x.section,
        "gross amount": x.allowed,
        "deductible amount": x.allowed,
        "qualifying amount": x.allowed,
      },
    ]),
  ];
}

/** The e-TDS text of a statement: the records in order, each line numbered from 1, CRLF after every line. */
export function etdsText(r: TdsReturn, created: string, previous: { receipt_number: string } | null): string {
  const layout = filingRulesOn(`${r.tax_year.slice(0, 4)}-04-01`).etds.layout;
  const records: [RecordType, Values][] = [
    [
      "FH",
      {
        ...{ "file type": "SL1", "upload type": "R", "file creation date": ddmmyyyy(created), "file sequence number": 1 },
        ...{ "uploader type": "D", TAN: r.deductor.tan ?? "", "batch count": 1, "return preparation utility": PREPARED_BY },
      },
    ],
    ["BH", batchHeader(r, layout, previous)],
  ];
  for (const [i, c] of r.challans.entries()) {
    records.push(["CD", challanRecord(c, i + 1, layout)]);
    for (const [j, d] of c.deductees.entries()) records.push(["DD", deducteeRecord(d, i + 1, j + 1, layout)]);
  }
  for (const [i, s] of (r.salary_details ?? []).entries()) records.push(...salaryRecords(s, i + 1));
  return records.map(([type, v], i) => `${writeRecord(layout, type, { ...v, "line number": i + 1, "record type": type })}\r\n`).join("");
}

/** The statement's text file; 409 where no income tax is withheld or the deductor lacks a TAN or PAN. */
export async function etdsFileOf(requestedYear: string | undefined, quarter: Quarter) {
  const r = await tdsReturnOf(requestedYear, quarter);
  if (!r) throw conflict("This company withholds no income tax (its currency is not INR): there is no TDS statement");
  if (!r.deductor.tan || !r.deductor.pan)
    throw conflict(
      "The income-tax settings lack the TAN or the employer's PAN (deductor_tan, deductor_pan): the statement cannot name its deductor",
    );
  const [company, previous] = await Promise.all([taxCompany(), previousFiling(r.tax_year, quarter)]);
  return { fileName: r.file_name, content: etdsText(r, tenantToday({ timezone: company.timezone }), previous) };
}
