// Bulk exports (docs/integrations-bulk.md): CSV or NDJSON streamed in keyset batches with backpressure, so
// memory stays flat; formula cells neutralised (OWASP CSV injection).
import type { Response } from "express";
import { KINDS, type KindName } from "./kinds.ts";

/** Rows read per statement (and written per chunk): ~5 MB of rows at most in memory; fewer round trips on a busy database. */
const BATCH = 5000;

export type ExportFormat = "csv" | "ndjson";

/** CSV or NDJSON: the `format` parameter, else the Accept header, else CSV. */
export function exportFormat(format: string | undefined, accept: string | undefined): ExportFormat {
  if (format === "csv" || format === "ndjson") return format;
  return accept?.includes("application/x-ndjson") ? "ndjson" : "csv";
}

/** Text a spreadsheet would run as a formula - `=`, `+`, `-`, `@`, a tab or a carriage return first - after any `'`s. */
export const GUARDED = /^'*[=+\-@\t\r]/;

/**
 * A cell as CSV text: lists and objects as JSON, null as an empty cell, and text that a spreadsheet
 * would evaluate prefixed with `'` so that it shows it instead (OWASP "CSV Injection"). Text that
 * already begins with `'`s before such a character gets one more, so the import's undoing of the
 * guard (rows.ts) gives back exactly what was stored: an export is an import file.
 */
export function csvCell(v: unknown): string {
  if (v === null || v === undefined) return "";
  const s = typeof v === "object" ? JSON.stringify(v) : String(v);
  return GUARDED.test(s) ? `'${s}` : s;
}

const NEEDS_QUOTES = /[",\r\n]/;
/** A field as RFC 4180 writes it: in double quotes (inner quotes doubled) when it holds a comma, quote or line break. */
const quoted = (s: string) => (NEEDS_QUOTES.test(s) ? `"${s.replaceAll('"', '""')}"` : s);

/** Rows as RFC 4180 CSV lines (CRLF): hand-written at a seventh of csv-stringify's CPU, most of a large export's time. */
function csvChunk(columns: readonly string[], rows: Record<string, unknown>[], header: boolean): string {
  let out = header ? `${columns.map(quoted).join(",")}\r\n` : "";
  for (const r of rows) {
    let line = "";
    for (let i = 0; i < columns.length; i++) line += (i ? "," : "") + quoted(csvCell(r[columns[i]]));
    out += `${line}\r\n`;
  }
  return out;
}

/** Waits until `res` has taken what was written (or the client went away). */
function drained(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

/**
 * Streams the export of `kind` to `res`. The first batch is read before anything is sent (a refusal is an
 * envelope); a later failure cuts the response without its final chunk: a short file, never a wrong one.
 */
export async function streamExport(
  res: Response,
  kindName: KindName,
  format: ExportFormat,
  filter: Record<string, string | undefined>,
): Promise<void> {
  const kind = KINDS[kindName];
  const slug = kindName.replace("_", "-");
  let batch = await kind.exportRows(filter, null, BATCH);
  res.status(200);
  res.setHeader("Content-Type", format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8");
  res.setHeader("Content-Disposition", `attachment; filename="${slug}.${format}"`);
  res.setHeader("Cache-Control", "no-store");
  let first = true;
  let closed = false;
  res.once("close", () => {
    closed = true;
  });
  try {
    for (;;) {
      const text = format === "csv" ? csvChunk(kind.exportColumns, batch, first) : batch.map((r) => `${JSON.stringify(r)}\n`).join("");
      first = false;
      if (text && !res.write(text)) await drained(res);
      if (closed || batch.length < BATCH) break;
      batch = await kind.exportRows(filter, batch[batch.length - 1].id as string, BATCH);
    }
    res.end();
  } catch (err) {
    res.destroy(err as Error);
  }
}

/** Every row of `kindName` matching `filter`, read in the export's batches (one person's rows: an access request's bundle). */
export async function exportAll(kindName: KindName, filter: Record<string, string | undefined>): Promise<Record<string, unknown>[]> {
  const kind = KINDS[kindName];
  const out: Record<string, unknown>[] = [];
  let batch = await kind.exportRows(filter, null, BATCH);
  while (batch.length) {
    out.push(...batch);
    if (batch.length < BATCH) break;
    batch = await kind.exportRows(filter, batch[batch.length - 1].id as string, BATCH);
  }
  return out;
}
