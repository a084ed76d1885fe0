// Large payroll runs in the background. A request that queues work only moves the run to
// `calculating` or `processing` (committed, audited) and kicks the `payroll.runs` job; the run row
// itself is the queue entry, so nothing queued is lost when a kick is (no worker running, a
// process that dies): the job is also swept every minute and picks up every run still in one of
// those states. Executing a run:
//   - one transaction, as the synchronous path: the tenant's payroll lock (so a claim or an
//     installment is never paid twice), the calculation written batch by batch, then - for
//     processing - the finalisation; all of it commits at once or not at all;
//   - a per-run advisory lock taken with `try`: a second worker (another process, a repeated
//     kick) skips a run that is being executed; a worker that dies releases it with its
//     connection, and the next sweep executes the run again from the start;
//   - progress (employees calculated of the run's employees) written to the run after each batch
//     on a connection of its own, so clients see it while the transaction is open;
//   - a failure rolls everything back, then the run becomes `failed` with a reason, its draft
//     slips and totals removed (nothing half-processed, nothing stale), audited. A failure to
//     record the failure (database gone) leaves the run queued: the job is retried.
import { Prisma } from "../../../generated/prisma/client.ts";
import { audit } from "../../audit.ts";
import { systemDb } from "../../db/client.ts";
import { currentTenantId, db, tenantTx, withTenant } from "../../db/tenancy.ts";
import { AppError, conflict } from "../../http/errors.ts";
import { logger, requestContext } from "../../log.ts";
import { calculateAndStore, finalizeRun, lockPayroll, slipNumberPrefix } from "./run.ts";

export const PAYROLL_RUNS_JOB = "payroll.runs";

/** Large runs: a calculation or processing may take longer than the default transaction limit. */
export const RUN_TX = { timeout: 600_000 };

export const BUSY_STATUSES = ["calculating", "processing"] as const;
export const isBusy = (status: string) => (BUSY_STATUSES as readonly string[]).includes(status);

type Outcome = "done" | "failed" | "skipped";

/**
 * The job: executes every queued run of every tenant, oldest request first, until none is left
 * that this sweep has not tried. Safe to run often and from several processes at once.
 */
export async function runQueuedPayrollRuns(): Promise<number> {
  const tried = new Set<string>();
  let done = 0;
  let unrecorded = 0;
  for (;;) {
    const queued = await systemDb.$queryRaw<{ tenant_id: string; id: string }[]>`
      SELECT tenant_id, id FROM payroll_runs WHERE status IN ('calculating', 'processing') ORDER BY queued_at NULLS FIRST, id LIMIT 100`;
    const next = queued.filter((r) => !tried.has(r.id));
    if (!next.length) break;
    for (const r of next) {
      tried.add(r.id);
      try {
        if ((await executeQueuedRun(r.tenant_id, r.id)) !== "skipped") done++;
      } catch (err) {
        unrecorded++;
        logger.error({ err: (err as Error).message, tenant_id: r.tenant_id, run_id: r.id }, "payroll run: the failure could not be recorded; the run stays queued");
      }
    }
  }
  // let the queue retry (the runs are still queued) when a failure could not even be recorded
  if (unrecorded) throw new Error(`payroll runs: ${unrecorded} run(s) could not be executed or marked failed`);
  return done;
}

/** Executes one queued run (calculating → draft, processing → processed), or records its failure. */
export async function executeQueuedRun(tenantId: string, runId: string): Promise<Outcome> {
  return withTenant(tenantId, async () => {
    const queued = await db.payrollRun.findFirst({ where: { id: runId } });
    if (!queued || !isBusy(queued.status)) return "skipped";
    const requester = queued.queued_by ? await systemDb.user.findUnique({ where: { id: queued.queued_by }, select: { id: true, email: true } }) : null;
    const ctx = { requestId: `job:${PAYROLL_RUNS_JOB}:${runId}`, userId: requester?.id, email: requester?.email };
    let status = queued.status;
    try {
      return await requestContext.run(ctx, () =>
        tenantTx(async (tx) => {
          const [{ mine }] = await tx.$queryRaw<{ mine: boolean }[]>`SELECT pg_try_advisory_xact_lock(hashtextextended(${`payroll-run:${runId}`}, 0)) AS mine`;
          if (!mine) return "skipped" as const; // another worker is executing it
          await lockPayroll(tx);
          const run = await tx.payrollRun.findFirst({ where: { id: runId } });
          if (!run || !isBusy(run.status)) return "skipped" as const; // finished by another worker meanwhile
          status = run.status;
          const onProgress = (processed: number, total: number) => db.payrollRun.updateMany({ where: { id: runId }, data: { progress_processed: processed, progress_total: total } }).then(() => {});
          if (run.status === "calculating") {
            const calc = await calculateAndStore(tx, run, { onProgress });
            await tx.payrollRun.update({ where: { id: runId }, data: { status: "draft", failure_reason: null } });
            await audit(
              { action: "payroll_run.calculated", entity_type: "payroll_run", entity_id: runId, changes: { status: { from: "calculating", to: "draft" }, employees: calc.totals.employee_count, net_pay: calc.totals.net_pay } },
              tx,
            );
          } else {
            const calc = await calculateAndStore(tx, run, { onProgress, slipPrefix: slipNumberPrefix(run) });
            if (!calc.slips.length) throw conflict("The run has no employees to pay (no eligible employee has a salary setup)");
            await finalizeRun(tx, run, calc, run.queued_by);
            await audit({ action: "payroll_run.processed", entity_type: "payroll_run", entity_id: runId, changes: processedChanges("processing", calc) }, tx);
          }
          return "done" as const;
        }, RUN_TX),
      );
    } catch (err) {
      const reason = failureReason(err, status);
      if (!(err instanceof AppError)) logger.error({ err: (err as Error).message, tenant_id: tenantId, run_id: runId, request_id: ctx.requestId }, "payroll run failed");
      await requestContext.run(ctx, () => markFailed(runId, status, reason));
      return "failed";
    }
  });
}

/** The audit entry's changes of a processed run. */
export function processedChanges(from: string, calc: Awaited<ReturnType<typeof calculateAndStore>>) {
  return {
    status: { from, to: "processed" },
    employees: calc.totals.employee_count,
    gross: calc.totals.gross,
    net_pay: calc.totals.net_pay,
    loan_installments_paid: calc.slips.reduce((n, s) => n + s.details.loans.reduce((m, l) => m + l.installment_ids.length, 0), 0),
    expense_claims_paid: calc.slips.reduce((n, s) => n + s.details.reimbursements.length, 0),
    leave_encashments_paid: calc.slips.reduce((n, s) => n + s.details.encashments.length, 0),
  };
}

/** What the client reads: an AppError's own message (it is meant for users), otherwise no internals. */
function failureReason(err: unknown, status: string): string {
  const what = status === "processing" ? "Processing" : "The calculation";
  if (err instanceof AppError) return `${what} failed: ${err.message}. Nothing was saved.`;
  return `${what} failed because of an internal error. Nothing was saved; try again, and contact support if it persists.`;
}

/** `failed` with a reason; the run's slips and totals go (they no longer match its request). */
async function markFailed(runId: string, from: string, reason: string): Promise<void> {
  await tenantTx(async (tx) => {
    const run = await tx.$queryRaw<{ status: string }[]>`SELECT status FROM payroll_runs WHERE tenant_id = ${currentTenantId()}::uuid AND id = ${runId}::uuid FOR NO KEY UPDATE`;
    if (run[0]?.status !== from) return;
    await tx.payrollSlip.deleteMany({ where: { run_id: runId } });
    await tx.payrollRun.update({
      where: { id: runId },
      data: { status: "failed", failure_reason: reason, employee_count: 0, total_gross: 0, total_deductions: 0, total_net: 0, totals: Prisma.DbNull, calculated_at: null, progress_processed: 0 },
    });
    await audit({ action: "payroll_run.failed", entity_type: "payroll_run", entity_id: runId, changes: { status: { from, to: "failed" }, reason } }, tx);
  });
}
