// Form 16 / 130 Part B as a PDF, in the payslip's plain style (../payslip-pdf.ts, ../settlement-pdf.ts):
// the same object GET /api/payroll/form-16/{employeeId} returns (form16Of), drawn line by line in the
// form's order, so the PDF and the JSON cannot disagree. Only withholding companies have one, so INR.
import PDFDocument from "pdfkit";
import { amountTable } from "../statement-table.ts";
import { formatMoney } from "../../../lib/money.ts";
import { printable } from "../../../lib/pdf-text.ts";
import type { AuthContext } from "../../../platform/use-case.ts";
import { conflict } from "../../../platform/errors.ts";
import { form16Of } from "./form16.ts";

type Form16 = NonNullable<Awaited<ReturnType<typeof form16Of>>>;
const CURRENCY = "INR";

/** The Part B PDF of an employee's tax year; a 409 where the employee has no certificate (form16Of gives null). */
export async function form16PdfOf(auth: AuthContext, employeeId: string, taxYear?: string) {
  const f = await form16Of(auth, employeeId, taxYear);
  if (!f) throw conflict("There is no Form 16 for this tax year: no income tax was withheld from this employee's salary in it");
  const slug = f.form === "Form 130" ? "form-130" : "form-16";
  return { fileName: `${slug}-part-b-${f.employee.code}-${f.tax_year}.pdf`.replace(/[^A-Za-z0-9._-]/g, "_"), pdf: await form16Pdf(f) };
}

// size: the certificate drawn in the form's order, section by section
function form16Pdf(f: Form16): Promise<Buffer> {
  const money = (v: string) => `${formatMoney(v, CURRENCY)} ${CURRENCY}`;
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: "A4",
      margin: 48,
      info: { Title: `${f.form} Part B ${f.tax_year} ${f.employee.code}`, Author: printable(f.employer.name) },
    });
    const chunks: Buffer[] = [];
    doc.on("data", (c: Buffer) => chunks.push(c));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
    doc.fontSize(16).text(printable(f.employer.name), { align: "center" });
    doc.fontSize(12).text(`${f.form} Part B - certificate of tax deducted at source on salary`, { align: "center" });
    doc.fontSize(9).text(printable(f.law), { align: "center" });
    doc.moveDown().fontSize(10);
    const info: [string, string][] = [
      ["Employer address", f.employer.address ?? "-"],
      ["TAN of the deductor / PAN of the deductor", `${f.employer.tan ?? "not given"} / ${f.employer.pan ?? "not given"}`],
      ["Employee", `${f.employee.name} (${f.employee.code})`],
      ["PAN of the employee", f.employee.pan ?? "not given"],
      ["Tax year", f.assessment_year ? `${f.tax_year} (assessment year ${f.assessment_year})` : f.tax_year],
      ["Period with this employer", `${f.period.from} to ${f.period.to}`],
      ["Regime / residential status", `${f.regime} / ${f.resident ? "resident" : "non-resident"}`],
      [
        "Part A (TRACES)",
        f.part_a ? `uploaded ${f.part_a.uploaded_at.slice(0, 10)} (version ${f.part_a.version}), a separate download` : "not uploaded",
      ],
    ];
    for (const [k, v] of info) doc.text(printable(`${k}: ${v}`));
    doc.moveDown();
    const table = amountTable(doc, money);
    const s = f.salary;
    table("Salary", [
      ["Gross salary from this employer", s.gross_from_this_employer],
      ["Gross salary from other employers (Form 12B)", s.from_other_employers],
      ["Gross salary", s.gross],
      ...s.exemptions.map((x): [string, string] => [`Less exempt: ${x.description} (s.${x.section})`, x.amount]),
      ["Total exemptions", s.total_exemptions],
      ["Salary after exemptions", s.after_exemptions],
      ["Less standard deduction", s.standard_deduction],
      ["Less professional tax", s.professional_tax],
      ['Income chargeable under the head "Salaries"', s.income_chargeable],
    ]);
    table("Total income", [
      ["Income from house property", f.house_property],
      ["Income from other sources", f.other_income],
      ["Gross total income", f.gross_total_income],
      ...f.deductions.map((d): [string, string] => [`Deduction s.${d.section} (claimed ${formatMoney(d.claimed, CURRENCY)})`, d.allowed]),
      ["Total deductions", f.total_deductions],
      ["Total income", f.total_income],
    ]);
    table("Tax", [
      ["Tax on total income", f.tax_on_total_income],
      ["Rebate", f.rebate],
      ["Surcharge (after marginal relief)", f.surcharge],
      ["Health and education cess", f.cess],
      ["Tax payable", f.tax_payable],
      ["Relief (s.89)", f.relief],
      ["Net tax payable", f.net_tax_payable],
    ]);
    table("Tax deducted", [
      ...f.tds.quarters.flatMap((q): [string, string][] => [
        [`${q.quarter}: amount paid`, q.amount_paid],
        [`${q.quarter}: tax deducted`, q.tax_deducted],
      ]),
      ["Tax deducted by this employer", f.tds.by_this_employer],
      ["Tax deducted by other employers", f.tds.by_other_employers],
      ["Total tax deducted", f.tds.total],
    ]);
    doc
      .font("Helvetica-Bold")
      .fontSize(12)
      .text(`Balance (tax payable - tax deducted): ${money(f.balance)}`, 48, doc.y, { align: "right" });
    doc.end();
  });
}
