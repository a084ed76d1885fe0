// The full and final settlement statement as a PDF, in the payslip's plain style (payslip-pdf.ts):
// amounts and text as on the payslip, only what the standard fonts can draw (printable).
import PDFDocument from "pdfkit";
import { amountTable } from "./statement-table.ts";
import { amountInWords } from "../../lib/amount-words.ts";
import { formatMoney } from "../../lib/money.ts";
import { printable } from "../../lib/pdf-text.ts";
import type { settlementJson } from "./settlement-json.ts";

type Settlement = ReturnType<typeof settlementJson>;

// size: page layout drawn in reading order, section by section; split it by section when it changes
export function settlementPdf(company: { name: string; currency: string }, s: Settlement): Promise<Buffer> {
  const money = (v: string) => `${formatMoney(v, company.currency)} ${company.currency}`;
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: "A4",
      margin: 48,
      info: { Title: `Full and final settlement ${s.settlement_number}`, Author: printable(company.name) },
    });
    const chunks: Buffer[] = [];
    doc.on("data", (c: Buffer) => chunks.push(c));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
    doc.fontSize(16).text(printable(company.name), { align: "center" });
    doc.fontSize(12).text("Full and final settlement", { align: "center" });
    if (s.status === "draft") doc.fontSize(10).text("DRAFT - not processed", { align: "center" });
    doc.moveDown().fontSize(10);
    const g = s.gratuity_detail;
    const info: [string, string][] = [
      ["Settlement number", s.settlement_number],
      ["Employee", `${s.employee_name} (${s.employee_code})`],
      ["Joining date / resignation date / last working day", `${s.joining_date} / ${s.resignation_date} / ${s.last_working_day}`],
      ["Service", `${g.service.years} years ${g.service.months} months ${g.service.days} days`],
      ["Separation", s.separation],
      ["Monthly wage (gratuity, leave encashment, notice)", money(g.wage)],
      s.day_rate
        ? [
            `Day rate of leave encashment and notice (${s.day_rate.basis === "gross" ? "full-month gross" : "monthly wage"} / ` +
              `${s.day_rate.divisor_days})`,
            money(s.day_rate.daily),
          ]
        : ["Daily wage (monthly wage / 26)", money(s.daily_wage)],
    ];
    if (g.continuous_service) info.push(["Continuous service", g.continuous_service.explanation]);
    if (s.dues) {
      info.push(["Final wages due (Code on Wages 2019 s.17(2), two working days)", s.dues.final_wages_due]);
      if (s.dues.gratuity_due) info.push(["Gratuity due (30 days, Payment of Gratuity Act s.7(3))", s.dues.gratuity_due]);
      if (s.dues.paid_on) info.push(["Paid on", s.dues.paid_on]);
    }
    if (s.processed_at) info.push(["Processed at", s.processed_at]);
    for (const [k, v] of info) doc.text(printable(`${k}: ${v}`));
    doc.moveDown();
    const table = amountTable(doc, money);
    const salary: [string, string][] = s.salary.included
      ? [
          ...s.salary.earnings.map((l): [string, string] => [l.name, l.amount]),
          ["Gross", s.salary.gross],
          ...s.salary.deductions.map((l): [string, string] => [`Less ${l.name}`, l.amount]),
          ["Less provident fund (employee)", s.salary.pf_employee],
          ["Less ESI (employee)", s.salary.esi_employee],
          ["Less professional tax", s.salary.professional_tax],
          ["Net salary", s.salary.net],
        ]
      : [[s.salary.note ?? "Not included", "0.00"]];
    // the wage under the labour codes (settlements computed before it was shown have none)
    const cw = s.code_wages;
    if (cw?.rule === "code") {
      const f = cw.full_month;
      table("Wage under the labour codes (Code on Social Security 2020 s.2(88)), full month", [
        ["Wages (basic pay, dearness allowance, retaining allowance)", f.wages],
        ["Exclusions (allowances and other payments of s.2(88)(a)-(i))", f.exclusions],
        ...(f.gratuity_retrenchment === "0.00"
          ? []
          : [["Gratuity and retrenchment compensation (in the total, not tested)", f.gratuity_retrenchment] as [string, string]]),
        ["Total remuneration", f.total_remuneration],
        [`Limit: ${cw.exclusion_limit_percent} % of the total remuneration`, f.exclusion_limit],
        ["Exclusions above the limit, added back to wages", f.add_back],
        ["Wage", cw.wage],
      ]);
    } else if (cw) {
      doc.text(printable(`Wage (pre-code rule): ${cw.note ?? "basic + DA"}`), 48);
      doc.moveDown(0.5);
    }
    table(`Salary ${s.salary.pay_start} to ${s.salary.pay_end} (${s.salary.payable_days} of ${s.salary.days_in_period} days)`, salary);
    // a salary revised within the month: what each setup paid for its days
    if (s.salary.periods?.length)
      table(
        "Salary revised within the month",
        s.salary.periods.map((p): [string, string] => [
          `${p.from} to ${p.to}: ${p.payable_days} days at a monthly gross of ${formatMoney(p.full_month_gross, company.currency)}`,
          p.gross,
        ]),
      );
    table("Paid", [
      ["Net salary", s.salary_net],
      ...s.leave_encashment_lines.map((l): [string, string] => [`Leave encashment: ${l.days} days ${l.leave_type}`, l.amount]),
      [g.eligible ? `Gratuity (${g.counted_years} years${g.capped ? ", capped" : ""})` : `Gratuity: ${g.reason ?? "none"}`, s.gratuity],
      ...(s.dues?.gratuity_interest
        ? [
            [
              `Interest on late gratuity: ${s.dues.gratuity_interest.rate_percent} % a year, ` +
                `${s.dues.gratuity_interest.days} days from ${s.dues.gratuity_interest.from} (s.7(3A))`,
              s.gratuity_interest,
            ] as [string, string],
          ]
        : []),
      ...s.claims.map((c): [string, string] => [`Reimbursement ${c.claim_number} (${c.category})`, c.amount]),
      ["Total paid", s.total_payable],
    ]);
    table("Recovered", [
      [
        `Notice shortfall (${s.notice.shortfall_days} of ${s.notice.required_days} days${s.notice.recovered ? "" : ", waived"})`,
        s.notice_recovery,
      ],
      ...(s.notice.note ? [[s.notice.note, "0.00"] as [string, string]] : []),
      ...s.loans.map((l): [string, string] => [`Loan ${l.loan_number} (${l.installment_ids.length} installments)`, l.amount]),
      ["Total recovered", s.total_recovery],
    ]);
    for (const warning of s.warnings)
      doc
        .font("Helvetica-Bold")
        .text(printable(`Overdue: ${warning}`), 48)
        .font("Helvetica");
    doc
      .font("Helvetica-Bold")
      .fontSize(12)
      .text(`Net payable: ${money(s.net_payable)}`, 48, doc.y, { align: "right" });
    // a negative net is what the employee owes
    doc
      .font("Helvetica")
      .fontSize(10)
      .text(printable(`In words: ${amountInWords(s.net_payable, company.currency)}`), 48, doc.y, { align: "right" });
    doc.end();
  });
}
