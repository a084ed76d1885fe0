// The leave area's test data, used by the attendance, dashboard and payroll tests too: a company with
// a current leave period and its members (leaveWorld), leave types and allocations through the typed
// client, and the check that the kept balance totals equal the ledger. Employees are inserted by SQL
// (insertEmployee of test/support/employees.ts: the employee operations live in another area).
import { addDays, weekday } from "../../src/lib/dates.ts";
import { api, type RequestBodyOf } from "../support/api.ts";
import { addMember, signupTenant, type TenantSession, type TestContext } from "../support/app.ts";
import { today } from "../support/clock.ts";
import { insertEmployee } from "../support/employees.ts";

export { type EmployeeOverrides, insertEmployee } from "../support/employees.ts";

let seq = 0;

/** Today in the tenants' time zone by the server's clock (test/support/clock.ts). */
export { today };

/** The first date on or after `from` that is the given weekday (0 = Sunday). */
export function nextWeekday(from: string, day: number): string {
  let d = from;
  while (weekday(d) !== day) d = addDays(d, 1);
  return d;
}

export interface LeaveWorld {
  owner: TenantSession;
  hr: TenantSession;
  manager: TenantSession;
  employee: TenantSession;
  managerEmployeeId: string;
  employeeId: string;
  periodId: string;
  periodStart: string;
  periodEnd: string;
}

/**
 * A company with a current leave period around today (today - 150 … today + 200 days), weekly
 * offs Saturday/Sunday (the default), an hr member, a manager and an employee reporting to them.
 */
export async function leaveWorld(ctx: TestContext): Promise<LeaveWorld> {
  const owner = await signupTenant(ctx);
  const managerEmployeeId = await insertEmployee(ctx, owner.tenantId, { first_name: "Maya", last_name: "Manager", designation: "Lead" });
  const employeeId = await insertEmployee(ctx, owner.tenantId, { first_name: "Eli", last_name: "Employee", reports_to: managerEmployeeId });
  const [hr, manager, employee] = await Promise.all([
    addMember(ctx, owner, "hr", { name: "Hana HR" }),
    addMember(ctx, owner, "manager", { employeeId: managerEmployeeId, name: "Maya Manager" }),
    addMember(ctx, owner, "employee", { employeeId, name: "Eli Employee" }),
  ]);
  const t = today();
  const periodStart = addDays(t, -150);
  const periodEnd = addDays(t, 200);
  const p = await api(hr.agent)
    .op("createLeavePeriod", { body: { name: "Current", start_date: periodStart, end_date: periodEnd, is_current: true } })
    .expect(201);
  return { owner, hr, manager, employee, managerEmployeeId, employeeId, periodId: p.body.data.id, periodStart, periodEnd };
}

/** Creates a leave type through the API (code made unique unless given) and returns it. */
export async function createType(agent: TenantSession["agent"], body: Partial<RequestBodyOf<"createLeaveType">> = {}) {
  return (
    await api(agent)
      .op("createLeaveType", { body: { name: "Casual leave", code: `T${++seq}`, ...body } })
      .expect(201)
  ).body.data;
}

/** A leave type as the API answers it. */
export type LeaveType = Awaited<ReturnType<typeof createType>>;

/** Gives an employee `days` of a type in the current period (individual allocation, up front). */
export async function grant(agent: TenantSession["agent"], employeeId: string, leaveTypeId: string, days: string): Promise<void> {
  const res = await api(agent)
    .op("createLeaveAllocations", { body: { employee_id: employeeId, leave_type_id: leaveTypeId, days } })
    .expect(201);
  if (res.body.data.created_count !== 1) throw new Error(`allocation: ${JSON.stringify(res.body)}`);
}

/** An employee's balance of one leave type in the current period, as hr reads it (listLeaveBalances). */
export async function balanceOf(hr: TenantSession, employeeId: string, leaveTypeId: string) {
  return (
    await api(hr.agent)
      .op("listLeaveBalances", { query: { employee_id: employeeId, leave_type_id: leaveTypeId } })
      .expect(200)
  ).body.data[0];
}

/**
 * The accounts whose leave_balance_totals row (kept by triggers, migration
 * 20261127081556_leave_balance_totals) differs from the sums of the ledger entries by kind and of
 * the pending leave requests and encashments, or whose `figures` text is not those sums as the
 * balances page writes them, in the file's whole database (every tenant): each as
 * `{ key, kept, summed }`. Empty when every total is exact; an account without rows may have a
 * total of zeros.
 */
export async function balanceTotalDrift(ctx: TestContext): Promise<{ key: string; kept: string; summed: string }[]> {
  return ctx.query(`
    WITH summed AS (
      SELECT u.tenant_id, u.employee_id, u.period_id, u.leave_type_id,
             concat_ws(' ',
               coalesce(sum(u.days) FILTER (WHERE u.kind = 'allocation'), 0.0),
               coalesce(sum(u.days) FILTER (WHERE u.kind = 'carry_forward'), 0.0),
               coalesce(sum(u.days) FILTER (WHERE u.kind = 'accrual'), 0.0),
               coalesce(sum(u.days) FILTER (WHERE u.kind = 'comp_off'), 0.0),
               coalesce(sum(u.days) FILTER (WHERE u.kind = 'adjustment'), 0.0),
               coalesce(sum(u.days) FILTER (WHERE u.kind = 'expiry'), 0.0),
               coalesce(sum(u.days) FILTER (WHERE u.kind IN ('taken', 'cancelled')), 0.0),
               coalesce(sum(u.days) FILTER (WHERE u.kind = 'encashed'), 0.0),
               coalesce(sum(u.days) FILTER (WHERE u.kind <> 'pending'), 0.0),
               count(*) FILTER (WHERE u.kind <> 'pending'),
               count(*) FILTER (WHERE u.kind IN ('carry_forward', 'comp_off') AND u.expires_on IS NOT NULL),
               coalesce(sum(u.days) FILTER (WHERE u.kind = 'pending'), 0.0),
               count(*) FILTER (WHERE u.kind = 'pending')) AS figures
        FROM (SELECT l.tenant_id, l.employee_id, l.period_id, l.leave_type_id, l.entry_type AS kind, l.days, l.expires_on
                FROM leave_ledger_entries l
              UNION ALL
              SELECT q.tenant_id, q.employee_id, q.period_id, q.leave_type_id, 'pending', q.days, NULL
                FROM leave_requests q WHERE q.status = 'pending'
              UNION ALL
              SELECT x.tenant_id, x.employee_id, x.period_id, x.leave_type_id, 'pending', x.days, NULL
                FROM leave_encashments x WHERE x.status = 'pending') u
       GROUP BY u.tenant_id, u.employee_id, u.period_id, u.leave_type_id
    ), kept AS (
      SELECT b.tenant_id, b.employee_id, b.period_id, b.leave_type_id,
             concat_ws(' ', b.allocated, b.carried, b.accrued, b.comp_off, b.adjusted, b.expired, b.taken, b.encashed,
                       b.ledger, b.entries, b.expiring, b.pending, b.pendings,
                       -- the JSON text of the figures, as LeaveBalance writes them
                       CASE WHEN b.figures = format('"allocated":"%s","carried":"%s","accrued":"%s","comp_off":"%s",'
                                                    '"adjusted":"%s","expired":"%s","taken":"%s","pending":"%s",'
                                                    '"encashed":"%s","available":"%s"', b.allocated, b.carried,
                                                    b.accrued, b.comp_off, b.adjusted, -b.expired, -b.taken, b.pending,
                                                    -b.encashed, b.ledger - b.pending)
                            THEN '' ELSE 'figures: ' || b.figures END) AS figures
        FROM leave_balance_totals b
    )
    SELECT concat_ws(':', tenant_id, employee_id, period_id, leave_type_id) AS key, k.figures AS kept, s.figures AS summed
      FROM kept k FULL JOIN summed s USING (tenant_id, employee_id, period_id, leave_type_id)
     WHERE k.figures IS DISTINCT FROM coalesce(s.figures, '0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0 0 0.0 0') || ' '`);
}
