// The payslip PDF of a slip (one page).
import PDFDocument from "pdfkit";
import type { slipJson } from "./json.ts";

/** A one-page payslip. */
export function payslipPdf(company: { name: string; currency: string }, slip: ReturnType<typeof slipJson>): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: "A4",
      margin: 48,
      info: { Title: `Payslip ${slip.slip_number ?? ""} ${slip.period}`, Author: company.name },
    });
    const chunks: Buffer[] = [];
    doc.on("data", (c: Buffer) => chunks.push(c));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
    const [y, m] = slip.period.split("-").map(Number);
    const month = new Date(Date.UTC(y, m - 1, 1)).toLocaleString("en-GB", { month: "long", year: "numeric", timeZone: "UTC" });
    doc.fontSize(16).text(company.name, { align: "center" });
    doc.fontSize(12).text(`Payslip for ${month}`, { align: "center" }).moveDown();
    doc.fontSize(10);
    const info: [string, string][] = [
      ["Slip number", slip.slip_number ?? "-"],
      ["Employee", `${slip.employee_name} (${slip.employee_code})`],
      ["Department / designation", `${slip.department} / ${slip.designation}`],
      ["Pay period", `${slip.pay_start} to ${slip.pay_end}`],
      ["Days in month / payable / loss of pay", `${slip.days_in_period} / ${slip.payable_days} / ${slip.lop_days}`],
    ];
    for (const [k, v] of info) doc.text(`${k}: ${v}`);
    doc.moveDown();
    const table = (title: string, rows: [string, string][]) => {
      doc.font("Helvetica-Bold").text(title).font("Helvetica");
      for (const [k, v] of rows) {
        const top = doc.y;
        doc.text(k, 48, top, { width: 330 });
        doc.text(`${v} ${company.currency}`, 380, top, { width: 160, align: "right" });
      }
      doc.moveDown(0.5);
    };
    table("Earnings", [...slip.earnings.map((l): [string, string] => [l.name, l.amount]), ["Gross", slip.gross]]);
    const ded: [string, string][] = slip.deductions.map((l) => [l.name, l.amount]);
    if (slip.pf.applicable) ded.push(["Provident fund (employee)", slip.pf_employee]);
    if (slip.esi.covered) ded.push(["ESI (employee)", slip.esi_employee]);
    if (slip.professional_tax !== "0.00") ded.push(["Professional tax", slip.professional_tax]);
    for (const l of slip.loans) ded.push([`Loan ${l.loan_number}`, l.amount]);
    ded.push(["Total deductions", slip.total_deductions]);
    table("Deductions", ded);
    const extra: [string, string][] = [
      ...slip.reimbursement_lines.map((c): [string, string] => [`Reimbursement ${c.claim_number} (${c.category})`, c.amount]),
      ...slip.encashments.map((x): [string, string] => [`Leave encashment: ${x.days} days ${x.leave_type}`, x.amount]),
    ];
    if (extra.length) table("Other payments", extra);
    doc.font("Helvetica-Bold").fontSize(12).text(`Net pay: ${slip.net_pay} ${company.currency}`, { align: "right" });
    doc.end();
  });
}
