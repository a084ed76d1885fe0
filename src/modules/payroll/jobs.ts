// Large payroll runs in the background (docs/architecture.md, "Background jobs"): the run row in
// `calculating`/`processing` is the queue entry, kicked by the request and swept every minute. A run
// executes in one transaction under the payroll lock, as the synchronous path; a per-run `try` lock
// skips a run another worker executes; progress is written on a connection of its own so clients see
// it; a failure rolls back and marks the run `failed`, its draft slips removed (nothing half-processed).
import { Prisma } from "../../../generated/prisma/client.ts";
import { audit } from "../../platform/audit.ts";
import { tenantsWith, usersByIds } from "../../db/central.ts";
import { db, tenantTx, withTenant, byId } from "../../db/tenancy.ts";
import { AppError, conflict } from "../../platform/errors.ts";
import { logger } from "../../log.ts";
import { requestContext } from "../../request-context.ts";
import {
  calculateAndStore,
  calculateForProcessing,
  finalizeRun,
  lockPayroll,
  processedChanges,
  RUN_TX,
  slipNumberPrefix,
} from "./calculation.ts";
import { BUSY_STATUSES, checkRunMove, isBusy } from "./run-states.ts";
import { lockRunStatus } from "./queries/runs.ts";
import { tryLock } from "../../db/primitives.ts";

export const PAYROLL_RUNS_JOB = "payroll.runs";

type Outcome = "done" | "failed" | "skipped";

/** Executes every queued run of every tenant, oldest first; safe to run often and from several processes. */
export async function runQueuedPayrollRuns(): Promise<number> {
  const tried = new Set<string>();
  let done = 0;
  let unrecorded = 0;
  for (;;) {
    let triedNow = 0;
    const tenants = await tenantsWith("payrollRun", { status: { in: [...BUSY_STATUSES] } });
    for (const { tenant_id } of tenants) {
      const next = await withTenant(tenant_id, () =>
        db.payrollRun.findMany({
          where: { status: { in: [...BUSY_STATUSES] }, id: { notIn: [...tried] } },
          orderBy: [{ queued_at: { sort: "asc", nulls: "first" } }, { id: "asc" }],
          take: 100,
          select: { id: true },
        }),
      );
      for (const r of next) {
        tried.add(r.id);
        triedNow++;
        try {
          if ((await executeQueuedRun(tenant_id, r.id)) !== "skipped") done++;
        } catch (err) {
          unrecorded++;
          logger.error(
            { err: (err as Error).message, tenant_id, run_id: r.id },
            "payroll run: the failure could not be recorded; the run stays queued",
          );
        }
      }
    }
    if (!triedNow) break;
  }
  // let the queue retry (the runs are still queued) when a failure could not even be recorded
  if (unrecorded) throw new Error(`payroll runs: ${unrecorded} run(s) could not be executed or marked failed`);
  return done;
}

/** Executes one queued run (calculating → draft, processing → processed), or records its failure. */
// size: one job's run from claim to outcome, with its failure recorded where the run fails
export async function executeQueuedRun(tenantId: string, runId: string): Promise<Outcome> {
  return withTenant(tenantId, async () => {
    const queued = await db.payrollRun.findFirst({ where: { id: runId } });
    if (!queued || !isBusy(queued.status)) return "skipped";
    const [requester] = queued.queued_by ? await usersByIds([queued.queued_by]) : [];
    const ctx = { requestId: `job:${PAYROLL_RUNS_JOB}:${runId}`, userId: requester?.id, email: requester?.email };
    let status = queued.status;
    try {
      return await requestContext.run(ctx, () =>
        tenantTx(async (tx) => {
          if (!(await tryLock(tx, { kind: "payroll-run", runId }))) return "skipped" as const; // another worker is executing it
          await lockPayroll(tx);
          const run = await tx.payrollRun.findFirst({ where: { id: runId } });
          if (!run || !isBusy(run.status)) return "skipped" as const; // finished by another worker meanwhile
          status = run.status;
          const onProgress = (processed: number, total: number) =>
            db.payrollRun
              .updateMany({ where: { id: runId }, data: { progress_processed: processed, progress_total: total } })
              .then(() => {});
          if (run.status === "calculating") {
            const calc = await calculateAndStore(tx, run, { onProgress });
            checkRunMove(run.status, "draft");
            await tx.payrollRun.update({ where: byId(runId), data: { status: "draft", failure_reason: null } });
            await audit(
              {
                action: "payroll_run.calculated",
                entity_type: "payroll_run",
                entity_id: runId,
                changes: {
                  status: { from: "calculating", to: "draft" },
                  employees: calc.totals.employee_count,
                  net_pay: calc.totals.net_pay,
                },
              },
              tx,
            );
          } else {
            const calc = await calculateForProcessing(tx, run, { onProgress, slipPrefix: slipNumberPrefix(run) });
            if (!calc.totals.employee_count) throw conflict("The run has no employees to pay (no eligible employee has a salary setup)");
            await finalizeRun(tx, run, calc, run.queued_by);
            await audit(
              {
                action: "payroll_run.processed",
                event: "payroll_run.processed",
                entity_type: "payroll_run",
                entity_id: runId,
                changes: processedChanges("processing", calc),
              },
              tx,
            );
          }
          return "done" as const;
        }, RUN_TX),
      );
    } catch (err) {
      const reason = failureReason(err, status);
      if (!(err instanceof AppError))
        logger.error({ err: (err as Error).message, tenant_id: tenantId, run_id: runId, request_id: ctx.requestId }, "payroll run failed");
      await requestContext.run(ctx, () => markFailed(runId, status, reason));
      return "failed";
    }
  });
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
    if ((await lockRunStatus(tx, runId)) !== from) return;
    checkRunMove(from, "failed");
    await tx.payrollSlip.deleteMany({ where: { run_id: runId } });
    await tx.payrollRun.update({
      where: byId(runId),
      data: {
        status: "failed",
        failure_reason: reason,
        employee_count: 0,
        total_gross: 0,
        total_deductions: 0,
        total_net: 0,
        totals: Prisma.DbNull,
        calculated_at: null,
        inputs_digest: [],
        progress_processed: 0,
      },
    });
    await audit(
      { action: "payroll_run.failed", entity_type: "payroll_run", entity_id: runId, changes: { status: { from, to: "failed" }, reason } },
      tx,
    );
  });
}
