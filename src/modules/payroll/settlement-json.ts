// A final settlement as the API shows it (FinalSettlement), with the warnings of what is overdue on it,
// and the rows it is read from.
import type { components } from "../../../generated/api-types.ts";
import type { FinalSettlement, Prisma } from "../../../generated/prisma/client.ts";
import { type DateString, daysBetween, toDateString } from "../../lib/dates.ts";
import type { SettlementFigures } from "./settlement-figures.ts";

export type SettlementJson = components["schemas"]["FinalSettlement"];

export const employeeSelect = {
  id: true,
  employee_code: true,
  first_name: true,
  last_name: true,
  joining_date: true,
  employment_type: true,
  branch_id: true,
  work_location_id: true,
} as const;
export type EmployeeRow = Prisma.EmployeeGetPayload<{ select: typeof employeeSelect }>;
export type Row = FinalSettlement & { employee: Pick<EmployeeRow, "employee_code" | "first_name" | "last_name" | "joining_date"> };
export const include = { employee: { select: { employee_code: true, first_name: true, last_name: true, joining_date: true } } } as const;

/** Figures and the settlement's dates as stored in `details`. */
export type Details = SettlementFigures & { resignation_date: string; last_working_day?: string };

/**
 * What is overdue on a settlement not yet processed, on `today` (the list's and the reader's
 * warnings): final wages past their due date (Code on Wages s.17(2)), gratuity past its due date
 * (interest at 10 % a year runs from the last working day, s.7(3A)).
 */
export function settlementWarnings(status: string, d: Details, today: DateString): string[] {
  if (status !== "draft" || !d.dues) return [];
  const w: string[] = [];
  const late = (due: DateString) => daysBetween(due, today);
  if (today > d.dues.final_wages_due)
    w.push(
      `Final wages were due on ${d.dues.final_wages_due} (within two working days of the separation, Code on Wages 2019 s.17(2)): ` +
        `${late(d.dues.final_wages_due)} day${late(d.dues.final_wages_due) === 1 ? "" : "s"} overdue`,
    );
  if (d.dues.gratuity_due && today > d.dues.gratuity_due)
    w.push(
      `Gratuity of ${d.gratuity} was due on ${d.dues.gratuity_due} (within 30 days, Payment of Gratuity Act 1972 s.7(3)): ` +
        `simple interest at 10 % a year runs from ${d.last_working_day ?? d.dues.gratuity_interest?.from} until it is paid (s.7(3A))`,
    );
  return w;
}

export function settlementJson(r: Row, today: DateString): SettlementJson {
  const d = r.details as unknown as Details;
  return {
    id: r.id,
    settlement_number: r.settlement_number,
    employee_id: r.employee_id,
    employee_code: r.employee.employee_code,
    employee_name: `${r.employee.first_name} ${r.employee.last_name}`.trim(),
    exit_id: r.exit_id,
    status: r.status as SettlementJson["status"],
    separation: r.separation as SettlementJson["separation"],
    joining_date: toDateString(r.employee.joining_date),
    resignation_date: d.resignation_date,
    last_working_day: toDateString(r.last_working_day),
    notice_period_days: r.notice_period_days,
    recover_notice_shortfall: r.recover_notice_shortfall,
    daily_wage: d.daily_wage,
    day_rate: d.day_rate ?? null,
    code_wages: d.code_wages ?? null,
    salary: d.salary,
    leave_encashment_lines: d.leave_encashment_lines,
    gratuity_detail: d.gratuity_detail,
    notice: d.notice,
    loans: d.loans,
    claims: d.claims,
    salary_net: d.salary_net,
    leave_encashment: d.leave_encashment,
    gratuity: d.gratuity,
    reimbursements: d.reimbursements,
    notice_recovery: d.notice_recovery,
    loan_recovery: d.loan_recovery,
    gratuity_interest: d.gratuity_interest ?? "0.00",
    total_payable: d.total_payable,
    total_recovery: d.total_recovery,
    net_payable: d.net_payable,
    ...(d.income_tax === undefined ? {} : { income_tax: d.income_tax, income_tax_detail: d.income_tax_detail }),
    dues: d.dues ?? null,
    warnings: settlementWarnings(r.status, { ...d, last_working_day: toDateString(r.last_working_day) }, today),
    computed_at: r.computed_at.toISOString(),
    created_by: r.created_by,
    processed_by: r.processed_by,
    processed_at: r.processed_at?.toISOString() ?? null,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}
