// JSON of runs and slips, and the payslip PDF.
import PDFDocument from "pdfkit";
import type { db } from "../../db/tenancy.ts";
import { toDateString } from "../../lib/dates.ts";
import { moneyString } from "../../lib/money.ts";
import type { RunTotals, SlipDetails } from "./compute.ts";

type RunRow = Awaited<ReturnType<typeof db.payrollRun.findFirstOrThrow>>;
type SlipRow = Awaited<ReturnType<typeof db.payrollSlip.findFirstOrThrow>>;

export type RunStatus = "draft" | "calculating" | "processing" | "processed" | "failed";

export const periodOf = (r: { period_year: number; period_month: number }) => `${r.period_year}-${String(r.period_month).padStart(2, "0")}`;

export function parsePeriod(s: string): { year: number; month: number } {
  const [y, m] = s.split("-").map(Number);
  return { year: y, month: m };
}

export const runJson = (r: RunRow) => ({
  id: r.id,
  period: periodOf(r),
  period_start: toDateString(r.period_start),
  period_end: toDateString(r.period_end),
  status: r.status as RunStatus,
  progress: { processed: r.progress_processed, total: r.progress_total },
  failure_reason: r.failure_reason,
  queued_at: r.queued_at?.toISOString() ?? null,
  notes: r.notes,
  employee_ids: r.employee_ids,
  employee_count: r.employee_count,
  total_gross: moneyString(r.total_gross),
  total_deductions: moneyString(r.total_deductions),
  total_net: moneyString(r.total_net),
  totals: (r.totals as unknown as (RunTotals & { employees_without_setup: number }) | null) ?? null,
  calculated_at: r.calculated_at?.toISOString() ?? null,
  processed_at: r.processed_at?.toISOString() ?? null,
  processed_by: r.processed_by,
  created_by: r.created_by,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
});

export const slipSummaryJson = (s: SlipRow, run: Pick<RunRow, "period_year" | "period_month" | "status">) => ({
  id: s.id,
  run_id: s.run_id,
  period: periodOf(run),
  run_status: run.status as RunStatus,
  slip_number: s.slip_number,
  employee_id: s.employee_id,
  employee_code: s.employee_code,
  employee_name: s.employee_name,
  department: s.department,
  designation: s.designation,
  pay_start: toDateString(s.pay_start),
  pay_end: toDateString(s.pay_end),
  days_in_period: s.days_in_period,
  payable_days: s.payable_days.toFixed(1),
  lop_days: s.lop_days.toFixed(1),
  gross: moneyString(s.gross),
  total_deductions: moneyString(s.total_deductions),
  net_pay: moneyString(s.net_pay),
  pf_employee: moneyString(s.pf_employee),
  esi_employee: moneyString(s.esi_employee),
  professional_tax: moneyString(s.professional_tax),
  loan_deduction: moneyString(s.loan_deduction),
  reimbursements: moneyString(s.reimbursements),
  leave_encashment: moneyString(s.leave_encashment),
  employer_cost: moneyString(s.employer_cost),
});

export function slipJson(s: SlipRow, run: Pick<RunRow, "period_year" | "period_month" | "status">) {
  const d = s.details as unknown as SlipDetails;
  return {
    ...slipSummaryJson(s, run),
    earnings: d.earnings,
    deductions: d.deductions,
    full_month_gross: d.full_month_gross,
    lop: d.lop,
    pf: d.pf,
    esi: d.esi,
    professional_tax_detail: d.professional_tax,
    loans: d.loans,
    reimbursement_lines: d.reimbursements,
    encashments: d.encashments,
    employer_contributions: d.employer_contributions,
  };
}

/** A one-page payslip. */
export function payslipPdf(company: { name: string; currency: string }, slip: ReturnType<typeof slipJson>): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: "A4", margin: 48, info: { Title: `Payslip ${slip.slip_number ?? ""} ${slip.period}`, Author: company.name } });
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
    const extra: [string, string][] = [...slip.reimbursement_lines.map((c): [string, string] => [`Reimbursement ${c.claim_number} (${c.category})`, c.amount]), ...slip.encashments.map((x): [string, string] => [`Leave encashment: ${x.days} days ${x.leave_type}`, x.amount])];
    if (extra.length) table("Other payments", extra);
    doc.font("Helvetica-Bold").fontSize(12).text(`Net pay: ${slip.net_pay} ${company.currency}`, { align: "right" });
    doc.end();
  });
}

export { moneyString };
