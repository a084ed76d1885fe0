// Payroll runs (draft → processed), their breakdown and slips, and the employee's own slips.
import type { Prisma } from "../../../generated/prisma/client.ts";
import { audit } from "../../audit.ts";
import { systemDb } from "../../db/client.ts";
import { currentTenantId, db, tenantTx, type ScopedTx } from "../../db/tenancy.ts";
import { ack, created, ok, pageOf, paginated } from "../../http/envelope.ts";
import { conflict, invalidField, notFound } from "../../http/errors.ts";
import type { AreaHandlers } from "../../http/types.ts";
import { parseDate } from "../../lib/dates.ts";
import { monthBounds } from "./compute.ts";
import { calculateRun, finalizeRun, lockPayroll, storeCalculation } from "./run.ts";
import { parsePeriod, payslipPdf, runJson, slipJson, slipSummaryJson } from "./slips.ts";

/** Large runs: calculation and processing may take longer than the default transaction limit. */
const RUN_TX = { timeout: 300_000 };

async function loadRun(id: string) {
  const r = await db.payrollRun.findFirst({ where: { id } });
  if (!r) throw notFound("Payroll run");
  return r;
}

/** Locks the run row (FOR UPDATE) and answers its status; 404 when it vanished meanwhile. */
async function lockRun(tx: ScopedTx, id: string): Promise<string> {
  const [row] = await tx.$queryRaw<{ status: string }[]>`SELECT status FROM payroll_runs WHERE tenant_id = ${currentTenantId()}::uuid AND id = ${id}::uuid FOR UPDATE`;
  if (!row) throw notFound("Payroll run");
  return row.status;
}

async function assertEmployees(ids: string[] | undefined) {
  if (!ids?.length) return;
  const found = await db.employee.findMany({ where: { id: { in: ids }, deleted_at: null }, select: { id: true } });
  if (found.length !== ids.length) {
    const known = new Set(found.map((f) => f.id));
    const i = ids.findIndex((x) => !known.has(x));
    throw invalidField(`body.employee_ids.${i}`, "is not an employee of the company");
  }
}

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
    const run = await tenantTx(async (tx) => {
      await lockPayroll(tx);
      if (await tx.payrollRun.findFirst({ where: { period_year: year, period_month: month }, select: { id: true } })) throw conflict(`A payroll run for ${body.period} already exists`);
      const r = await tx.payrollRun.create({
        data: { period_year: year, period_month: month, period_start: parseDate(start), period_end: parseDate(end), notes: body.notes ?? null, employee_ids: body.employee_ids ?? [], created_by: auth.userId } as any,
      });
      const calc = await calculateRun(tx, r);
      await storeCalculation(tx, r.id, calc);
      await audit({ action: "payroll_run.created", entity_type: "payroll_run", entity_id: r.id, changes: { period: body.period, employees: calc.totals.employee_count, net_pay: calc.totals.net_pay } }, tx);
      return tx.payrollRun.findFirstOrThrow({ where: { id: r.id } });
    }, RUN_TX);
    return created(runJson(run), "Draft payroll run created");
  },

  async getPayrollRun({ params }) {
    return ok(runJson(await loadRun(params.id)));
  },

  async updatePayrollRun({ params, body }) {
    const r = await loadRun(params.id);
    await assertEmployees(body.employee_ids);
    const run = await tenantTx(async (tx) => {
      await lockPayroll(tx);
      if ((await lockRun(tx, r.id)) === "processed") throw conflict("The run is processed; it can no longer be changed");
      const data: Prisma.PayrollRunUpdateInput = {};
      if (body.notes !== undefined) data.notes = body.notes;
      if (body.employee_ids !== undefined) data.employee_ids = body.employee_ids;
      const updated = Object.keys(data).length ? await tx.payrollRun.update({ where: { id: r.id }, data }) : r;
      const calc = await calculateRun(tx, updated);
      await storeCalculation(tx, r.id, calc);
      await audit({ action: "payroll_run.recalculated", entity_type: "payroll_run", entity_id: r.id, changes: { ...(data.notes !== undefined ? { notes: { from: r.notes, to: body.notes } } : {}), ...(body.employee_ids ? { employee_ids: body.employee_ids.length } : {}), employees: calc.totals.employee_count, net_pay: calc.totals.net_pay } }, tx);
      return tx.payrollRun.findFirstOrThrow({ where: { id: r.id } });
    }, RUN_TX);
    return ok(runJson(run), "Draft updated and recalculated");
  },

  async deletePayrollRun({ params }) {
    const r = await loadRun(params.id);
    await tenantTx(async (tx) => {
      if ((await lockRun(tx, r.id)) === "processed") throw conflict("A processed payroll run cannot be deleted");
      await tx.payrollSlip.deleteMany({ where: { run_id: r.id } });
      await tx.payrollRun.delete({ where: { id: r.id } });
      await audit({ action: "payroll_run.deleted", entity_type: "payroll_run", entity_id: r.id, changes: { period: `${r.period_year}-${String(r.period_month).padStart(2, "0")}` } }, tx);
    });
    return ack("Draft payroll run deleted");
  },

  async processPayrollRun({ params, auth }) {
    const r = await loadRun(params.id);
    const run = await tenantTx(async (tx) => {
      await lockPayroll(tx);
      if ((await lockRun(tx, r.id)) === "processed") throw conflict("The run is already processed");
      const calc = await calculateRun(tx, r);
      if (!calc.slips.length) throw conflict("The run has no employees to pay (no eligible employee has a salary setup)");
      await storeCalculation(tx, r.id, calc);
      await finalizeRun(tx, r, calc, auth.userId);
      await audit(
        {
          action: "payroll_run.processed",
          entity_type: "payroll_run",
          entity_id: r.id,
          changes: {
            status: { from: "draft", to: "processed" },
            employees: calc.totals.employee_count,
            gross: calc.totals.gross,
            net_pay: calc.totals.net_pay,
            loan_installments_paid: calc.slips.reduce((n, s) => n + s.details.loans.reduce((m, l) => m + l.installment_ids.length, 0), 0),
            expense_claims_paid: calc.slips.reduce((n, s) => n + s.details.reimbursements.length, 0),
            leave_encashments_paid: calc.slips.reduce((n, s) => n + s.details.encashments.length, 0),
          },
        },
        tx,
      );
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
    return { status: 200 as const, body: { data: { run, totals: run.totals!, employees: rows.map((s) => slipSummaryJson(s, r)) }, message: "OK", pagination: res.body.pagination } };
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
