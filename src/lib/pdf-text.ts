// Text for PDFs laid out with pdfkit's standard fonts (Helvetica), which encode WinAnsi only.

/** Latin-1 and a few typographic characters kept; the rupee sign written as "INR "; anything else becomes "?". */
export function printable(s: string): string {
  return s
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201C\u201D]/g, '"')
    .replace(/\u2026/g, "...")
    .replace(/\u20B9/g, "INR ")
    .replace(/[^\n\t\x20-\x7E\u00A0-\u00FF\u2013\u2014\u2022\u20AC]/g, "?");
}

let pdfkit: Promise<typeof import("pdfkit")> | undefined;
/**
 * pdfkit's document class, imported by the first PDF made rather than at start: with its fonts and
 * codecs it holds ~7 MB of heap that a process serving no PDF never needs (docs/operations.md, "Memory").
 */
export async function pdfDocumentClass(): Promise<typeof import("pdfkit")> {
  pdfkit ??= import("pdfkit").then((m) => (m as unknown as { default: typeof import("pdfkit") }).default ?? m);
  return pdfkit;
}
