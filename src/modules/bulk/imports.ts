// Bulk imports, the request side: the source checked, the import recorded, then run here (up to
// BULK_IMPORT_SYNC_ROWS rows) or queued (docs/integrations-bulk.md).
import type { BulkImport } from "../../../generated/prisma/client.ts";
import { config } from "../../config.ts";
import { db } from "../../db/tenancy.ts";
import type { AuthContext } from "../../platform/use-case.ts";
import * as clock from "../../lib/clock.ts";
import { type AppError, badRequest, notFound } from "../../platform/errors.ts";
import { jobs } from "../../platform/jobs/queue.ts";
import { BULK_IMPORTS_JOB } from "./import-job.ts";
import { markFailed, runImport } from "./import-run.ts";
import { KINDS, type KindName } from "./kinds.ts";
import { type CreatedRecord, createdRecords } from "./records.ts";
import { type Problem, readSource, type Row } from "./rows.ts";

const REQUEST_TX_MS = 120_000;

export type ImportMode = "all_or_nothing" | "row_by_row";
type ImportJson = ReturnType<typeof importJson>;
export function importJson(i: BulkImport, records: CreatedRecord[] = []) {
  return {
    id: i.id,
    kind: i.kind as KindName,
    format: i.format as "csv" | "json",
    mode: i.mode as ImportMode,
    dry_run: i.dry_run,
    status: i.status as "queued" | "running" | "succeeded" | "failed",
    total_rows: i.total_rows,
    processed_rows: i.processed_rows,
    imported_rows: i.imported_rows,
    failed_rows: i.failed_rows,
    problems: i.problems as unknown as Problem[],
    problem_count: i.problem_count,
    records,
    error: i.error,
    created_at: i.created_at.toISOString(),
    started_at: i.started_at?.toISOString() ?? null,
    finished_at: i.finished_at?.toISOString() ?? null,
  };
}

/** The 400 of an import with problems: every problem (the first KEPT_PROBLEMS) in `details`. */
function problemsError(total: number, problems: Problem[], count: number, dryRun: boolean): AppError {
  const rows = new Set(problems.map((p) => p.row)).size;
  const what = dryRun ? "The dry run found" : "The import found";
  return badRequest(
    `${what} ${count} problem${count === 1 ? "" : "s"} in ${rows}${count > problems.length ? "+" : ""} of ${total} rows; ` +
      "nothing was imported",
    problems.map((p) => ({ path: p.path, message: p.message, row: p.row, column: p.column })),
  );
}

export interface ImportOutcome {
  status: 200 | 201 | 202;
  data: ImportJson;
}

/** Starts an import: the source read (400 if not a table of the kind), recorded, then run here or queued. */
export async function startImport(
  auth: AuthContext,
  kindName: KindName,
  opts: { dry_run?: boolean; mode?: ImportMode },
  body: { csv?: string; rows?: Row[] },
): Promise<ImportOutcome> {
  const kind = KINDS[kindName];
  const source = readSource(kind, body, config().bulkImportSyncRows);
  const dryRun = opts.dry_run ?? false;
  const mode = opts.mode ?? "all_or_nothing";
  const queued = source.total > config().bulkImportSyncRows;
  const imp = await db.bulkImport.create({
    data: {
      kind: kind.name,
      format: source.format,
      mode,
      dry_run: dryRun,
      status: queued ? "queued" : "running",
      source: queued ? (body.csv ?? JSON.stringify(body.rows)) : null,
      total_rows: source.total,
      created_by: auth.userId,
      actor_role: auth.role,
      actor_employee_id: auth.employeeId,
      actor_email: auth.email,
      actor_credential_id: auth.credential?.id ?? null,
      started_at: queued ? null : clock.now(),
    },
  });
  if (queued) {
    jobs.kick(BULK_IMPORTS_JOB);
    return { status: 202, data: importJson(imp) };
  }
  let done: BulkImport;
  try {
    done = await runImport(auth, imp, source.rows!, REQUEST_TX_MS);
  } catch (err) {
    await markFailed(imp.id, err);
    throw err;
  }
  if (done.status === "failed" && done.problem_count > 0) {
    throw problemsError(done.total_rows, done.problems as unknown as Problem[], done.problem_count, done.dry_run);
  }
  return { status: dryRun ? 200 : 201, data: importJson(done, await createdRecords(done)) };
}

export async function importById(id: string): Promise<ImportJson> {
  const imp = await db.bulkImport.findFirst({ where: { id } });
  if (!imp) throw notFound("Import");
  return importJson(imp, await createdRecords(imp));
}
