// The payslip PDF as a payroll officer hands it out (docs/payroll-slip.md); bank account masked to its
// last four characters, amounts in the currency's grouping. Laid out row by row with turns of the event
// loop in between: a slip may carry many loans and claims.
import PDFDocument from "pdfkit";
import { amountInWords } from "../../lib/amount-words.ts";
import { type Decimal, formatMoney, money } from "../../lib/money.ts";
import { printable } from "../../lib/pdf-text.ts";
import { yielder } from "../../lib/yielding.ts";
import {
  codeWageRows,
  deductionRows,
  employerRows,
  otherPaymentRows,
  particularRows,
  type PayslipCompany,
  type PayslipEmployee,
  type Row,
  type Slip,
} from "./payslip-lines.ts";

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
      const particulars = particularRows(slip, employee, cur, fmt);
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
      const other = otherPaymentRows(slip, fmt);
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
