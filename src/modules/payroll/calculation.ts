// Calculating a payroll run, set-based, a batch of `PAYROLL_BATCH_SIZE` employees at a time: inputs in a
// fixed number of queries (run-inputs.ts), computed in memory (compute.ts), written in one INSERT while
// the next batch is read; only totals and ids are kept, so memory is a batch's (docs/architecture.md,
// "What is implemented", payroll).
import { config } from "../../config.ts";
import { lock, tenantLock } from "../../db/primitives.ts";
import { db, type ScopedTx, byId } from "../../db/tenancy.ts";
import { Decimal } from "../../lib/money.ts";
import { mapYielding, stringifyYielding } from "../../lib/yielding.ts";
import { priceEncashments } from "../leave/index.ts";
import { badRequest } from "../../platform/errors.ts";
import { AmountOutOfRange, assertFits, LARGEST_TOTAL, totalsOf, type RunTotals, type SlipResult } from "./compute.ts";
import {
  countPaidEmployees,
  countSlips,
  deleteSlips,
  insertSlips,
  markClaimsPaid,
  markInstallmentsPaid,
  notifySlipOwners,
  numberRunSlips,
  settleLoans,
  slipPayments,
} from "./queries/calculation.ts";
import * as clock from "../../lib/clock.ts";
import { readAhead } from "./read-ahead.ts";
import { eligibility, loadRunInputs } from "./run-inputs.ts";

export interface RunRef {
  id: string;
  period_year: number;
  period_month: number;
  employee_ids: string[];
}

/** What processing pays from the slips: their loan installments, claims and encashments (ids only). */
export interface RunPayments {
  installment_ids: string[];
  loan_ids: Set<string>;
  claim_ids: string[];
  encashments: { id: string; amount: string }[];
}

/** A stored calculation: its totals and what it pays, never the slips themselves (they are in the table). */
export interface Calculation {
  totals: RunTotals;
  payments: RunPayments;
  employees_without_setup: number;
}

function collectPayments(into: RunPayments, s: SlipResult): void {
  for (const l of s.details.loans) {
    into.loan_ids.add(l.loan_id);
    for (const id of l.installment_ids) into.installment_ids.push(id);
  }
  for (const c of s.details.reimbursements) into.claim_ids.push(c.claim_id);
  for (const x of s.details.encashments) into.encashments.push({ id: x.encashment_id, amount: x.amount });
}

/** Large runs: a calculation or processing may take longer than the default transaction limit. */
export const RUN_TX = { timeout: 600_000 };

/** Eligible employees of the run with a salary setup in force (what a calculation would pay). */
export async function countRunEmployees(run: Omit<RunRef, "id">): Promise<number> {
  return countPaidEmployees(db, await eligibility(db, run));
}

/** No run: the id given for the ESI look-back of a calculation outside a run (no run has it). */
const NO_RUN = "00000000-0000-0000-0000-000000000000";

/**
 * A settlement's last month as a run would calculate it, without installments, claims and encashments; null
 * without a setup in force by its end. `code_wages`: the settlement's wage by the rule of its last day.
 */
export async function employeeMonthSalary(
  tx: ScopedTx,
  employeeId: string,
  year: number,
  month: number,
): Promise<{ slip: SlipResult } | null> {
  const inputs = await loadRunInputs(
    tx,
    { id: NO_RUN, period_year: year, period_month: month, employee_ids: [employeeId] },
    { salaryOnly: true },
  );
  for await (const [row] of inputs.pages(1)) if (row.id === employeeId) return { slip: (await inputs.forBatch([row])).slipOf(row) };
  return null;
}

/** A 400 when a total of the run would be more than a run can show (LARGEST_TOTAL). */
function assertTotalsFit(t: RunTotals): void {
  try {
    assertFits(
      (["gross", "total_deductions", "net_pay", "reimbursements", "leave_encashment", "loan_deductions", "employer_cost"] as const).map(
        (k) => [`the run's ${k.replace(/_/g, " ")}`, new Decimal(t[k])],
      ),
      LARGEST_TOTAL,
    );
  } catch (err) {
    if (!(err instanceof AmountOutOfRange)) throw err;
    throw badRequest(`The run cannot be calculated: ${err.message}. Split it into runs of fewer employees (employee_ids)`);
  }
}

const slipRow = (s: SlipResult, slipNumber: string | null) => ({
  employee_id: s.employee_id,
  slip_number: slipNumber,
  employee_code: s.employee_code,
  employee_name: s.employee_name,
  department: s.department,
  designation: s.designation,
  pay_start: s.pay_start,
  pay_end: s.pay_end,
  days_in_period: s.days_in_period,
  payable_days: s.payable_days.toFixed(1),
  lop_days: s.lop_days.toFixed(1),
  gross: s.gross.toFixed(2),
  total_deductions: s.total_deductions.toFixed(2),
  net_pay: s.net_pay.toFixed(2),
  pf_employee: s.pf_employee.toFixed(2),
  esi_employee: s.esi_employee.toFixed(2),
  professional_tax: s.professional_tax.toFixed(2),
  loan_deduction: s.loan_deduction.toFixed(2),
  reimbursements: s.reimbursements.toFixed(2),
  leave_encashment: s.leave_encashment.toFixed(2),
  employer_cost: s.employer_cost.toFixed(2),
  income_tax: (s.income_tax ?? 0).toFixed(2),
  details: s.details,
});

/** Slip numbers of a processed run: `PS-YYYYMM-00001`, in employee-code order. */
export const slipNumberPrefix = (run: { period_year: number; period_month: number }) =>
  `PS-${run.period_year}${String(run.period_month).padStart(2, "0")}-`;

export interface StoreOptions {
  /** Number the slips (`<prefix>00001`…) as they are written: processing. */
  slipPrefix?: string;
  /** Called after each written batch with the employees written so far and the run's total. */
  onProgress?: (processed: number, total: number) => Promise<void>;
}

/** Replaces the run's slips and totals in the caller's transaction: one DELETE, then a batch's reads and one INSERT at a time. */
export async function calculateAndStore(tx: ScopedTx, run: RunRef, opts: StoreOptions = {}): Promise<Calculation> {
  const inputs = await loadRunInputs(tx, run);
  await opts.onProgress?.(0, inputs.total);
  await deleteSlips(tx, run.id);
  const payments: RunPayments = { installment_ids: [], loan_ids: new Set(), claim_ids: [], encashments: [] };
  const totals = totalsOf(inputs.structure, inputs.settings.pf);
  let writing: Promise<unknown> | null = null;
  const digests = [inputs.digest];
  let i = 0;
  for await (const { employees, facts } of readAhead(inputs, config().payrollBatchSize)) {
    // a turn of the event loop every few ms: a batch's decimal arithmetic in one go would hold every request
    const { slipOf, digest } = facts;
    digests.push(digest);
    const batch = await mapYielding(employees, (e) => {
      const slip = slipOf(e);
      totals.add(slip);
      collectPayments(payments, slip);
      return slip;
    });
    const first = i;
    const rows = await stringifyYielding(
      batch.map((s, k) => ({ s, k })),
      ({ s, k }) => slipRow(s, opts.slipPrefix ? `${opts.slipPrefix}${String(first + k + 1).padStart(5, "0")}` : null),
    );
    if (writing) {
      await writing;
      await opts.onProgress?.(i, Math.max(i, inputs.total));
    }
    // the INSERT starts now; the next batch is computed meanwhile
    const started = insertSlips(tx, run.id, rows);
    started.catch(() => {}); // awaited below; a failure must not count as unhandled meanwhile
    writing = started;
    i += employees.length;
    await new Promise((r) => setImmediate(r)); // let the statement go out before computing
  }
  const total = i;
  if (writing) await writing;
  if (total) await opts.onProgress?.(total, total);
  const runTotalsResult = totals.result();
  assertTotalsFit(runTotalsResult);
  await tx.payrollRun.update({
    where: byId(run.id),
    data: {
      employee_count: runTotalsResult.employee_count,
      total_gross: runTotalsResult.gross,
      total_deductions: runTotalsResult.total_deductions,
      total_net: runTotalsResult.net_pay,
      totals: { ...runTotalsResult, employees_without_setup: inputs.employees_without_setup },
      calculated_at: clock.now(),
      progress_processed: total,
      progress_total: total,
      inputs_digest: digests,
    },
  });
  return { totals: runTotalsResult, payments, employees_without_setup: inputs.employees_without_setup };
}

/** A run as processing reads it: the digest and totals of its stored calculation (both empty when it has none). */
export interface StoredRun extends RunRef {
  inputs_digest: string[];
  totals: unknown;
}

/** Processing: the draft's slips kept when its inputs are unchanged (processStored), else calculated again: the same slips to the paisa. */
export async function calculateForProcessing(
  tx: ScopedTx,
  run: StoredRun,
  opts: StoreOptions & { slipPrefix: string },
): Promise<Calculation> {
  return (await processStored(tx, run, opts)) ?? calculateAndStore(tx, run, opts);
}

/**
 * Re-reads the run's inputs batch by batch only to digest them; when every digest equals the stored one,
 * the stored slips are numbered in one statement. Null at the first difference (a changed fact, another
 * release): the caller calculates again in the same transaction, with nothing numbered meanwhile.
 */
async function processStored(tx: ScopedTx, run: StoredRun, opts: StoreOptions & { slipPrefix: string }): Promise<Calculation | null> {
  const stored = run.totals as (RunTotals & { employees_without_setup: number }) | null;
  if (!run.inputs_digest.length || !stored) return null;
  const inputs = await loadRunInputs(tx, run, { digestOnly: true });
  if (inputs.digest !== run.inputs_digest[0] || (await countSlips(tx, run.id)) !== stored.employee_count) return null;
  await opts.onProgress?.(0, inputs.total);
  let i = 0;
  let b = 1;
  const payers: string[] = [];
  for await (const { employees, facts } of readAhead(inputs, config().payrollBatchSize)) {
    if (facts.digest !== run.inputs_digest[b++]) return null;
    for (const id of facts.payers) payers.push(id);
    i += employees.length;
    await opts.onProgress?.(i, Math.max(i, inputs.total));
  }
  // as many batches as the draft's, and every slip numbered (the same employees: their rows are digested)
  if (b !== run.inputs_digest.length || i !== stored.employee_count) return null;
  if ((await numberRunSlips(tx, run.id, opts.slipPrefix)) !== i) return null;
  const { employees_without_setup, ...totals } = stored;
  return { totals, payments: await storedPayments(tx, run.id, payers), employees_without_setup };
}

/** What the stored slips pay, read from `payers` only: the inputs are the calculation's, so no other slip pays. */
async function storedPayments(tx: ScopedTx, runId: string, payers: string[]): Promise<RunPayments> {
  const payments: RunPayments = { installment_ids: [], loan_ids: new Set(), claim_ids: [], encashments: [] };
  if (!payers.length) return payments;
  for (const p of await slipPayments(tx, runId, payers)) {
    if (p.kind === "loan") {
      payments.loan_ids.add(p.id);
      payments.installment_ids.push(...(p.installment_ids ?? []));
    } else if (p.kind === "claim") payments.claim_ids.push(p.id);
    else payments.encashments.push({ id: p.id, amount: p.amount! });
  }
  return payments;
}

/** Serialises calculation and processing of a tenant's runs (a claim or installment is never paid twice). */
export async function lockPayroll(tx: ScopedTx): Promise<void> {
  await lock(tx, tenantLock("payroll"));
}

/** Finalises a just-numbered run in the caller's transaction, set-based: installments, claims, encashments, status, notices. */
export async function finalizeRun(
  tx: ScopedTx,
  run: { id: string; period_year: number; period_month: number },
  calc: Calculation,
  userId: string | null,
): Promise<void> {
  const now = clock.now();
  const { installment_ids: installmentIds, claim_ids: claimIds, encashments: priced } = calc.payments;
  const loanIds = [...calc.payments.loan_ids];
  if (installmentIds.length) {
    await markInstallmentsPaid(tx, run.id, installmentIds, now);
    await settleLoans(tx, loanIds, now);
  }
  if (claimIds.length) await markClaimsPaid(tx, run.id, claimIds, now);
  // encashments are priced by the run that pays them
  await priceEncashments(tx, priced, now);
  await tx.payrollRun.update({
    where: byId(run.id),
    data: { status: "processed", processed_at: now, processed_by: userId, failure_reason: null },
  });
  const label = new Date(Date.UTC(run.period_year, run.period_month - 1, 1)).toLocaleString("en-GB", {
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });
  await notifySlipOwners(tx, run.id, `Your salary slip for ${label} is ready`, `/api/payroll/my-salary/${run.id}`);
}

/** The audit entry's changes of a processed run. */
export function processedChanges(from: string, calc: Calculation) {
  return {
    status: { from, to: "processed" },
    employees: calc.totals.employee_count,
    gross: calc.totals.gross,
    net_pay: calc.totals.net_pay,
    loan_installments_paid: calc.payments.installment_ids.length,
    expense_claims_paid: calc.payments.claim_ids.length,
    leave_encashments_paid: calc.payments.encashments.length,
  };
}
