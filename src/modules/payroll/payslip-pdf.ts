// The payslip PDF of a slip, laid out as a payroll officer hands it out: the company's name and
// address, the employee's particulars (PAN, UAN, ESI number, bank account masked to its last four
// characters), earnings and deductions side by side with their totals, other payments, net pay in
// figures and in words, loss of pay in days and amount, and the employer's contributions (which
// are not deducted from pay), and - when the labour codes' wage applies to the slip - its wages,
// exclusions and add-back (codeWageRows). Amounts in the currency's grouping (1,23,456.00 for INR). Laid out
// row by row with turns of the event loop in between (a slip may carry many loans and claims).
import PDFDocument from "pdfkit";
import { amountInWords } from "../../lib/amount-words.ts";
import { Decimal, formatMoney, money } from "../../lib/money.ts";
import { printable } from "../../lib/pdf-text.ts";
import { yielder } from "../../lib/yielding.ts";
import { mask } from "../../platform/audit.ts";
import type { slipJson } from "./json.ts";

type Slip = ReturnType<typeof slipJson>;

export interface PayslipCompany {
  name: string;
  address: string | null;
  currency: string;
}

/** What the payslip prints from the employee record (read when the PDF is made; null when the record is gone). */
export interface PayslipEmployee {
  joining_date: string | null;
  pan_number: string | null;
  uan: string | null;
  esi_number: string | null;
  bank_name: string | null;
  bank_account_number: string | null;
  bank_iban: string | null;
  bank_ifsc: string | null;
}

type Row = [string, string];

/**
 * The pay lost to unpaid days: the earnings' full-month amounts less what was paid, in the share
 * of loss-of-pay days among all unpaid days of the month (the rest is days before joining or after
 * leaving). Components that do not depend on payment days lose nothing.
 */
export function lopAmount(slip: Pick<Slip, "earnings" | "days_in_period" | "payable_days" | "lop_days">): Decimal {
  const lop = money(slip.lop_days);
  const unpaid = new Decimal(slip.days_in_period).minus(slip.payable_days);
  if (lop.lte(0) || unpaid.lte(0)) return new Decimal(0);
  const reduction = slip.earnings.reduce((s, l) => s.plus(money(l.full_amount).minus(l.amount)), new Decimal(0));
  return reduction.times(lop).div(unpaid).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}

/** The deduction lines of a slip: components, then the statutory ones, then loan installments. */
export function deductionRows(slip: Slip): Row[] {
  const rows: Row[] = slip.deductions.map((l) => [l.name, l.amount]);
  if (slip.pf.applicable) rows.push(["Provident fund (employee)", slip.pf_employee]);
  if (slip.esi.covered) rows.push(["ESI (employee)", slip.esi_employee]);
  if (slip.professional_tax !== "0.00") rows.push(["Professional tax", slip.professional_tax]);
  // income tax at source: shown wherever the company withholds it, nil months too (the year to date is on the slip's JSON)
  if (slip.income_tax !== undefined)
    rows.push([`Income tax (TDS, year to date ${slip.income_tax_detail?.tds_to_date ?? slip.income_tax})`, slip.income_tax]);
  for (const l of slip.loans) rows.push([`Loan ${l.loan_number}`, l.amount]);
  return rows;
}

/** The employer's contributions (not deducted from pay), only those that apply. */
export function employerRows(slip: Slip): Row[] {
  const rows: Row[] = [];
  if (slip.pf.applicable) {
    rows.push(["Provident fund (EPF, employer)", slip.pf.employer_epf]);
    if (slip.pf.eps_applicable) rows.push(["Pension scheme (EPS, employer)", slip.pf.employer_eps]);
    if (slip.pf.edli !== "0.00") rows.push(["EDLI insurance", slip.pf.edli]);
    if (slip.pf.admin_charges !== "0.00") rows.push(["PF admin charges", slip.pf.admin_charges]);
  }
  if (slip.esi.covered) rows.push(["ESI (employer)", slip.esi.employer]);
  return rows;
}

/**
 * The slip's wages under the labour codes (Code on Wages s.2(y)), as paid in the month: wages,
 * exclusions, the limit and the add-back - only when the code's wage applies to the slip (a slip
 * under the pre-code rule, or calculated before slips showed it, prints none); with the line that
 * says what the wage is used for.
 */
export function codeWageRows(slip: Slip, fmt: (v: string) => string = (v) => v): { rows: Row[]; total: Row; note: string } | null {
  const cw = slip.code_wages;
  if (!cw || (cw.rule !== "code" && cw.pf_rule !== "code")) return null;
  const m = cw.month;
  const rows: Row[] = [
    ["Wages (basic pay, dearness allowance, retaining allowance)", m.wages],
    ["Exclusions (allowances and other payments of s.2(y)(a)-(i))", m.exclusions],
  ];
  if (m.gratuity_retrenchment !== "0.00")
    rows.push(["Gratuity and retrenchment compensation (in the total, not tested)", m.gratuity_retrenchment]);
  rows.push(
    ["Total remuneration", m.total_remuneration],
    [`Limit: ${cw.exclusion_limit_percent} % of the total remuneration`, m.exclusion_limit],
    ["Exclusions above the limit, added back to wages", m.add_back],
  );
  const uses = [
    cw.pf_rule === "code" ? "provident fund" : null,
    cw.rule === "code" ? `leave encashment (at the full month's wage, ${fmt(cw.day_wage)})` : null,
    cw.rule === "code" && slip.gratuity_provision !== undefined ? "gratuity provision" : null,
  ].filter(Boolean);
  const pf =
    cw.pf_rule === "code" ? "" : ` Provident fund is on the EPF Act's basic wages (${fmt(slip.pf.wages)}) until ${cw.pf_code_wages_from}.`;
  return { rows, total: ["Wage under the labour codes", m.wage], note: `Used for: ${uses.join(", ")}.${pf}` };
}

const MARGIN = 40;
const PAGE_WIDTH = 595.28; // A4
const WIDTH = PAGE_WIDTH - 2 * MARGIN;
const GAP = 12;
const HALF = (WIDTH - GAP) / 2;
const RIGHT = MARGIN + HALF + GAP;
const AMOUNT_WIDTH = 80;
const PAD = 4;
const SIZE = 9;

const monthName = (period: string) => {
  const [y, m] = period.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, 1)).toLocaleString("en-GB", { month: "long", year: "numeric", timeZone: "UTC" });
};

/** A one-page payslip (more pages only when its lines do not fit on one). */
// size: page layout drawn in reading order (header, employee, earnings, deductions, totals, footer); split it by section when it changes
export function payslipPdf(company: PayslipCompany, slip: Slip, employee: PayslipEmployee | null): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const cur = company.currency;
    const fmt = (v: string | Decimal) => formatMoney(v, cur);
    const doc = new PDFDocument({
      size: "A4",
      margin: MARGIN,
      info: {
        Title: printable(`Payslip ${slip.slip_number ?? ""} ${slip.period}`),
        Subject: printable(`${slip.employee_name} (${slip.employee_code})`),
        Author: printable(company.name),
        Creator: "HRMS",
      },
    });
    const chunks: Buffer[] = [];
    doc.on("data", (c: Buffer) => chunks.push(c));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
    const bottom = () => doc.page.height - MARGIN;
    /** Starts a new page, headed by a line naming the slip, when `h` more points would not fit; whether it did. */
    const room = (h: number): boolean => {
      if (doc.y + h <= bottom()) return false;
      doc.addPage();
      doc.font("Helvetica").fontSize(8).fillColor("#777777");
      doc.text(
        printable(`${company.name} - Payslip for ${monthName(slip.period)} - ${slip.employee_name} (${slip.employee_code}) - continued`),
        {
          width: WIDTH,
        },
      );
      doc.y += 6;
      return true;
    };
    const rule = (y: number, color = "#999999") =>
      doc
        .moveTo(MARGIN, y)
        .lineTo(MARGIN + WIDTH, y)
        .lineWidth(0.5)
        .strokeColor(color)
        .stroke();
    const textAt = (s: string, x: number, y: number, width: number, align: "left" | "right" = "left") =>
      doc.text(printable(s), x, y, { width, align });
    const heightOf = (s: string, width: number) => doc.heightOfString(printable(s), { width });

    // ── header ──
    doc
      .font("Helvetica-Bold")
      .fontSize(15)
      .fillColor("#000000")
      .text(printable(company.name), MARGIN, MARGIN, { width: WIDTH, align: "center" });
    if (company.address)
      doc.font("Helvetica").fontSize(SIZE).fillColor("#333333").text(printable(company.address), { width: WIDTH, align: "center" });
    doc.moveDown(0.5).font("Helvetica-Bold").fontSize(12).fillColor("#000000");
    doc.text(`Payslip for ${monthName(slip.period)}`, MARGIN, doc.y, { width: WIDTH, align: "center" });
    doc.moveDown(0.4);
    rule(doc.y);
    doc.y += 8;

    const tick = yielder();
    (async () => {
      // ── the employee's particulars: two pairs of label and value per row ──
      const account = employee?.bank_account_number
        ? (mask("bank_account_number", employee.bank_account_number) as string)
        : employee?.bank_iban
          ? (mask("bank_iban", employee.bank_iban) as string)
          : "-";
      const lop = lopAmount(slip);
      const particulars: [Row, Row][] = [
        [
          ["Employee name", slip.employee_name],
          ["Employee code", slip.employee_code],
        ],
        [
          ["Designation", slip.designation],
          ["Department", slip.department],
        ],
        [
          ["Date of joining", employee?.joining_date ?? "-"],
          ["Slip number", slip.slip_number ?? "-"],
        ],
        [
          ["PAN", employee?.pan_number ?? "-"],
          ["UAN", employee?.uan ?? "-"],
        ],
        [
          ["ESI number", employee?.esi_number ?? "-"],
          ["Bank", [employee?.bank_name, employee?.bank_ifsc].filter(Boolean).join(", ") || "-"],
        ],
        [
          ["Bank account", account],
          ["Pay period", `${slip.pay_start} to ${slip.pay_end}`],
        ],
        [
          ["Days in month", String(slip.days_in_period)],
          ["Paid days", slip.payable_days],
        ],
        [
          ["Loss of pay (days)", slip.lop_days],
          ["Loss of pay (amount)", `${cur} ${fmt(lop)}`],
        ],
      ];
      const LABEL = 100;
      doc.fontSize(SIZE);
      for (const pair of particulars) {
        const h = Math.max(...pair.map(([, v]) => heightOf(v, HALF - LABEL)), 10) + 3;
        room(h);
        const y = doc.y;
        for (const [i, [k, v]] of pair.entries()) {
          const x = i === 0 ? MARGIN : RIGHT;
          doc.font("Helvetica").fillColor("#555555");
          textAt(k, x, y, LABEL);
          doc.font("Helvetica-Bold").fillColor("#000000");
          textAt(v, x + LABEL, y, HALF - LABEL);
        }
        doc.y = y + h;
        await tick();
      }
      doc.y += 6;

      // ── earnings and deductions side by side ──
      const heading = `Amount (${cur})`;
      /** A table row of two halves, each a label and an amount; `band` fills it grey (headings, totals). */
      const pairRow = async (left: Row | null, right: Row | null, opts: { bold?: boolean; band?: boolean } = {}) => {
        doc
          .font(opts.bold ? "Helvetica-Bold" : "Helvetica")
          .fontSize(SIZE)
          .fillColor("#000000");
        const labelWidth = HALF - AMOUNT_WIDTH - 2 * PAD;
        const h = Math.max(left ? heightOf(left[0], labelWidth) : 0, right ? heightOf(right[0], labelWidth) : 0, 10) + 2 * PAD;
        // a table that goes on on the next page repeats its heading there
        if (room(h) && !opts.band) await pairRow(["Earnings", heading], ["Deductions", heading], { bold: true, band: true });
        doc
          .font(opts.bold ? "Helvetica-Bold" : "Helvetica")
          .fontSize(SIZE)
          .fillColor("#000000");
        const y = doc.y;
        if (opts.band) {
          doc.rect(MARGIN, y, HALF, h).fill("#EEEEEE");
          doc.rect(RIGHT, y, HALF, h).fill("#EEEEEE");
          doc.fillColor("#000000");
        }
        for (const [x, cell] of [
          [MARGIN, left],
          [RIGHT, right],
        ] as const) {
          if (!cell) continue;
          textAt(cell[0], x + PAD, y + PAD, labelWidth);
          textAt(cell[1], x + HALF - AMOUNT_WIDTH - PAD, y + PAD, AMOUNT_WIDTH, "right");
        }
        doc
          .moveTo(MARGIN, y + h)
          .lineTo(MARGIN + HALF, y + h)
          .moveTo(RIGHT, y + h)
          .lineTo(RIGHT + HALF, y + h);
        doc.lineWidth(0.5).strokeColor("#CCCCCC").stroke();
        doc.y = y + h;
        await tick();
      };
      await pairRow(["Earnings", heading], ["Deductions", heading], { bold: true, band: true });
      const earned: Row[] = slip.earnings.map((l) => [l.name, fmt(l.amount)]);
      const deducted: Row[] = deductionRows(slip).map(([k, v]) => [k, fmt(v)]);
      for (let i = 0; i < Math.max(earned.length, deducted.length, 1); i++) await pairRow(earned[i] ?? null, deducted[i] ?? null);
      await pairRow(["Gross earnings", fmt(slip.gross)], ["Total deductions", fmt(slip.total_deductions)], { bold: true, band: true });

      /** A full-width table: a heading band, rows of label and amount, an optional total band. */
      const table = async (title: string, rows: Row[], total?: Row) => {
        doc.y += 10;
        const one = async (k: string, v: string, band: boolean) => {
          doc.font(band ? "Helvetica-Bold" : "Helvetica").fontSize(SIZE);
          const h = Math.max(heightOf(k, WIDTH - AMOUNT_WIDTH - 3 * PAD), 10) + 2 * PAD;
          if (room(h) && !band) await one(title, heading, true);
          doc.font(band ? "Helvetica-Bold" : "Helvetica").fontSize(SIZE);
          const y = doc.y;
          if (band) doc.rect(MARGIN, y, WIDTH, h).fill("#EEEEEE");
          doc.fillColor("#000000");
          textAt(k, MARGIN + PAD, y + PAD, WIDTH - AMOUNT_WIDTH - 3 * PAD);
          textAt(v, MARGIN + WIDTH - AMOUNT_WIDTH - PAD, y + PAD, AMOUNT_WIDTH, "right");
          rule(y + h, "#CCCCCC");
          doc.y = y + h;
          await tick();
        };
        await one(title, heading, true);
        for (const [k, v] of rows) await one(k, v, false);
        if (total) await one(total[0], total[1], true);
      };
      const other: Row[] = [
        ...slip.reimbursement_lines.map((c): Row => [`Reimbursement ${c.claim_number} (${c.category})`, fmt(c.amount)]),
        ...slip.encashments.map((x): Row => [`Leave encashment: ${x.days} days ${x.leave_type}`, fmt(x.amount)]),
      ];
      // the day rate the encashments are priced at (the company's basis and divisor)
      const rate = slip.encashment_rate;
      if (slip.encashments.length && rate)
        other.push([
          `Encashment day rate: ${rate.basis === "gross" ? "full-month gross" : "monthly wage"} ${fmt(rate.monthly)} / ` +
            `${rate.divisor_days} = ${fmt(rate.daily)} a day`,
          "",
        ]);
      // a salary revised within the month: what each setup paid for the days it was in force
      if (slip.salary_periods?.length)
        await table(
          "Salary revised within the month (each rate for the days it was in force)",
          slip.salary_periods.map(
            (p): Row => [
              `${p.from} to ${p.to}: ${p.payable_days} of ${p.days} days at a monthly gross of ${fmt(p.full_month_gross)}`,
              fmt(p.gross),
            ],
          ),
          ["Gross", fmt(slip.gross)],
        );
      if (other.length) {
        const sum = money(slip.reimbursements).plus(slip.leave_encashment);
        await table("Other payments (not part of gross)", other, ["Total other payments", fmt(sum)]);
      }

      // ── net pay ──
      doc.y += 10;
      const words = `In words: ${amountInWords(slip.net_pay, cur)}`;
      doc.font("Helvetica").fontSize(SIZE);
      const box = 28 + heightOf(words, WIDTH - 16) + 10; // the largest amounts' words take two lines
      room(box + 4);
      const y = doc.y;
      doc.rect(MARGIN, y, WIDTH, box).lineWidth(1).strokeColor("#000000").stroke();
      doc.font("Helvetica-Bold").fontSize(12).fillColor("#000000");
      textAt("Net pay", MARGIN + 8, y + 8, 200);
      textAt(`${cur} ${fmt(slip.net_pay)}`, MARGIN + WIDTH - 208, y + 8, 200, "right");
      doc.font("Helvetica").fontSize(SIZE);
      textAt(words, MARGIN + 8, y + 28, WIDTH - 16);
      doc.y = y + box;
      const formula = other.length
        ? "Net pay = gross earnings - total deductions + other payments."
        : "Net pay = gross earnings - total deductions.";
      doc.moveDown(0.3).fillColor("#555555");
      textAt(formula, MARGIN, doc.y, WIDTH);
      await tick();

      // ── employer contributions ──
      const employer = employerRows(slip).map(([k, v]): Row => [k, fmt(v)]);
      if (employer.length)
        await table("Employer contributions (not deducted from pay)", employer, [
          "Total employer contributions",
          fmt(slip.employer_contributions),
        ]);

      // ── wages under the labour codes ──
      const wages = codeWageRows(slip, fmt);
      if (wages) {
        await table(
          "Wages under the labour codes (Code on Wages 2019 s.2(y))",
          wages.rows.map(([k, v]): Row => [k, fmt(v)]),
          [wages.total[0], fmt(wages.total[1])],
        );
        doc.font("Helvetica").fontSize(8).fillColor("#555555");
        room(heightOf(wages.note, WIDTH) + 4);
        doc.y += 3;
        textAt(wages.note, MARGIN, doc.y, WIDTH);
      }

      doc.y += 16;
      room(12);
      doc.font("Helvetica").fontSize(8).fillColor("#777777");
      textAt("This is a computer-generated payslip and does not require a signature.", MARGIN, doc.y, WIDTH);
      doc.end();
    })().catch(reject);
  });
}
