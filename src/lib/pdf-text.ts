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
