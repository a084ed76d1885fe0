// The record layouts of the e-TDS text file of a regular salary statement, field by field in the file
// format's order: Form 24Q (Protean/NSDL formats for statements up to FY 2025-26) and Form No. 138 (from the
// tax year 2026-27). A record of n fields is written with n-1 carets. What each layout follows and what could
// not be confirmed: docs/payroll-tax.md "The quarterly statement".

const range = (prefix: string, from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `${prefix} ${from + i}`);

const FH = [
  "line number",
  "record type",
  "file type",
  "upload type",
  "file creation date",
  "file sequence number",
  "uploader type",
  "TAN",
  "batch count",
  "return preparation utility",
  "record hash",
  "FVU version",
  "file hash",
  "SAM version",
  "SAM hash",
  "SCM version",
  "SCM hash",
  "consolidated file hash",
];

const BH_24Q = [
  ...["line number", "record type", "batch number", "challan count", "form number", "transaction type", "batch updation indicator"],
  ...["original token number", "previous token number", "token number", "token date", "last TAN", "TAN", "receipt number", "PAN"],
  ...["assessment year", "financial year", "period", "deductor name", "deductor branch", ...range("deductor address", 1, 5)],
  ...["deductor state", "deductor PIN", "deductor email", "deductor STD code", "deductor telephone", "deductor address changed"],
  ...["deductor type", "responsible name", "responsible designation", ...range("responsible address", 1, 5), "responsible state"],
  ...["responsible PIN", "responsible email", "responsible mobile", "responsible STD code", "responsible telephone"],
  ...["responsible address changed", "batch total deposit", "unmatched challan count", "salary detail count"],
  ...["batch total gross total income", "AO approval", "earlier regular statement filed", "last deductor type", "state name"],
  ...["PAO code", "DDO code", "ministry name", "ministry name other", "responsible PAN", "PAO registration number"],
  ...["DDO registration number", "deductor STD code alternate", "deductor telephone alternate", "deductor email alternate"],
  ...["responsible STD code alternate", "responsible telephone alternate", "responsible email alternate", "AIN", "GSTN"],
  ...["194P detail count", "batch total gross total income 194P", "record hash"],
];

const BH_138 = [
  ...["line number", "record type", "batch number", "challan count", "form number", "transaction type", "batch updation indicator"],
  ...["original token number", "previous token number", "token number", "token date", "last TAN", "TAN", "receipt number", "PAN"],
  ...["assessment year", "financial year", "period", "deductor name", "deductor country", ...range("deductor address", 1, 5)],
  ...["deductor state", "deductor PIN", "deductor email", "deductor country code", "deductor telephone", "filler 1", "deductor type"],
  ...["responsible name", "responsible designation", ...range("responsible address", 1, 5), "responsible state", "responsible PIN"],
  ...["responsible email", "responsible country", "responsible country code", "responsible telephone", "filler 3"],
  ...["batch total deposit", "unmatched challan count", "salary detail count", "batch total gross total income", "filler 4"],
  ...["earlier regular statement filed", "last deductor type", "state name", "filler 5", "filler 6", "ministry name"],
  ...["ministry name other", "responsible PAN", ...range("filler", 7, 14), "AIN", "GSTN", "194P detail count"],
  ...["batch total gross total income 194P", "record hash"],
];

const CD_24Q = [
  ...["line number", "record type", "batch number", "challan record number", "deductee count", "NIL challan indicator"],
  ...["challan updation indicator", "filler 2", "filler 3", "filler 4", "last challan serial", "challan serial", "last DDO serial"],
  ...["DDO serial", "last BSR code", "BSR code", "last challan date", "challan date", "filler 5", "filler 6", "section"],
  ...["oltas income tax", "oltas surcharge", "oltas cess", "oltas interest", "oltas others", "total deposit", "last total deposit"],
  ...["deposited as per deductees", "TDS income tax", "TDS surcharge", "TDS cess", "total TDS", "TDS interest", "TDS others"],
  ...["cheque number", "book entry", "remarks", "fee", "minor head", "record hash"],
];

const CD_138 = [
  ...["line number", "record type", "batch number", "challan record number", "deductee count", "NIL challan indicator"],
  ...["challan updation indicator", "total tax deducted", "total interest", "total fee", "total others", "total deposit"],
  ...["mode of payment", "last BSR code", "BSR code", "last challan serial", "challan serial", "last challan date", "challan date"],
  ...["last total deposit", "deposited as per deductees", "deducted as per deductees", "minor head", ...range("filler", 1, 6)],
  "record hash",
];

const DD_24Q = [
  ...["line number", "record type", "batch number", "challan record number", "deductee record number", "mode"],
  ...["employee reference number", "deductee code", "last PAN", "PAN", "last PAN reference", "PAN reference", "name"],
  ...["TDS income tax", "TDS surcharge", "TDS cess", "total TDS", "last total TDS", "total deposited", "last total deposited"],
  ...["total value of purchase", "amount paid", "date of payment", "date of deduction", "date of deposit", "rate"],
  ...["grossing up indicator", "book entry", "date of certificate", "reason", "remarks 2", "remarks 3", "section code"],
  ...["certificate number", ...range("filler", 1, 4), "record hash"],
];

const DD_138 = [
  ...["line number", "record type", "batch number", "challan record number", "deductee record number", "mode", "last PAN"],
  ...["PAN", "name", ...range("remarks", 1, 5), "section code", "remarks 6", "remarks 7", "whether deposited"],
  ...["date of payment", "amount paid", "grossing up indicator", "remarks 9", "remarks 10", "total TDS", "total deposited"],
  ...["last total TDS", "date of deduction", "remarks 11", "date of deposit", "remarks 12", "remarks 13", "reason"],
  ...["certificate number", ...range("filler", 1, 8), "last total deposited", "filler 10", "filler 11", "record hash"],
];

const SD = [
  ...["line number", "record type", "batch number", "salary detail record number", "mode", "filler 7", "PAN", "PAN reference"],
  ...["name", "category", "employed from", "employed to", "total salary", "filler 8", "S16 count", "S16 total"],
  ...["income chargeable under salaries", "income from other heads", "gross total income", "last gross total income"],
  ...["C6A count", "C6A total", "total taxable income", "income tax on total income", "surcharge", "cess", "relief 89"],
  ...["net tax payable", "total TDS of the year", "shortfall", "aggregate 80C 80CCC 80CCD(1)", "remarks 1", "remarks 2"],
  ...["taxable salary this employer", "taxable salary previous employers", "TDS this employer", "TDS previous employers"],
  ...["higher rate without PAN", "rent above one lakh", "landlord count", ...range("landlord", 1, 8), "lender interest"],
  ...["lender count", ...range("lender", 1, 8), "superannuation repaid", "superannuation fund", "superannuation from"],
  ...["superannuation to", "superannuation repayment", "average rate", "superannuation tax", "gross total income with repayment"],
  ...["salary 17(1)", "perquisites 17(2)", "profits 17(3)", "exempt 10(5)", "exempt 10(10)", "exempt 10(10A)", "exempt 10(10AA)"],
  ...["exempt 10(13A)", "exempt 10 other", "exempt 10 total", "other sources offered", "rebate 87A", "opting out of 115BAC"],
  ...["allowances 10(14)", "other TDS 192(2B)", ...range("filler", 10, 15), "record hash"],
];

const S16 = [
  "line number",
  "record type",
  "batch number",
  "salary detail record number",
  "S16 record number",
  "section",
  "amount",
  "record hash",
];

const C6A = [
  ...["line number", "record type", "batch number", "salary detail record number", "C6A record number", "section"],
  ...["gross amount", "deductible amount", "qualifying amount", "record hash"],
];

export type RecordType = "FH" | "BH" | "CD" | "DD" | "SD" | "S16" | "C6A";
export type LayoutId = "24Q" | "138";

/** The fields of each record type, in order, per layout. */
export const LAYOUTS: Record<LayoutId, Record<RecordType, readonly string[]>> = {
  "24Q": { FH, BH: BH_24Q, CD: CD_24Q, DD: DD_24Q, SD, S16, C6A },
  "138": { FH, BH: BH_138, CD: CD_138, DD: DD_138, SD, S16, C6A },
};

/** One record as a line: the named values in the layout's order, every other field empty; carets and CR are dropped from values. */
export function writeRecord(layout: LayoutId, type: RecordType, values: Record<string, string | number>): string {
  const fields = LAYOUTS[layout][type];
  for (const name of Object.keys(values)) if (!fields.includes(name)) throw new Error(`${type} of ${layout} has no field "${name}"`);
  return fields
    .map((f) =>
      String(values[f] ?? "")
        .replaceAll("^", " ")
        .replaceAll("\r", " ")
        .replaceAll("\n", " "),
    )
    .join("^");
}
