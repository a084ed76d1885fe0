// Factories for the leave and attendance tests. Employees are inserted by SQL (insertEmployee of
// ./employees.ts: the employee CRUD operations live in another area), everything else goes
// through the API.
import { addDays, todayIn, weekday } from "../../src/lib/dates.ts";
import { addMember, signupTenant, type TenantSession, type TestContext } from "./app.ts";

import { insertEmployee } from "./employees.ts";

export { type EmployeeOverrides, insertEmployee } from "./employees.ts";

let seq = 0;

/** Today (UTC, as the tests' tenants use the default Asia/Kolkata zone this is the tenant's date or close to it). */
export function today(timeZone = "Asia/Kolkata"): string {
  return todayIn(timeZone);
}

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
  const p = await hr.agent
    .post("/api/leave-periods")
    .send({ name: "Current", start_date: periodStart, end_date: periodEnd, is_current: true });
  if (p.status !== 201) throw new Error(`period: ${p.status} ${JSON.stringify(p.body)}`);
  return { owner, hr, manager, employee, managerEmployeeId, employeeId, periodId: p.body.data.id, periodStart, periodEnd };
}

/** Creates a leave type through the API (code made unique unless given) and returns it. */
export async function createType(agent: TenantSession["agent"], body: Record<string, unknown> = {}): Promise<any> {
  const res = await agent.post("/api/leave-types").send({ name: "Casual leave", code: `T${++seq}`, ...body });
  if (res.status !== 201) throw new Error(`leave type: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** Gives an employee `days` of a type in the current period (individual allocation, up front). */
export async function grant(agent: TenantSession["agent"], employeeId: string, leaveTypeId: string, days: string): Promise<void> {
  const res = await agent.post("/api/leave-allocations").send({ employee_id: employeeId, leave_type_id: leaveTypeId, days });
  if (res.status !== 201 || res.body.data.created_count !== 1) throw new Error(`allocation: ${res.status} ${JSON.stringify(res.body)}`);
}
