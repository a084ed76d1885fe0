// Running one import (docs/integrations-bulk.md) for the request and the job, by the single create's rules:
// a dry run writes in a transaction always rolled back (so its checks are the real import's); all_or_nothing
// is one transaction; row_by_row commits CHUNK rows at a time with a savepoint per row, and resumes after
// the last committed chunk, never writing a row twice.
import { Prisma } from "../../../generated/prisma/client.ts";
import type { BulkImport } from "../../../generated/prisma/client.ts";
import { db, savepoint, sharedTenantTx, byId, type ScopedTx } from "../../db/tenancy.ts";
import type { AuthContext } from "../../platform/use-case.ts";
import * as clock from "../../lib/clock.ts";
import { AppError, conflict, missingReference } from "../../platform/errors.ts";
import { KINDS, type Kind, type KindName } from "./kinds.ts";
import { keepRecords } from "./records.ts";
import { checkRow, type Problem, problemAt, problemsOfError, type Row } from "./rows.ts";

/** Rows per transaction of a row-by-row import, per batch of a batch writer, per progress update. */
const CHUNK = 1000;
/** Problems kept on the import (and listed in a 400); `problem_count` counts them all. */
const KEPT_PROBLEMS = 1000;
/** How long a worker holds a running import without writing progress before another may take it over. */
export const LEASE_MS = 5 * 60_000;

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
export async function markFailed(id: string, err: unknown): Promise<void> {
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
  const missing = missingReference(err);
  if (missing) return problemsOfError(row, missing);
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

/** Writes the valid rows of one chunk in `tx` (each 1-based `row` with its value), noting problems and what was written. */
async function writeChunk(tx: ScopedTx, auth: AuthContext, kind: Kind, chunk: { row: number; value: Row }[], t: Tally, importId: string) {
  if (kind.writeBatch) {
    const { problems, records } = await savepoint(tx, () =>
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
    await keepRecords(
      tx,
      importId,
      records.map((r) => ({ row: chunk[r.index].row, id: r.id, code: r.code ?? null })),
    );
    return;
  }
  for (const { row, value } of chunk) {
    try {
      const written = await savepoint(tx, () => kind.writeOne!(auth, value));
      await keepRecords(
        tx,
        importId,
        written.map((w) => ({ row, id: w.id, code: w.code ?? null })),
      );
      t.imported++;
    } catch (err) {
      const refused = rowRefusal(row, err);
      if (!refused) throw err;
      note(t, refused);
    }
  }
}

/** Runs `imp` over `rows` (a resumed row-by-row import from `processed_rows` + 1) and records the outcome. */
// size: the import's one transaction: the rows, the row-by-row savepoints, progress and the outcome in order
export async function runImport(
  auth: AuthContext,
  imp: BulkImport,
  rows: Iterable<Row> | AsyncIterable<Row>,
  txMs: number,
): Promise<BulkImport> {
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
          await writeChunk(tx, auth, kind, chunk, t, imp.id);
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
            await writeChunk(tx, auth, kind, chunk, t, imp.id);
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
