// The employee's own salary slips: those of processed runs only, never another employee's; and
// HR's download of any employee's slip of a processed run (runEmployeeSlipPdf).
import type { Prisma } from "../../../generated/prisma/client.ts";
import { activeTenant } from "../../db/central.ts";
import { db } from "../../db/tenancy.ts";
import { type Listing, type Page, pageOf } from "../../platform/use-case.ts";
import { type Walk, walkPage } from "../../db/keyset.ts";
import { slipKeys } from "./queries/runs.ts";
import { conflict, notFound } from "../../platform/errors.ts";
import { toDateString } from "../../lib/dates.ts";
import type { AuthContext } from "../../platform/use-case.ts";
import { slipJson, slipSummaryJson } from "./json.ts";
import { payslipPdf } from "./payslip-pdf.ts";

/**
 * The caller's slips: a page by number, or a page of a walk in the order of change (issue 32; a
 * run's slips are written in the transaction that processes it, so a slip appears in the walk when
 * its run is processed).
 */
export async function mySlipList(
  auth: AuthContext,
  q: { page?: number; limit?: number },
  walk: Walk | null,
): Promise<Listing<SlipSummary>> {
  if (!walk) {
    const page = pageOf(q);
    return { ...(await mySlips(auth, page)), page };
  }
  if (!auth.employeeId) return { rows: [], walk, last: null };
  const where: Prisma.PayrollSlipWhereInput = { employee_id: auth.employeeId, run: { status: "processed" } };
  const { rows, last } = await walkPage(
    walk,
    (after, n) => slipKeys(walk, after, n),
    (ids) => db.payrollSlip.findMany({ where: { ...where, id: { in: ids } }, include: { run: true } }),
  );
  return { rows: rows.map((s) => slipSummaryJson(s, s.run)), walk, last };
}
type SlipSummary = ReturnType<typeof slipSummaryJson>;

/** A page of the caller's slips, newest month first (none without a linked employee record). */
export async function mySlips(auth: AuthContext, page: Page): Promise<{ rows: ReturnType<typeof slipSummaryJson>[]; total: number }> {
  if (!auth.employeeId) return { rows: [], total: 0 };
  const where: Prisma.PayrollSlipWhereInput = { employee_id: auth.employeeId, run: { status: "processed" } };
  const [rows, total] = await Promise.all([
    db.payrollSlip.findMany({
      where,
      include: { run: true },
      orderBy: [{ run: { period_year: "desc" } }, { run: { period_month: "desc" } }],
      skip: page.skip,
      take: page.limit,
    }),
    db.payrollSlip.count({ where }),
  ]);
  return { rows: rows.map((s) => slipSummaryJson(s, s.run)), total };
}

/** The caller's slip of a processed run, named by the run's id or the slip's own (both are in the list items). */
export async function mySlip(auth: AuthContext, runOrSlipId: string) {
  if (!auth.employeeId) throw notFound("Salary slip");
  const s = await db.payrollSlip.findFirst({
    where: {
      OR: [{ run_id: runOrSlipId }, { id: runOrSlipId }],
      employee_id: auth.employeeId,
      run: { status: "processed" },
    },
    include: { run: true },
  });
  if (!s) throw notFound("Salary slip");
  return slipJson(s, s.run);
}

/**
 * The caller's slip of a processed run as a PDF, with its file name. The statutory ids and the
 * bank account are the employee record's at the time of the download (the slip keeps the pay).
 */
export async function mySlipPdf(auth: AuthContext, runOrSlipId: string): Promise<{ fileName: string; pdf: Buffer }> {
  return slipPdf(await mySlip(auth, runOrSlipId));
}

/**
 * Any employee's slip of a processed run as a PDF, for HR (the operation's roles): the same PDF as
 * the employee's own. 404 when the run or the employee in it does not exist, 409 for a run not
 * processed yet (no slip is issued before).
 */
export async function runEmployeeSlipPdf(runId: string, employeeId: string): Promise<{ fileName: string; pdf: Buffer }> {
  const run = await db.payrollRun.findFirst({ where: { id: runId } });
  if (!run) throw notFound("Payroll run");
  const s = await db.payrollSlip.findFirst({ where: { run_id: run.id, employee_id: employeeId } });
  if (!s) throw notFound("Employee in this payroll run");
  if (run.status !== "processed")
    throw conflict(`This payroll run is ${run.status}: its slips are issued when it is processed (the figures: getPayrollRunEmployee)`);
  return slipPdf(slipJson(s, run));
}

async function slipPdf(slip: ReturnType<typeof slipJson>): Promise<{ fileName: string; pdf: Buffer }> {
  const [tenant, e] = await Promise.all([
    activeTenant({ name: true, legal_name: true, address: true, currency: true }),
    db.employee.findFirst({
      where: { id: slip.employee_id },
      select: {
        joining_date: true,
        pan_number: true,
        uan: true,
        esi_number: true,
        bank_name: true,
        bank_account_number: true,
        bank_iban: true,
        bank_ifsc: true,
      },
    }),
  ]);
  const company = { name: tenant.legal_name ?? tenant.name, address: tenant.address, currency: tenant.currency };
  const pdf = await payslipPdf(company, slip, e && { ...e, joining_date: toDateString(e.joining_date) });
  return { fileName: `payslip-${slip.slip_number ?? slip.period}.pdf`, pdf };
}
