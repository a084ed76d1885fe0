// JSON of runs and slips (the rows as the API answers them).
import type { db } from "../../db/tenancy.ts";
import { toDateString } from "../../lib/dates.ts";
import { moneyString } from "../../lib/money.ts";
import type { RunTotals, SlipDetails, SlipIncomeTaxJson } from "./compute.ts";

/** SlipIncomeTax of the document (the stored figures without the month's basic, HRA and LTA). */
const slipIncomeTaxJson = ({ basic_da: _b, hra: _h, lta: _l, ...shown }: SlipIncomeTaxJson) => shown;

type RunRow = Awaited<ReturnType<typeof db.payrollRun.findFirstOrThrow>>;
type SlipRow = Awaited<ReturnType<typeof db.payrollSlip.findFirstOrThrow>>;

/** A stored text column as the union of its values (a value outside it is a broken row: an error, not a guess). */
export function oneOf<T extends string>(values: readonly T[], value: string, what: string): T {
  const known = values.find((v) => v === value);
  if (known === undefined) throw new Error(`${what}: unknown value ${JSON.stringify(value)}`);
  return known;
}

export const RUN_STATUSES = ["draft", "calculating", "processing", "processed", "failed"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
const runStatus = (status: string): RunStatus => oneOf(RUN_STATUSES, status, "payroll run status");

export const periodOf = (r: { period_year: number; period_month: number }) => `${r.period_year}-${String(r.period_month).padStart(2, "0")}`;

export function parsePeriod(s: string): { year: number; month: number } {
  const [y, m] = s.split("-").map(Number);
  return { year: y, month: m };
}

export const runJson = (r: RunRow) => ({
  id: r.id,
  period: periodOf(r),
  period_start: toDateString(r.period_start),
  period_end: toDateString(r.period_end),
  status: runStatus(r.status),
  progress: { processed: r.progress_processed, total: r.progress_total },
  failure_reason: r.failure_reason,
  queued_at: r.queued_at?.toISOString() ?? null,
  notes: r.notes,
  employee_ids: r.employee_ids,
  employee_count: r.employee_count,
  total_gross: moneyString(r.total_gross),
  total_deductions: moneyString(r.total_deductions),
  total_net: moneyString(r.total_net),
  totals: (r.totals as unknown as (RunTotals & { employees_without_setup: number }) | null) ?? null,
  calculated_at: r.calculated_at?.toISOString() ?? null,
  processed_at: r.processed_at?.toISOString() ?? null,
  processed_by: r.processed_by,
  created_by: r.created_by,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
});

export const slipSummaryJson = (s: SlipRow, run: Pick<RunRow, "period_year" | "period_month" | "status">) => ({
  id: s.id,
  run_id: s.run_id,
  period: periodOf(run),
  run_status: runStatus(run.status),
  slip_number: s.slip_number,
  employee_id: s.employee_id,
  employee_code: s.employee_code,
  employee_name: s.employee_name,
  department: s.department,
  designation: s.designation,
  pay_start: toDateString(s.pay_start),
  pay_end: toDateString(s.pay_end),
  days_in_period: s.days_in_period,
  payable_days: s.payable_days.toFixed(1),
  lop_days: s.lop_days.toFixed(1),
  gross: moneyString(s.gross),
  total_deductions: moneyString(s.total_deductions),
  net_pay: moneyString(s.net_pay),
  pf_employee: moneyString(s.pf_employee),
  esi_employee: moneyString(s.esi_employee),
  professional_tax: moneyString(s.professional_tax),
  loan_deduction: moneyString(s.loan_deduction),
  reimbursements: moneyString(s.reimbursements),
  leave_encashment: moneyString(s.leave_encashment),
  employer_cost: moneyString(s.employer_cost),
  // absent where the company withholds none (the slip's details then carry no income_tax either)
  ...((s.details as { income_tax?: unknown } | null)?.income_tax ? { income_tax: moneyString(s.income_tax) } : {}),
});

export function slipJson(s: SlipRow, run: Pick<RunRow, "period_year" | "period_month" | "status">) {
  const d = s.details as unknown as SlipDetails;
  return {
    ...slipSummaryJson(s, run),
    earnings: d.earnings,
    deductions: d.deductions,
    full_month_gross: d.full_month_gross,
    lop: d.lop,
    pf: d.pf,
    esi: d.esi,
    professional_tax_detail: d.professional_tax,
    loans: d.loans,
    reimbursement_lines: d.reimbursements,
    encashments: d.encashments,
    employer_contributions: d.employer_contributions,
    ...(d.gratuity_provision === undefined ? {} : { gratuity_provision: d.gratuity_provision }),
    ...(d.code_wages === undefined ? {} : { code_wages: d.code_wages }),
    ...(d.encashment_rate === undefined ? {} : { encashment_rate: d.encashment_rate }),
    ...(d.salary_periods === undefined ? {} : { salary_periods: d.salary_periods }),
    ...(d.income_tax === undefined ? {} : { income_tax_detail: slipIncomeTaxJson(d.income_tax) }),
  };
}
