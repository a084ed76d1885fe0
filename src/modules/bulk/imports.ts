// Bulk imports (issue 32 part 5): the rows of a CSV or JSON source written by the single create's
// rules of their kind (kinds.ts), in one of three ways:
//   - dry run: every row checked - its schema, then written inside a transaction that is always
//     rolled back, so the checks against stored data (duplicates, unknown references, and earlier
//     rows of the same file) are exactly the real import's - nothing kept;
//   - all_or_nothing: one transaction; any problem and it is rolled back;
//   - row_by_row: transactions of CHUNK rows, a savepoint per row (or per batch) so a bad row is
//     undone alone; the import's counters commit with each chunk, so a job that dies resumes after
//     the last committed chunk and never writes a row twice.
// Up to BULK_IMPORT_SYNC_ROWS rows run in the request; more are queued: the `imports` row is the
// queue entry (with its source) and the job `bulk.imports` (kicked, and swept every minute) runs it,
// writing progress as it goes. Retries of the POST are answered by the generic Idempotency-Key.
import { Prisma } from "../../../generated/prisma/client.ts";
import type { BulkImport } from "../../../generated/prisma/client.ts";
import { config } from "../../config.ts";
import { tenantsWith } from "../../db/central.ts";
import { db, savepoint, sharedTenantTx, withTenant, byId, type ScopedTx } from "../../db/tenancy.ts";
import type { AuthContext, Role } from "../../platform/use-case.ts";
import * as clock from "../../lib/clock.ts";
import { logger } from "../../log.ts";
import { requestContext } from "../../request-context.ts";
import { AppError, badRequest, conflict, notFound } from "../../platform/errors.ts";
import { jobs } from "../../platform/jobs/queue.ts";
import { KINDS, type Kind, type KindName } from "./kinds.ts";
import { checkRow, csvRows, type Problem, problemAt, problemsOfError, readSource, type Row } from "./rows.ts";

export const BULK_IMPORTS_JOB = "bulk.imports";
/** Rows per transaction of a row-by-row import, per batch of a batch writer, per progress update. */
const CHUNK = 1000;
/** Problems kept on the import (and listed in a 400); `problem_count` counts them all. */
const KEPT_PROBLEMS = 1000;
/** How long a worker holds a running import without writing progress before another may take it over. */
const LEASE_MS = 5 * 60_000;
/** The longest transaction of an import: a queued all-or-nothing import of 100 000 rows. */
const JOB_TX_MS = 30 * 60_000;
const REQUEST_TX_MS = 120_000;

export type ImportMode = "all_or_nothing" | "row_by_row";
type ImportJson = ReturnType<typeof importJson>;

export function importJson(i: BulkImport) {
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

/**
 * Starts an import of `kind`: the source read (400 for one that is not a table of the kind's
 * columns), the import recorded, then run here (up to BULK_IMPORT_SYNC_ROWS rows) or queued.
 */
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
  return { status: dryRun ? 200 : 201, data: importJson(done) };
}

export async function importById(id: string): Promise<ImportJson> {
  const imp = await db.bulkImport.findFirst({ where: { id } });
  if (!imp) throw notFound("Import");
  return importJson(imp);
}

// ───────────────────────────── running an import ─────────────────────────────

/** Thrown inside the transaction to roll it back (dry runs, all-or-nothing with problems). */
class Rollback extends Error {}

interface Tally {
  processed: number;
  imported: number;
  failedRows: Set<number>;
  problems: Problem[];
  count: number;
}

function note(t: Tally, ps: Problem[]) {
  for (const p of ps) {
    t.failedRows.add(p.row);
    t.count++;
    if (t.problems.length < KEPT_PROBLEMS) t.problems.push(p);
  }
}

const counters = (t: Tally) => ({
  processed_rows: t.processed,
  imported_rows: t.imported,
  failed_rows: t.failedRows.size,
  problems: [...t.problems].sort((a, b) => a.row - b.row) as unknown as Prisma.InputJsonValue,
  problem_count: t.count,
  locked_until: new Date(clock.now().getTime() + LEASE_MS),
});

/** The SQLSTATE of a database error, wrapped by Prisma or not. */
function sqlStateOf(err: unknown): string | undefined {
  const e = err as {
    code?: unknown;
    meta?: { driverAdapterError?: { cause?: { originalCode?: unknown } } };
    cause?: { originalCode?: unknown };
  };
  const c = e?.meta?.driverAdapterError?.cause?.originalCode ?? e?.cause?.originalCode;
  return typeof c === "string" ? c : undefined;
}

/** A unique value written meanwhile by someone else (another import or create of the same company). */
const writtenMeanwhile = (err: unknown) =>
  (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") || sqlStateOf(err) === "23505";

/** Records that an import stopped for a reason that is not a row's (nothing of an all-or-nothing import was written). */
async function markFailed(id: string, err: unknown): Promise<void> {
  const reason =
    err instanceof AppError
      ? err.message
      : "The import stopped because of an internal error; rows of committed chunks (row_by_row) stay imported";
  await db.bulkImport.updateMany({
    where: { id },
    data: { status: "failed", error: reason, finished_at: clock.now(), source: null, locked_until: null },
  });
}

/** Known database refusals of a row (a constraint) as its problem; anything else is not the row's fault. */
function rowRefusal(row: number, err: unknown): Problem[] | null {
  if (err instanceof AppError) return problemsOfError(row, err);
  if (err instanceof Prisma.PrismaClientKnownRequestError && (err.code === "P2002" || err.code === "P2003"))
    return [
      problemAt(
        row,
        null,
        err.code === "P2002" ? "conflicts with a stored record (a unique value is taken)" : "refers to a record that does not exist",
      ),
    ];
  return null;
}

/** Writes the valid rows of one chunk in `tx` (each 1-based `row` with its value), noting problems. */
async function writeChunk(tx: ScopedTx, auth: AuthContext, kind: Kind, chunk: { row: number; value: Row }[], t: Tally) {
  if (kind.writeBatch) {
    const { problems } = await savepoint(tx, () =>
      kind.writeBatch!(
        tx,
        auth,
        chunk.map((c) => c.value),
      ),
    ).catch((err: unknown) => {
      // the batch was checked against what was stored; a concurrent writer took a value since
      if (writtenMeanwhile(err))
        throw conflict(
          `Rows ${chunk[0]?.row}-${chunk.at(-1)?.row} conflict with records written meanwhile by another import or create ` +
            "(a unique email or code); nothing of them was written - retry the import",
        );
      throw err;
    });
    note(
      t,
      problems.map((p) => problemAt(chunk[p.index].row, p.field, p.message)),
    );
    t.imported += chunk.length - new Set(problems.map((p) => p.index)).size;
    return;
  }
  for (const { row, value } of chunk) {
    try {
      await savepoint(tx, () => kind.writeOne!(auth, value));
      t.imported++;
    } catch (err) {
      const refused = rowRefusal(row, err);
      if (!refused) throw err;
      note(t, refused);
    }
  }
}

/**
 * Runs `imp` over `rows` (from row `imp.processed_rows` + 1 for a resumed row-by-row import) and
 * records the outcome on it; returns the finished import.
 */
// size: the import's one transaction: the rows, the row-by-row savepoints, progress and the outcome in order
async function runImport(auth: AuthContext, imp: BulkImport, rows: Iterable<Row> | AsyncIterable<Row>, txMs: number): Promise<BulkImport> {
  const kind = KINDS[imp.kind as KindName];
  const format = imp.format as "csv" | "json";
  const resumeAt = imp.mode === "row_by_row" && !imp.dry_run ? imp.processed_rows : 0;
  const t: Tally = {
    processed: resumeAt,
    imported: resumeAt ? imp.imported_rows : 0,
    failedRows: new Set(resumeAt ? (imp.problems as unknown as Problem[]).map((p) => p.row) : []),
    problems: resumeAt ? [...(imp.problems as unknown as Problem[])] : [],
    count: resumeAt ? imp.problem_count : 0,
  };
  if (resumeAt) for (let i = t.failedRows.size; i < imp.failed_rows; i++) t.failedRows.add(-i); // rows beyond the kept problems
  // the rows in chunks of CHUNK, each row checked against the schema (its problems noted) on the way
  const chunks = async function* () {
    let i = 0;
    let chunk: { row: number; value: Row }[] = [];
    for await (const value of rows) {
      i++;
      if (i <= resumeAt) continue;
      const ps = checkRow(kind, format, i, value);
      if (ps.length) note(t, ps);
      else chunk.push({ row: i, value });
      if (i % CHUNK === 0) {
        yield { chunk, end: i };
        chunk = [];
      }
    }
    if (i % CHUNK !== 0 && i > resumeAt) yield { chunk, end: i };
  };
  const progress = () => db.bulkImport.updateMany({ where: { id: imp.id }, data: counters(t) });
  if (imp.mode === "row_by_row" && !imp.dry_run) {
    for await (const { chunk, end } of chunks()) {
      await sharedTenantTx(
        async (tx) => {
          await writeChunk(tx, auth, kind, chunk, t);
          t.processed = end;
          await tx.bulkImport.update({ where: byId(imp.id), data: counters(t) });
        },
        { timeout: txMs },
      );
    }
  } else {
    try {
      await sharedTenantTx(
        async (tx) => {
          for await (const { chunk, end } of chunks()) {
            await writeChunk(tx, auth, kind, chunk, t);
            t.processed = end;
            await progress();
          }
          if (imp.dry_run || t.count > 0) throw new Rollback();
        },
        { timeout: txMs },
      );
    } catch (err) {
      if (!(err instanceof Rollback)) throw err;
    }
  }
  const failed = imp.mode === "all_or_nothing" || imp.dry_run ? t.count > 0 : false;
  if (imp.mode === "all_or_nothing" && t.count > 0) t.imported = 0;
  return db.bulkImport.update({
    where: byId(imp.id),
    data: { ...counters(t), status: failed ? "failed" : "succeeded", finished_at: clock.now(), source: null, locked_until: null },
  });
}

// ───────────────────────────── the job ─────────────────────────────

/** The context of the import's caller, as it was when the import was made. */
function authOf(tenantId: string, imp: BulkImport): AuthContext {
  return {
    userId: imp.created_by ?? "",
    email: imp.actor_email ?? "",
    name: imp.actor_email ?? "",
    tenantId,
    role: imp.actor_role as Role,
    employeeId: imp.actor_employee_id,
    modules: [],
  };
}

/**
 * The job: runs every queued import of every company (and running ones whose worker stopped
 * renewing its lease), oldest first. Safe to run often and from several processes: an import is
 * claimed by one conditional UPDATE.
 */
export async function runQueuedImports(): Promise<number> {
  let done = 0;
  const tried = new Set<string>();
  for (;;) {
    let triedNow = 0;
    const now = clock.now();
    const waiting = { OR: [{ status: "queued" }, { status: "running", locked_until: { lt: now } }] };
    for (const { tenant_id } of await tenantsWith("bulkImport", waiting)) {
      const next = await withTenant(tenant_id, () =>
        db.bulkImport.findMany({
          where: { ...waiting, id: { notIn: [...tried] } },
          orderBy: { created_at: "asc" },
          select: { id: true },
          take: 10,
        }),
      );
      for (const { id } of next) {
        tried.add(id);
        triedNow++;
        if (await executeQueuedImport(tenant_id, id)) done++;
      }
    }
    if (!triedNow) break;
  }
  return done;
}

/** Claims and runs one import; false when another worker has it. */
export async function executeQueuedImport(tenantId: string, id: string): Promise<boolean> {
  return withTenant(tenantId, async () => {
    const now = clock.now();
    const claimed = await db.bulkImport.updateMany({
      where: { id, OR: [{ status: "queued" }, { status: "running", locked_until: { lt: now } }] },
      data: { status: "running", started_at: now, locked_until: new Date(now.getTime() + LEASE_MS) },
    });
    if (!claimed.count) return false;
    const imp = (await db.bulkImport.findFirst({ where: { id } }))!;
    const auth = authOf(tenantId, imp);
    const ctx = { requestId: `job:${BULK_IMPORTS_JOB}:${id}`, userId: imp.created_by ?? undefined, email: imp.actor_email ?? undefined };
    await requestContext.run(ctx, async () => {
      try {
        // checked as a whole when it was received; read again row by row
        const rows = imp.format === "csv" ? csvRows(imp.source ?? "") : (JSON.parse(imp.source ?? "[]") as Row[]);
        await runImport(auth, imp, rows, JOB_TX_MS);
      } catch (err) {
        if (!(err instanceof AppError))
          logger.error({ err: (err as Error).message, tenant_id: tenantId, import_id: id }, "bulk import failed");
        await markFailed(id, err);
      }
    });
    return true;
  });
}

export const PRUNE_IMPORTS_JOB = "bulk.prune-imports";
/** How long a finished import stays readable. */
const KEEP_DAYS = 30;

/** Removes imports that ended more than KEEP_DAYS ago, company by company. */
export async function pruneImports(): Promise<number> {
  const before = new Date(clock.now().getTime() - KEEP_DAYS * 86_400_000);
  let removed = 0;
  for (const { tenant_id } of await tenantsWith("bulkImport", { finished_at: { lt: before } }))
    removed += await withTenant(tenant_id, async () => (await db.bulkImport.deleteMany({ where: { finished_at: { lt: before } } })).count);
  return removed;
}
