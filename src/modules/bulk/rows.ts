// The rows of an import from CSV or JSON: a file that is not a table of the kind's columns is a 400; each
// row is checked against the kind's create schema, compiled as the request validator compiles it, and told
// in its words (src/platform/validation-messages.ts).
import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { Readable } from "node:stream";
import { parse as parseStream } from "csv-parse";
import { parse } from "csv-parse/sync";
import { config } from "../../config.ts";
import { detailsInWords, impossibleDate } from "../../platform/validation-messages.ts";
import { AppError, badRequest } from "../../platform/errors.ts";
import type { Kind } from "./kinds.ts";

/** The most rows one import takes. */
export const MAX_ROWS = 100_000;

export type Row = Record<string, unknown>;

/** A problem of one row: `row` counts data rows from 1; `column` null for the row as a whole. */
export interface Problem {
  row: number;
  column: string | null;
  path: string;
  message: string;
}

export const problemAt = (row: number, column: string | null, message: string): Problem => ({
  row,
  column,
  path: column ? `rows[${row}].${column}` : `rows[${row}]`,
  message,
});

// ───────────────────────────── schemas ─────────────────────────────

type Schema = Record<string, unknown>;
let documentCache: Schema | undefined;
function apiDocument(): Schema {
  documentCache ??= JSON.parse(readFileSync(path.join(config().root, "generated", "openapi.json"), "utf8")) as Schema;
  return documentCache;
}

const ajvs = new Map<boolean, Ajv2020>();
function ajvOf(coerce: boolean): Ajv2020 {
  let ajv = ajvs.get(coerce);
  if (!ajv) {
    ajv = new Ajv2020({ strict: false, allErrors: true, coerceTypes: coerce, validateSchema: false, validateFormats: true });
    (addFormats as unknown as (a: Ajv2020, o: { mode: string }) => void)(ajv, { mode: "full" });
    ajv.addSchema({ $id: "doc", components: (apiDocument() as { components: unknown }).components }, "doc");
    ajvs.set(coerce, ajv);
  }
  return ajv;
}

/** The row schema of a kind, with `$ref`s into the bundle (`#/components/...` → `doc#/components/...`). */
export function rowSchema(kind: Kind): Schema {
  const doc = apiDocument() as { paths: Record<string, Record<string, { requestBody: { content: Record<string, { schema: Schema }> } }>> };
  let schema = doc.paths[kind.createPath][kind.createMethod].requestBody.content["application/json"].schema;
  schema = resolve(schema);
  if (kind.rowOf === "records.items") schema = resolve((schema.properties as Record<string, Schema>).records.items as Schema);
  if (kind.extraKey) {
    const props = { ...(schema.properties as Record<string, Schema>), [kind.extraKey]: { type: "string", format: "uuid" } };
    schema = { ...schema, properties: props, required: [...((schema.required as string[]) ?? []), kind.extraKey] };
  }
  return JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/', '"$ref":"doc#/')) as Schema;
}

function resolve(s: Schema): Schema {
  const ref = s.$ref as string | undefined;
  if (!ref) return s;
  let node: unknown = apiDocument();
  for (const part of ref.replace(/^#\//, "").split("/")) node = (node as Record<string, unknown>)[part];
  return resolve(node as Schema);
}

/** The columns (properties) a row of the kind may have: the same in CSV (lists as JSON text in their cell) and JSON. */
export function columnsOf(kind: Kind, _format: "csv" | "json"): string[] {
  return Object.keys(rowSchema(kind).properties as Schema);
}

const validators = new Map<string, ValidateFunction>();
function validatorOf(kind: Kind, coerce: boolean): ValidateFunction {
  const key = `${kind.name}:${coerce}`;
  let v = validators.get(key);
  if (!v) {
    v = ajvOf(coerce).compile(rowSchema(kind));
    validators.set(key, v);
  }
  return v;
}

/** The field an Ajv error is about ("" for the row as a whole). */
function fieldOf(e: ErrorObject): string {
  const at = e.instancePath.replace(/^\//, "").replaceAll("/", ".");
  const missing = e.keyword === "required" ? (e.params as { missingProperty?: string }).missingProperty : undefined;
  return missing ? (at ? `${at}.${missing}` : missing) : at;
}

/** Ajv's message as the request validator words it (an enumeration lists its values). */
function messageOf(e: ErrorObject): string | undefined {
  const allowed = (e.params as { allowedValues?: unknown[] }).allowedValues;
  return e.keyword === "enum" && allowed ? `${e.message}: ${allowed.join(", ")}` : e.message;
}

/** Checks one row (1-based `row`) against the kind's schema: its problems, none when valid. CSV rows are coerced in place. */
export function checkRow(kind: Kind, format: "csv" | "json", row: number, value: Row): Problem[] {
  const validate = validatorOf(kind, format === "csv");
  if (validate(value)) return [];
  const errors = (validate.errors ?? []).map((e) => ({
    path: fieldOf(e),
    message: messageOf(e),
    errorCode: `${e.keyword}.openapi.validation`,
  }));
  return detailsInWords(errors, (e) => String(e.path)).map((d) => {
    const column = d.path ? d.path.split(".")[0] : null;
    // a date in the right form that does not exist (2024-02-30) says so
    const cell = d.path.split(".").reduce<unknown>((v, k) => (v as Row | undefined)?.[k], value);
    const message = (/^must be (a date|an instant)/.test(d.message) && impossibleDate(cell)) || d.message;
    return { row, column, path: d.path ? `rows[${row}].${d.path}` : `rows[${row}]`, message };
  });
}

// ───────────────────────────── reading the source ─────────────────────────────

export interface Source {
  format: "csv" | "json";
  total: number;
  /** the rows, when there are at most `keepUpTo` of them (else they are read again by `rowsOf`) */
  rows: Row[] | null;
}

const tooMany = (n: number, where: string) =>
  badRequest(`An import takes at most ${MAX_ROWS} rows; this one has ${n}${n > MAX_ROWS ? " or more" : ""}`, [
    { path: where, message: `has more than ${MAX_ROWS} rows` },
  ]);

const CSV_OPTIONS = { bom: true, skip_empty_lines: true, relax_column_count: false } as const;

/** The header's columns, or a 400 naming each unknown or repeated one. */
function checkHeader(kind: Kind, record: string[]): string[] {
  const header = record.map((h) => h.trim());
  const known = new Set(columnsOf(kind, "csv"));
  const details: { path: string; message: string }[] = [];
  const seen = new Set<string>();
  // a column name is echoed at most in part (a 32 MiB header line must not come back in the answer)
  const shown = (h: string) => (h.length > 60 ? `${h.slice(0, 60)}...` : h);
  header.forEach((h, i) => {
    if (!known.has(h)) details.push({ path: `body.csv.columns[${i + 1}]`, message: `"${shown(h)}" ${unknownWords(kind, "csv", h)}` });
    else if (seen.has(h)) details.push({ path: `body.csv.columns[${i + 1}]`, message: `"${shown(h)}" is named twice` });
    seen.add(h);
  });
  if (details.length)
    throw badRequest(
      `Unknown or repeated columns: ${details
        .slice(0, 20)
        .map((d) => d.message.split('"')[1])
        .join(", ")}`,
      details.slice(0, 100),
    );
  return header;
}

/** A cell the export's formula guard wrote (`'` before text a spreadsheet would run: exports.ts). */
const GUARDED_CELL = /^'+[=+\-@\t\r]/;

/** A list column's cell (JSON text, as the export writes it), or the text itself for the schema to refuse. */
function jsonCell(cell: string): unknown {
  try {
    return JSON.parse(cell);
  } catch {
    return cell;
  }
}

/**
 * A CSV record as a row: an empty cell is a field not given; the export's formula guard is undone
 * (`'+91…` is `+91…`); a list column (`kind.jsonOnly`) is read from its JSON text.
 */
function rowOf(kind: Kind, header: string[], cells: string[]): Row {
  const row: Row = {};
  for (let c = 0; c < header.length; c++) {
    const cell = GUARDED_CELL.test(cells[c]) ? cells[c].slice(1) : cells[c];
    if (cell !== "") row[header[c]] = kind.jsonOnly?.includes(header[c]) ? jsonCell(cell) : cell;
  }
  return row;
}

/**
 * Reads `input` once through, or a 400 for a source that is not a table of the kind's columns; CSV parsed
 * record by record, its rows kept only up to `keepUpTo`.
 */
export function readSource(kind: Kind, input: { csv?: string; rows?: Row[] }, keepUpTo = MAX_ROWS): Source {
  if (input.rows) {
    if (input.rows.length > MAX_ROWS) throw tooMany(input.rows.length, "body.rows");
    const known = new Set(columnsOf(kind, "json"));
    const details: { path: string; message: string }[] = [];
    input.rows.forEach((r, i) => {
      for (const k of Object.keys(r))
        if (!known.has(k) && details.length < 100)
          details.push({ path: `body.rows[${i + 1}].${k}`, message: unknownWords(kind, "json", k) });
    });
    if (details.length)
      throw badRequest(`Unknown columns: ${[...new Set(details.map((d) => d.path.split(".").pop()))].join(", ")}`, details);
    return { format: "json", total: input.rows.length, rows: input.rows };
  }
  let header: string[] | null = null;
  let headerError: AppError | null = null;
  let total = 0;
  const kept: Row[] = [];
  try {
    parse(input.csv ?? "", {
      ...CSV_OPTIONS,
      on_record: (record: string[]) => {
        if (headerError || total > MAX_ROWS) return null;
        if (!header) {
          try {
            header = checkHeader(kind, record);
          } catch (err) {
            headerError = err as AppError;
          }
          return null;
        }
        total++;
        if (total <= keepUpTo) kept.push(rowOf(kind, header, record));
        return null;
      },
    });
  } catch (err) {
    if (headerError) throw headerError;
    throw badRequest("The CSV cannot be read", [{ path: "body.csv", message: `is not valid CSV: ${(err as Error).message}` }]);
  }
  if (headerError) throw headerError;
  if (!header) throw badRequest("The CSV is empty", [{ path: "body.csv", message: "needs a header line and at least one row" }]);
  if (total < 1) throw badRequest("The CSV has no rows", [{ path: "body.csv", message: "needs at least one row after the header line" }]);
  if (total > MAX_ROWS) throw tooMany(total, "body.csv");
  return { format: "csv", total, rows: total <= keepUpTo ? kept : null };
}

/** A CSV text's rows one by one, parsed as taken (64 KiB at a time): a queued import of 100 000 rows never holds them all. */
export async function* csvRows(kind: Kind, text: string): AsyncGenerator<Row> {
  const SLICE = 65536;
  const slices = function* () {
    for (let i = 0; i < text.length; i += SLICE) yield text.slice(i, i + SLICE);
  };
  const parser = Readable.from(slices()).pipe(parseStream(CSV_OPTIONS));
  let header: string[] | null = null;
  for await (const record of parser as AsyncIterable<string[]>) {
    if (!header) header = record.map((h) => h.trim());
    else yield rowOf(kind, header, record);
  }
}

function unknownWords(kind: Kind, format: "csv" | "json", column?: string): string {
  const columns = columnsOf(kind, format).join(", ");
  if (column && kind.exportColumns.includes(column))
    return `is a column the export adds (the server keeps it), not one an import writes: leave it out (the columns are: ${columns})`;
  return `is not a column of ${kind.label} (the columns are: ${columns})`;
}

/** An AppError as problems of row `row` (its details' fields as columns). */
export function problemsOfError(row: number, err: AppError): Problem[] {
  const details = err.details?.length ? err.details : [{ path: "body", message: err.message }];
  return details.map((d) => {
    const field = d.path.replace(/^body\.?/, "").replace(/^records\.\d+\.?/, "");
    return problemAt(row, field ? field.split(".")[0] : null, d.path === "body" || !field ? err.message : d.message);
  });
}

export { AppError };
