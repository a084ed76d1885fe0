// Letters as PDF (pdfkit, A4, the standard Helvetica fonts): company header, date, title, and the
// body's paragraphs. The document's metadata (Title, Subject, Author) names the letter, the
// candidate and the company, so a PDF can be recognised without rendering it.
import type { Response } from "express";
import PDFDocument from "pdfkit";
import { printable } from "../../lib/pdf-text.ts";
import { yielder } from "../../lib/yielding.ts";

export interface Letter {
  company: string;
  title: string;
  /** Subject metadata, e.g. the candidate's name. */
  subject: string;
  date: string;
  /** Paragraphs separated by blank lines; a line starting with "- " is a bullet. */
  body: string;
  footer?: string;
}

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
 * Lays the letter out piece by piece, giving the event loop a turn whenever a few ms of
 * layout went by: a letter of the longest template filled with the longest values is some
 * 300 000 characters (a hundred pages), which pdfkit lays out in seconds - in one go that would
 * hold every other request of every tenant for as long.
 */
export function renderLetterPdf(letter: Letter): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: "A4",
      margins: { top: 64, bottom: 64, left: 64, right: 64 },
      info: { Title: printable(letter.title), Subject: printable(letter.subject), Author: printable(letter.company), Creator: "HRMS" },
    });
    const chunks: Buffer[] = [];
    doc.on("data", (c: Buffer) => chunks.push(c));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);

    doc.font("Helvetica-Bold").fontSize(16).text(printable(letter.company));
    doc.moveDown(0.2).font("Helvetica").fontSize(9).fillColor("#555555").text(printable(letter.date), { align: "right" });
    doc
      .moveTo(64, doc.y + 6)
      .lineTo(doc.page.width - 64, doc.y + 6)
      .strokeColor("#999999")
      .stroke();
    doc.moveDown(1.5).fillColor("#000000").font("Helvetica-Bold").fontSize(14).text(printable(letter.title));
    doc.moveDown(0.8).font("Helvetica").fontSize(11);
    const paragraphs = letter.body.replace(/\r\n/g, "\n").split(/\n\s*\n/);
    const tick = yielder();
    (async () => {
      for (const p of paragraphs) {
        for (const line of p.split("\n")) {
          const bullet = /^\s*[-*] /.test(line);
          const text = bullet ? `\u2022 ${printable(line.replace(/^\s*[-*] /, ""))}` : printable(line);
          const options = bullet ? { indent: 12, lineGap: 2 } : { lineGap: 2, align: "left" as const };
          const parts = pieces(text);
          for (const [i, part] of parts.entries()) {
            doc.text(part, { ...options, continued: i < parts.length - 1 });
            await tick();
          }
        }
        doc.moveDown(0.8);
      }
      if (letter.footer) doc.moveDown(1).fontSize(8).fillColor("#777777").text(printable(letter.footer));
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
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.end(pdf);
}
