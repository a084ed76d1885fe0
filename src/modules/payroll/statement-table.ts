// The labelled amount rows of the settlement statement and the Form 16 PDF: a bold title, then each
// label on the left and its amount right-aligned beside it (one layout for both documents).
import { printable } from "../../lib/pdf-text.ts";

export function amountTable(doc: PDFKit.PDFDocument, money: (v: string) => string) {
  return (title: string, rows: [string, string][]) => {
    doc.font("Helvetica-Bold").text(printable(title), 48).font("Helvetica");
    for (const [k, v] of rows) {
      const top = doc.y;
      doc.text(printable(k), 48, top, { width: 330 });
      doc.text(money(v), 380, top, { width: 160, align: "right" });
    }
    doc.moveDown(0.5);
  };
}
