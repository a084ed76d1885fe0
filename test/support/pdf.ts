// PDFs as a reader sees them: page 1 rendered to PNG (pdfjs-dist draws it on an @napi-rs/canvas,
// both devDependencies used only here) and the text of each page with its position. Positions are
// in PDF points from the page's top-left corner (A4 is 595 × 842).
import { writeFileSync } from "node:fs";
import path from "node:path";
import { createCanvas } from "@napi-rs/canvas";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";

export interface PdfText {
  str: string;
  page: number;
  x: number;
  /** Top of the text's line from the top of the page. */
  y: number;
  width: number;
}

export interface RenderedPdf {
  pages: number;
  /** The pieces of text in reading order (pdfkit writes one piece per text call). */
  items: PdfText[];
  /** All the text, pieces joined by spaces (without one after a line that ends in a hyphen: a word broken there). */
  text: string;
  png: { width: number; height: number; inkPixels: number; bytes: number };
}

const fonts = `${path.resolve(import.meta.dirname, "../../node_modules/pdfjs-dist/standard_fonts")}/`;

/** Renders page 1 to `pngPath` (at 1.5×) and extracts the text of every page. */
export async function renderPdf(pdf: Buffer, pngPath: string): Promise<RenderedPdf> {
  const task = getDocument({
    data: new Uint8Array(pdf),
    standardFontDataUrl: fonts,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
  });
  const doc = await task.promise;
  const items: PdfText[] = [];
  for (let p = 1; p <= doc.numPages; p++) {
    const page = await doc.getPage(p);
    const height = page.getViewport({ scale: 1 }).height;
    const content = await page.getTextContent();
    for (const it of content.items) {
      if (!("str" in it) || !it.str.trim()) continue;
      // transform[5] is the baseline from the bottom; the line's top is a font height above it
      items.push({ str: it.str, page: p, x: it.transform[4], y: height - it.transform[5] - it.height, width: it.width });
    }
  }
  const page = await doc.getPage(1);
  const viewport = page.getViewport({ scale: 1.5 });
  const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  // @napi-rs/canvas draws what pdf.js asks of a browser's canvas: its types are not the DOM's
  type Render = Parameters<typeof page.render>[0];
  await page.render({
    canvasContext: ctx as unknown as Render["canvasContext"],
    viewport,
    canvas: canvas as unknown as Render["canvas"],
  }).promise;
  const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
  let ink = 0;
  for (let i = 0; i < data.length; i += 4) if (data[i] < 128 && data[i + 1] < 128 && data[i + 2] < 128) ink++;
  const png = await canvas.encode("png");
  writeFileSync(pngPath, png);
  await task.destroy();
  return {
    pages: items.reduce((n, i) => Math.max(n, i.page), 0),
    items,
    text: items.map((i) => i.str).reduce((all, s) => (all === "" ? s : all.endsWith("-") ? all + s : `${all} ${s}`), ""),
    png: { width: canvas.width, height: canvas.height, inkPixels: ink, bytes: png.length },
  };
}

/** The first piece of text that equals `str` (or matches it), failing with the text there is when none does. */
export function find(r: RenderedPdf, str: string | RegExp): PdfText {
  const hit = r.items.find((i) => (typeof str === "string" ? i.str === str : str.test(i.str)));
  if (!hit) throw new Error(`not in the PDF: ${String(str)}\ntext: ${r.items.map((i) => JSON.stringify(i.str)).join(" ")}`);
  return hit;
}
