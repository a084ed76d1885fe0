// Payroll runs (draft → processed), their breakdown and slips, and the employee's own slips.
import type { Prisma } from "../../../generated/prisma/client.ts";
import { audit } from "../../audit.ts";
import { config } from "../../config.ts";
import { systemDb } from "../../db/client.ts";
import { currentTenantId, db, tenantTx, type ScopedTx } from "../../db/tenancy.ts";
import { ack, accepted, created, ok, pageOf, paginated } from "../../http/envelope.ts";
import { conflict, invalidField, notFound } from "../../http/errors.ts";
import type { AreaHandlers } from "../../http/types.ts";
import { jobs } from "../../jobs/queue.ts";
import { parseDate } from "../../lib/dates.ts";
import { emptyTotals, monthBounds } from "./compute.ts";
import { isBusy, PAYROLL_RUNS_JOB, processedChanges, RUN_TX } from "./jobs.ts";
import { calculateAndStore, countRunEmployees, finalizeRun, lockPayroll, slipNumberPrefix } from "./run.ts";
import { parsePeriod, payslipPdf, runJson, slipJson, slipSummaryJson } from "./slips.ts";

// Runs of up to `PAYROLL_SYNC_LIMIT` employees are calculated / processed within the request, in
// one transaction (201/200 with the finished run). Larger ones are queued: the request commits the
// run as `calculating` / `processing` and answers 202 with it; the `payroll.runs` job does the
// work (jobs.ts) and the run shows its progress until it is `draft` / `processed` or `failed`.

async function loadRun(id: string) {
  const r = await db.payrollRun.findFirst({ where: { id } });
  if (!r) throw notFound("Payroll run");
  return r;
}

/**
 * Locks the run row and answers its status; 404 when it vanished meanwhile. FOR NO KEY UPDATE:
 * it serialises every change of the run's status, yet does not wait for a running background
 * job, whose slip inserts hold a key-share lock on the row (foreign key) until it commits.
 */
async function lockRun(tx: ScopedTx, id: string): Promise<string> {
  const [row] = await tx.$queryRaw<{ status: string }[]>`SELECT status FROM payroll_runs WHERE tenant_id = ${currentTenantId()}::uuid AND id = ${id}::uuid FOR NO KEY UPDATE`;
  if (!row) throw notFound("Payroll run");
  return row.status;
}

/** Serialises the creation of a tenant's runs (one per month) without waiting for running calculations. */
async function lockRunCreation(tx: ScopedTx): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`payroll-create:${currentTenantId()}`}, 0))`;
}

const busyConflict = (status: string) =>
  conflict(status === "processing" ? "The run is being processed; wait until it is processed or failed" : "The run is being calculated; wait until the calculation has finished");

/** 409 for a processed run (with the operation's own words) or one a job is working on. */
function assertChangeable(status: string, processedMessage: string) {
  if (status === "processed") throw conflict(processedMessage);
  if (isBusy(status)) throw busyConflict(status);
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

const queued = (employees: number, auth: { userId: string }) => ({ queued_at: new Date(), queued_by: auth.userId, progress_processed: 0, progress_total: employees, failure_reason: null });

export const runHandlers = {
  async listPayrollRuns({ query }) {
    const page = pageOf(query);
    const where: Prisma.PayrollRunWhereInput = { ...(query.status ? { status: query.status } : {}), ...(query.year ? { period_year: query.year } : {}) };
    const [rows, total] = await Promise.all([
      db.payrollRun.findMany({ where, orderBy: [{ period_year: "desc" }, { period_month: "desc" }], skip: page.skip, take: page.limit }),
      db.payrollRun.count({ where }),
    ]);
    return paginated(rows.map(runJson), page, total);
  },

  async createPayrollRun({ body, auth }) {
    const { year, month } = parsePeriod(body.period);
    if (year < 2000 || year > 2100) throw invalidField("body.period", "must be a month between 2000 and 2100");
    await assertEmployees(body.employee_ids);
    const { start, end } = monthBounds(year, month);
    const employeeIds = body.employee_ids ?? [];
    const n = await countRunEmployees(db, { period_year: year, period_month: month, employee_ids: employeeIds });
    const background = inBackground(n);
    const { run, employees } = await tenantTx(
      async (tx) => {
        await lockRunCreation(tx);
        if (await tx.payrollRun.findFirst({ where: { period_year: year, period_month: month }, select: { id: true } })) throw conflict(`A payroll run for ${body.period} already exists`);
        const data = { period_year: year, period_month: month, period_start: parseDate(start), period_end: parseDate(end), notes: body.notes ?? null, employee_ids: employeeIds, created_by: auth.userId };
        if (background) {
          const r = await tx.payrollRun.create({ data: { ...data, status: "calculating", ...queued(n, auth) } as any });
          await audit({ action: "payroll_run.created", entity_type: "payroll_run", entity_id: r.id, changes: { period: body.period, status: "calculating", employees: n } }, tx);
          return { run: r, employees: n };
        }
        await lockPayroll(tx);
        const r = await tx.payrollRun.create({ data: data as any });
        const calc = await calculateAndStore(tx, r);
        await audit({ action: "payroll_run.created", entity_type: "payroll_run", entity_id: r.id, changes: { period: body.period, employees: calc.totals.employee_count, net_pay: calc.totals.net_pay } }, tx);
        return { run: await tx.payrollRun.findFirstOrThrow({ where: { id: r.id } }), employees: calc.totals.employee_count };
      },
      background ? undefined : RUN_TX,
    );
    if (background) {
      jobs.kick(PAYROLL_RUNS_JOB);
      return accepted(runJson(run), `Draft payroll run created; ${employees} employees are being calculated in the background`);
    }
    return created(runJson(run), "Draft payroll run created");
  },

  async getPayrollRun({ params }) {
    return ok(runJson(await loadRun(params.id)));
  },

  async updatePayrollRun({ params, body, auth }) {
    const r = await loadRun(params.id);
    assertChangeable(r.status, "The run is processed; it can no longer be changed");
    await assertEmployees(body.employee_ids);
    const employeeIds = body.employee_ids ?? r.employee_ids;
    const n = await countRunEmployees(db, { ...r, employee_ids: employeeIds });
    const background = inBackground(n);
    const run = await tenantTx(
      async (tx) => {
        if (!background) await lockPayroll(tx);
        const status = await lockRun(tx, r.id);
        assertChangeable(status, "The run is processed; it can no longer be changed");
        const data: Prisma.PayrollRunUpdateInput = {};
        if (body.notes !== undefined) data.notes = body.notes;
        if (body.employee_ids !== undefined) data.employee_ids = body.employee_ids;
        const changes = { ...(data.notes !== undefined ? { notes: { from: r.notes, to: body.notes } } : {}), ...(body.employee_ids ? { employee_ids: body.employee_ids.length } : {}) };
        if (background) {
          const u = await tx.payrollRun.update({ where: { id: r.id }, data: { ...data, status: "calculating", ...queued(n, auth) } });
          await audit({ action: "payroll_run.recalculation_queued", entity_type: "payroll_run", entity_id: r.id, changes: { ...changes, status: { from: status, to: "calculating" }, employees: n } }, tx);
          return u;
        }
        const updated = Object.keys(data).length || status === "failed" ? await tx.payrollRun.update({ where: { id: r.id }, data: { ...data, status: "draft", failure_reason: null } }) : r;
        const calc = await calculateAndStore(tx, updated);
        await audit(
          {
            action: "payroll_run.recalculated",
            entity_type: "payroll_run",
            entity_id: r.id,
            changes: { ...changes, ...(status === "failed" ? { status: { from: "failed", to: "draft" } } : {}), employees: calc.totals.employee_count, net_pay: calc.totals.net_pay },
          },
          tx,
        );
        return tx.payrollRun.findFirstOrThrow({ where: { id: r.id } });
      },
      background ? undefined : RUN_TX,
    );
    if (background) {
      jobs.kick(PAYROLL_RUNS_JOB);
      return accepted(runJson(run), `Draft updated; ${run.progress_total} employees are being recalculated in the background`);
    }
    return ok(runJson(run), "Draft updated and recalculated");
  },

  async deletePayrollRun({ params }) {
    const r = await loadRun(params.id);
    assertChangeable(r.status, "A processed payroll run cannot be deleted");
    await tenantTx(async (tx) => {
      assertChangeable(await lockRun(tx, r.id), "A processed payroll run cannot be deleted");
      await tx.payrollSlip.deleteMany({ where: { run_id: r.id } });
      await tx.payrollRun.delete({ where: { id: r.id } });
      await audit({ action: "payroll_run.deleted", entity_type: "payroll_run", entity_id: r.id, changes: { period: `${r.period_year}-${String(r.period_month).padStart(2, "0")}` } }, tx);
    });
    return ack("Draft payroll run deleted");
  },

  async processPayrollRun({ params, auth }) {
    const r = await loadRun(params.id);
    assertChangeable(r.status, "The run is already processed");
    const employees = await countRunEmployees(db, r);
    if (inBackground(employees)) {
      const run = await tenantTx(async (tx) => {
        const status = await lockRun(tx, r.id);
        assertChangeable(status, "The run is already processed");
        const u = await tx.payrollRun.update({ where: { id: r.id }, data: { status: "processing", ...queued(employees, auth) } });
        await audit({ action: "payroll_run.process_queued", entity_type: "payroll_run", entity_id: r.id, changes: { status: { from: status, to: "processing" }, employees } }, tx);
        return u;
      });
      jobs.kick(PAYROLL_RUNS_JOB);
      return accepted(runJson(run), `${employees} employees are being processed in the background`);
    }
    const run = await tenantTx(async (tx) => {
      await lockPayroll(tx);
      const status = await lockRun(tx, r.id);
      assertChangeable(status, "The run is already processed");
      const calc = await calculateAndStore(tx, r, { slipPrefix: slipNumberPrefix(r) });
      if (!calc.slips.length) throw conflict("The run has no employees to pay (no eligible employee has a salary setup)");
      await finalizeRun(tx, r, calc, auth.userId);
      await audit({ action: "payroll_run.processed", entity_type: "payroll_run", entity_id: r.id, changes: processedChanges(status, calc) }, tx);
      return tx.payrollRun.findFirstOrThrow({ where: { id: r.id } });
    }, RUN_TX);
    return ok(runJson(run), "Payroll run processed; salary slips issued");
  },

  async getPayrollRunBreakdown({ params, query }) {
    const r = await loadRun(params.id);
    const page = pageOf(query);
    const where: Prisma.PayrollSlipWhereInput = { run_id: r.id };
    if (query.search) where.OR = [{ employee_name: { contains: query.search, mode: "insensitive" } }, { employee_code: { contains: query.search, mode: "insensitive" } }];
    const [rows, total] = await Promise.all([
      db.payrollSlip.findMany({ where, orderBy: [{ employee_code: "asc" }, { id: "asc" }], skip: page.skip, take: page.limit }),
      db.payrollSlip.count({ where }),
    ]);
    const run = runJson(r);
    const res = paginated([], page, total);
    return { status: 200 as const, body: { data: { run, totals: run.totals ?? emptyTotals(), employees: rows.map((s) => slipSummaryJson(s, r)) }, message: "OK", pagination: res.body.pagination } };
  },

  async getPayrollRunEmployee({ params }) {
    const r = await loadRun(params.id);
    const s = await db.payrollSlip.findFirst({ where: { run_id: r.id, employee_id: params.employeeId } });
    if (!s) throw notFound("Employee in this payroll run");
    return ok(slipJson(s, r));
  },

  async listMySalary({ query, auth }) {
    const page = pageOf(query);
    if (!auth.employeeId) return paginated([], page, 0);
    const where: Prisma.PayrollSlipWhereInput = { employee_id: auth.employeeId, run: { status: "processed" } };
    const [rows, total] = await Promise.all([
      db.payrollSlip.findMany({ where, include: { run: true }, orderBy: [{ run: { period_year: "desc" } }, { run: { period_month: "desc" } }], skip: page.skip, take: page.limit }),
      db.payrollSlip.count({ where }),
    ]);
    return paginated(
      rows.map((s) => slipSummaryJson(s, s.run)),
      page,
      total,
    );
  },

  async getMySalarySlip({ params, auth }) {
    return ok(await mySlip(auth.employeeId, params.draftId));
  },

  async downloadMySalarySlip({ params, auth, res }) {
    const slip = await mySlip(auth.employeeId, params.draftId);
    const tenant = await systemDb.tenant.findUniqueOrThrow({ where: { id: auth.tenantId }, select: { name: true, legal_name: true, currency: true } });
    const pdf = await payslipPdf({ name: tenant.legal_name ?? tenant.name, currency: tenant.currency }, slip);
    res.status(200);
    res.setHeader("Content-Type", "application/pdf");
    res.setHeader("Content-Length", String(pdf.length));
    res.setHeader("Content-Disposition", `attachment; filename="payslip-${slip.slip_number ?? slip.period}.pdf"`);
    res.end(pdf);
    return { sent: true as const };
  },
} satisfies Partial<AreaHandlers<"payroll">>;

async function mySlip(employeeId: string | null, runId: string) {
  if (!employeeId) throw notFound("Salary slip");
  const s = await db.payrollSlip.findFirst({ where: { run_id: runId, employee_id: employeeId, run: { status: "processed" } }, include: { run: true } });
  if (!s) throw notFound("Salary slip");
  return slipJson(s, s.run);
}
