// Letters as PDF (pdfkit, A4, the standard Helvetica fonts): company header, date, title, and the
// body's paragraphs. The document's metadata (Title, Subject, Author) names the letter, the
// candidate and the company, so a PDF can be recognised without rendering it.
import type { Response } from "express";
import PDFDocument from "pdfkit";
import { printable } from "../../lib/pdf-text.ts";
import { yielder } from "../../lib/yielding.ts";

export interface Letter {
  company: string;
  /** The company's postal address, printed under its name (lines as given). */
  address?: string | null;
  title: string;
  /** Subject metadata, e.g. the candidate's name. */
  subject: string;
  /** YYYY-MM-DD; printed as "1 March 2027" (anything else as given). */
  date: string;
  /** The letter's reference (an offer number), printed beside the date. */
  reference?: string;
  /** The addressee's lines (name, e-mail), printed above the title. */
  recipient?: string[];
  /** Paragraphs separated by blank lines; a line starting with "- " is a bullet. */
  body: string;
  /** A signature block for the company ("For <company>", room to sign, "Authorised signatory"). */
  signatory?: string;
  /** A block for the candidate to sign the acceptance (offer letters), naming them. */
  acceptance?: string;
  /** Printed at the bottom of every page with "Page n of m". */
  footer?: string;
}

/** "2027-03-01" → "1 March 2027"; anything that is not such a date is returned as it was. */
export function longDate(s: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return s;
  const d = new Date(`${s}T00:00:00Z`);
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== s) return s;
  return d.toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
}

/** Page margin (points). */
const MARGIN = 64;

/** Longest piece of a line laid out in one pdfkit call (a few ms of work). */
const PIECE = 500;

/** A line cut at spaces into pieces of at most about PIECE characters (pdfkit flows them on with `continued`). */
function pieces(line: string): string[] {
  if (line.length <= PIECE) return [line];
  const out: string[] = [];
  let start = 0;
  while (line.length - start > PIECE) {
    const space = line.lastIndexOf(" ", start + PIECE);
    const end = space > start ? space + 1 : start + PIECE;
    out.push(line.slice(start, end));
    start = end;
  }
  out.push(line.slice(start));
  return out;
}

/**
 * Lays the letter out with turns of the event loop every few ms: the longest template filled with the
 * longest values is some 100 pages, seconds of pdfkit that would otherwise hold every other request.
 */
// size: the letter laid out piece by piece with turns of the event loop (see its doc comment)
export function renderLetterPdf(letter: Letter): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: "A4",
      margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
      bufferPages: true,
      info: { Title: printable(letter.title), Subject: printable(letter.subject), Author: printable(letter.company), Creator: "HRMS" },
    });
    const chunks: Buffer[] = [];
    doc.on("data", (c: Buffer) => chunks.push(c));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
    const width = doc.page.width - 2 * MARGIN;

    // letterhead: the company's name and address, a rule, then reference and date on one line
    doc.font("Helvetica-Bold").fontSize(16).text(printable(letter.company), MARGIN, MARGIN, { width });
    if (letter.address) doc.moveDown(0.1).font("Helvetica").fontSize(9).fillColor("#444444").text(printable(letter.address), { width });
    doc
      .moveTo(MARGIN, doc.y + 6)
      .lineTo(doc.page.width - MARGIN, doc.y + 6)
      .lineWidth(0.75)
      .strokeColor("#999999")
      .stroke();
    doc.y += 16;
    const top = doc.y;
    doc.font("Helvetica").fontSize(10).fillColor("#000000");
    if (letter.reference) doc.text(printable(`Ref: ${letter.reference}`), MARGIN, top, { width: width / 2 });
    doc.text(printable(`Date: ${longDate(letter.date)}`), MARGIN + width / 2, top, { width: width / 2, align: "right" });
    doc.x = MARGIN;
    if (letter.recipient?.length) {
      doc.moveDown(1.2).text("To", MARGIN, doc.y, { width });
      for (const [i, l] of letter.recipient.entries()) doc.font(i === 0 ? "Helvetica-Bold" : "Helvetica").text(printable(l), { width });
    }
    doc.moveDown(1.2).font("Helvetica-Bold").fontSize(14).text(printable(letter.title), MARGIN, doc.y, { width });
    doc.moveDown(0.8).font("Helvetica").fontSize(11);
    const paragraphs = letter.body.replace(/\r\n/g, "\n").split(/\n\s*\n/);
    const tick = yielder();
    (async () => {
      for (const p of paragraphs) {
        for (const line of p.split("\n")) {
          const bullet = /^\s*[-*] /.test(line);
          const parts = pieces(printable(bullet ? line.replace(/^\s*[-*] /, "") : line));
          // a bullet hangs: the mark at 10 points in, every line of its text at 22
          const x = bullet ? MARGIN + 22 : MARGIN;
          if (bullet) {
            if (doc.y + doc.currentLineHeight(true) > doc.page.height - MARGIN) doc.addPage();
            doc.text("\u2022", MARGIN + 10, doc.y, { lineBreak: false });
          }
          const y = doc.y;
          for (const [i, part] of parts.entries()) {
            const options = { width: width - (x - MARGIN), lineGap: 2, align: "left" as const, continued: i < parts.length - 1 };
            if (i === 0) doc.text(part, x, y, options);
            else doc.text(part, options);
            await tick();
          }
          doc.x = MARGIN;
        }
        doc.moveDown(0.8);
      }
      const bottom = () => doc.page.height - MARGIN;
      if (letter.signatory) {
        if (doc.y + 70 > bottom()) doc.addPage();
        doc
          .moveDown(0.5)
          .font("Helvetica-Bold")
          .fontSize(11)
          .text(printable(`For ${letter.signatory}`), MARGIN, doc.y, { width });
        doc.moveDown(2.5);
        doc
          .moveTo(MARGIN, doc.y)
          .lineTo(MARGIN + 180, doc.y)
          .lineWidth(0.5)
          .strokeColor("#000000")
          .stroke();
        doc.moveDown(0.3).font("Helvetica").fontSize(10).text("Authorised signatory", MARGIN, doc.y, { width });
      }
      if (letter.acceptance) {
        if (doc.y + 110 > bottom()) doc.addPage();
        doc.moveDown(2).font("Helvetica-Bold").fontSize(11).text("Acceptance", MARGIN, doc.y, { width });
        doc.moveDown(0.4).font("Helvetica").fontSize(10);
        doc.text(printable(`I, ${letter.acceptance}, accept this offer on the terms set out above.`), MARGIN, doc.y, { width });
        doc.moveDown(2.2);
        const y = doc.y;
        doc
          .moveTo(MARGIN, y)
          .lineTo(MARGIN + 180, y)
          .moveTo(MARGIN + width - 140, y)
          .lineTo(MARGIN + width, y);
        doc.lineWidth(0.5).strokeColor("#000000").stroke();
        doc.text("Signature", MARGIN, y + 4, { width: 180 });
        doc.text("Date", MARGIN + width - 140, y + 4, { width: 140 });
      }
      await tick();
      // footer on every page: the letter's line and "Page n of m", below the bottom margin
      const range = doc.bufferedPageRange();
      for (let i = range.start; i < range.start + range.count; i++) {
        doc.switchToPage(i);
        const margin = doc.page.margins.bottom;
        doc.page.margins.bottom = 0;
        const y = doc.page.height - margin + 16;
        doc.font("Helvetica").fontSize(8).fillColor("#777777");
        if (letter.footer) doc.text(printable(letter.footer), MARGIN, y, { width: width - 80, lineBreak: false });
        doc.text(`Page ${i - range.start + 1} of ${range.count}`, MARGIN + width - 80, y, { width: 80, align: "right", lineBreak: false });
        doc.page.margins.bottom = margin;
        await tick();
      }
      doc.end();
    })().catch(reject);
  });
}

/** Sends a PDF (the handler then returns `{ sent: true }`). */
export function sendPdf(res: Response, pdf: Buffer, filename: string, disposition: "inline" | "attachment" = "inline"): void {
  res.status(200);
  res.setHeader("Content-Type", "application/pdf");
  res.setHeader("Content-Length", String(pdf.length));
  res.setHeader("Content-Disposition", `${disposition}; filename="${filename.replace(/[^A-Za-z0-9._-]/g, "_")}"`);
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.end(pdf);
}
