// Payroll runs (draft → processed): open, recalculate, delete, process, read. Runs above
// `PAYROLL_SYNC_LIMIT` employees are queued for the `payroll.runs` job (jobs.ts), which shows their progress
// (docs/architecture.md, "What is implemented", payroll).
import type { Prisma } from "../../../generated/prisma/client.ts";
import { audit } from "../../platform/audit.ts";
import { config } from "../../config.ts";
import { lock, tenantLock } from "../../db/primitives.ts";
import { db, tenantTx, type ScopedTx, byId } from "../../db/tenancy.ts";
import type { Page } from "../../platform/use-case.ts";
import { conflict, invalidField, notFound } from "../../platform/errors.ts";
import type { AuthContext, QueryParams, RequestBody } from "../../platform/use-case.ts";
import { jobs } from "../../platform/jobs/queue.ts";
import { parseDate } from "../../lib/dates.ts";
import {
  calculateAndStore,
  calculateForProcessing,
  countRunEmployees,
  finalizeRun,
  lockPayroll,
  processedChanges,
  RUN_TX,
  slipNumberPrefix,
} from "./calculation.ts";
import { emptyTotals, monthBounds } from "./compute.ts";
import { assertChangeable, checkRunMove } from "./run-states.ts";
import { PAYROLL_RUNS_JOB } from "./jobs.ts";
import { parsePeriod, runJson, slipJson, slipSummaryJson } from "./json.ts";
import { lockRunStatus } from "./queries/runs.ts";
import * as clock from "../../lib/clock.ts";

type RunJson = ReturnType<typeof runJson>;

/** A run as answered, and whether its work was queued for the background job (with its employees). */
export interface RunOutcome {
  run: RunJson;
  background: boolean;
  employees: number;
}

async function loadRun(id: string) {
  const r = await db.payrollRun.findFirst({ where: { id } });
  if (!r) throw notFound("Payroll run");
  return r;
}

/** Locks the run row (not waiting for a running job) and answers its status; 404 when it vanished meanwhile. */
async function lockRun(tx: ScopedTx, id: string): Promise<string> {
  const status = await lockRunStatus(tx, id);
  if (status === null) throw notFound("Payroll run");
  return status;
}

/** Serialises the creation of a tenant's runs (one per month) without waiting for running calculations. */
async function lockRunCreation(tx: ScopedTx): Promise<void> {
  await lock(tx, tenantLock("payroll-create"));
}

const inBackground = (employees: number) => employees > config().payrollSyncLimit;

async function assertEmployees(ids: string[] | undefined) {
  if (!ids?.length) return;
  const found = await db.employee.findMany({ where: { id: { in: ids }, deleted_at: null }, select: { id: true } });
  if (found.length !== ids.length) {
    const known = new Set(found.map((f) => f.id));
    const i = ids.findIndex((x) => !known.has(x));
    throw invalidField(`body.employee_ids.${i}`, "is not an employee of the company");
  }
}

const queued = (employees: number, auth: AuthContext) => ({
  queued_at: clock.now(),
  queued_by: auth.userId,
  progress_processed: 0,
  progress_total: employees,
  failure_reason: null,
});

/** A page of runs, newest month first. */
export async function runsPage(filter: QueryParams<"listPayrollRuns">, page: Page): Promise<{ rows: RunJson[]; total: number }> {
  const where: Prisma.PayrollRunWhereInput = {
    ...(filter.status ? { status: filter.status } : {}),
    ...(filter.year ? { period_year: filter.year } : {}),
  };
  const [rows, total] = await Promise.all([
    db.payrollRun.findMany({ where, orderBy: [{ period_year: "desc" }, { period_month: "desc" }], skip: page.skip, take: page.limit }),
    db.payrollRun.count({ where }),
  ]);
  return { rows: rows.map(runJson), total };
}

/** Opens the month's run (one per month) and calculates it, or queues the calculation when it is large. */
export async function openRun(auth: AuthContext, input: RequestBody<"createPayrollRun">): Promise<RunOutcome> {
  const { year, month } = parsePeriod(input.period);
  if (year < 2000 || year > 2100) throw invalidField("body.period", "must be a month between 2000 and 2100");
  await assertEmployees(input.employee_ids);
  const { start, end } = monthBounds(year, month);
  const employeeIds = input.employee_ids ?? [];
  const n = await countRunEmployees({ period_year: year, period_month: month, employee_ids: employeeIds });
  const background = inBackground(n);
  const { run, employees } = await tenantTx(
    async (tx) => {
      await lockRunCreation(tx);
      if (await tx.payrollRun.findFirst({ where: { period_year: year, period_month: month }, select: { id: true } }))
        throw conflict(`A payroll run for ${input.period} already exists`);
      const data = {
        period_year: year,
        period_month: month,
        period_start: parseDate(start),
        period_end: parseDate(end),
        notes: input.notes ?? null,
        employee_ids: employeeIds,
        created_by: auth.userId,
      };
      if (background) {
        const r = await tx.payrollRun.create({ data: { ...data, status: "calculating", ...queued(n, auth) } });
        await audit(
          {
            action: "payroll_run.created",
            entity_type: "payroll_run",
            entity_id: r.id,
            changes: { period: input.period, status: "calculating", employees: n },
          },
          tx,
        );
        return { run: r, employees: n };
      }
      await lockPayroll(tx);
      const r = await tx.payrollRun.create({ data });
      const calc = await calculateAndStore(tx, r);
      await audit(
        {
          action: "payroll_run.created",
          entity_type: "payroll_run",
          entity_id: r.id,
          changes: { period: input.period, employees: calc.totals.employee_count, net_pay: calc.totals.net_pay },
        },
        tx,
      );
      return { run: await tx.payrollRun.findFirstOrThrow({ where: { id: r.id } }), employees: calc.totals.employee_count };
    },
    background ? undefined : RUN_TX,
  );
  if (background) jobs.kick(PAYROLL_RUNS_JOB);
  return { run: runJson(run), background, employees };
}

export async function runById(id: string): Promise<RunJson> {
  return runJson(await loadRun(id));
}

/** Changes a draft's notes or employees and recalculates it (queued when large); a failed run becomes a draft again. */
export async function changeRun(auth: AuthContext, id: string, input: RequestBody<"updatePayrollRun">): Promise<RunOutcome> {
  const r = await loadRun(id);
  assertChangeable(r.status, "The run is processed; it can no longer be changed");
  await assertEmployees(input.employee_ids);
  const employeeIds = input.employee_ids ?? r.employee_ids;
  const n = await countRunEmployees({ ...r, employee_ids: employeeIds });
  const background = inBackground(n);
  const run = await tenantTx(
    async (tx) => {
      if (!background) await lockPayroll(tx);
      const status = await lockRun(tx, r.id);
      assertChangeable(status, "The run is processed; it can no longer be changed");
      const data: Prisma.PayrollRunUpdateInput = {};
      if (input.notes !== undefined) data.notes = input.notes;
      if (input.employee_ids !== undefined) data.employee_ids = input.employee_ids;
      const changes = {
        ...(data.notes !== undefined ? { notes: { from: r.notes, to: input.notes } } : {}),
        ...(input.employee_ids ? { employee_ids: input.employee_ids.length } : {}),
      };
      if (background) {
        checkRunMove(status, "calculating");
        const u = await tx.payrollRun.update({ where: byId(r.id), data: { ...data, status: "calculating", ...queued(n, auth) } });
        await audit(
          {
            action: "payroll_run.recalculation_queued",
            entity_type: "payroll_run",
            entity_id: r.id,
            changes: { ...changes, status: { from: status, to: "calculating" }, employees: n },
          },
          tx,
        );
        return u;
      }
      checkRunMove(status, "draft");
      const updated =
        Object.keys(data).length || status === "failed"
          ? await tx.payrollRun.update({ where: byId(r.id), data: { ...data, status: "draft", failure_reason: null } })
          : r;
      const calc = await calculateAndStore(tx, updated);
      await audit(
        {
          action: "payroll_run.recalculated",
          entity_type: "payroll_run",
          entity_id: r.id,
          changes: {
            ...changes,
            ...(status === "failed" ? { status: { from: "failed", to: "draft" } } : {}),
            employees: calc.totals.employee_count,
            net_pay: calc.totals.net_pay,
          },
        },
        tx,
      );
      return tx.payrollRun.findFirstOrThrow({ where: { id: r.id } });
    },
    background ? undefined : RUN_TX,
  );
  if (background) jobs.kick(PAYROLL_RUNS_JOB);
  return { run: runJson(run), background, employees: run.progress_total };
}

/** Deletes a run that is not processed (nor being worked on) with its slips. */
export async function discardRun(id: string): Promise<void> {
  const r = await loadRun(id);
  assertChangeable(r.status, "A processed payroll run cannot be deleted");
  await tenantTx(async (tx) => {
    assertChangeable(await lockRun(tx, r.id), "A processed payroll run cannot be deleted");
    await tx.payrollSlip.deleteMany({ where: { run_id: r.id } });
    await tx.payrollRun.delete({ where: byId(r.id) });
    await audit(
      {
        action: "payroll_run.deleted",
        entity_type: "payroll_run",
        entity_id: r.id,
        changes: { period: `${r.period_year}-${String(r.period_month).padStart(2, "0")}` },
      },
      tx,
    );
  });
}

/** Numbers the slips (the draft's own when its inputs are unchanged), pays loans, claims and encashments; queued when large. */
export async function processRun(auth: AuthContext, id: string): Promise<RunOutcome> {
  const r = await loadRun(id);
  assertChangeable(r.status, "The run is already processed");
  const employees = await countRunEmployees(r);
  if (inBackground(employees)) {
    const run = await tenantTx(async (tx) => {
      const status = await lockRun(tx, r.id);
      assertChangeable(status, "The run is already processed");
      checkRunMove(status, "processing");
      const u = await tx.payrollRun.update({ where: byId(r.id), data: { status: "processing", ...queued(employees, auth) } });
      await audit(
        {
          action: "payroll_run.process_queued",
          entity_type: "payroll_run",
          entity_id: r.id,
          changes: { status: { from: status, to: "processing" }, employees },
        },
        tx,
      );
      return u;
    });
    jobs.kick(PAYROLL_RUNS_JOB);
    return { run: runJson(run), background: true, employees };
  }
  const run = await tenantTx(async (tx) => {
    await lockPayroll(tx);
    const status = await lockRun(tx, r.id);
    assertChangeable(status, "The run is already processed");
    // as it is now, under the locks: a recalculation may have changed it since it was read above
    const current = await tx.payrollRun.findFirstOrThrow({ where: { id: r.id } });
    const calc = await calculateForProcessing(tx, current, { slipPrefix: slipNumberPrefix(current) });
    if (!calc.totals.employee_count) throw conflict("The run has no employees to pay (no eligible employee has a salary setup)");
    await finalizeRun(tx, r, calc, auth.userId);
    await audit(
      {
        action: "payroll_run.processed",
        event: "payroll_run.processed",
        entity_type: "payroll_run",
        entity_id: r.id,
        changes: processedChanges(status, calc),
      },
      tx,
    );
    return tx.payrollRun.findFirstOrThrow({ where: { id: r.id } });
  }, RUN_TX);
  return { run: runJson(run), background: false, employees };
}

/** The run, its totals and a page of its employees' slip summaries (by name or code with `search`). */
export async function runBreakdown(id: string, search: string | undefined, page: Page) {
  const r = await loadRun(id);
  const where: Prisma.PayrollSlipWhereInput = { run_id: r.id };
  if (search)
    where.OR = [{ employee_name: { contains: search, mode: "insensitive" } }, { employee_code: { contains: search, mode: "insensitive" } }];
  const [rows, total] = await Promise.all([
    db.payrollSlip.findMany({ where, orderBy: [{ employee_code: "asc" }, { id: "asc" }], skip: page.skip, take: page.limit }),
    db.payrollSlip.count({ where }),
  ]);
  const run = runJson(r);
  return { run, totals: run.totals ?? emptyTotals(), employees: rows.map((s) => slipSummaryJson(s, r)), total };
}

/** One employee's slip in a run. */
export async function runSlip(runId: string, employeeId: string) {
  const r = await loadRun(runId);
  const s = await db.payrollSlip.findFirst({ where: { run_id: r.id, employee_id: employeeId } });
  if (!s) throw notFound("Employee in this payroll run");
  return slipJson(s, r);
}
