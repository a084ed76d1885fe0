// What an allocation request asks for, before anything is written: its fields checked together, then
// each employee/type to allocate (every employee the named policy applies to, or one employee from
// their policy or an explicit number of days) and those skipped with a reason.
import type { AuthContext, RequestBody } from "../../platform/use-case.ts";
import { db } from "../../db/tenancy.ts";
import { toDateString } from "../../lib/dates.ts";
import { badRequest, conflict, invalidField, notFound } from "../../platform/errors.ts";
import { assertNotOwnRecord, OWN_RECORD } from "../shared/access.ts";
import { loadEmployee } from "../shared/people.ts";
import type { AccrualDay, AccrualMode } from "./accrual.ts";
import { type Emp, empSelect, type Skip, type Want } from "./allocate.ts";
import { days } from "./days.ts";
import type { PeriodRow } from "./periods.ts";
import { applicablePolicy, loadActivePolicies, typeApplies } from "./policy-match.ts";

type Body = RequestBody<"createLeaveAllocations">;
type Policy = Awaited<ReturnType<typeof loadActivePolicies>>[number];
type LeaveTypes = Map<string, Awaited<ReturnType<typeof db.leaveType.findMany>>[number]>;

/** The combinations of fields an allocation request cannot have (400). */
export function checkAllocationBody(body: Body): void {
  if (body.leave_type_id && !body.employee_id) throw invalidField("body.leave_type_id", "needs employee_id");
  if (body.days !== undefined && !body.leave_type_id) throw invalidField("body.days", "needs leave_type_id");
  if (body.days !== undefined && body.policy_id) throw invalidField("body.days", "cannot be combined with policy_id");
  if ((body.accrual || body.accrual_day) && body.days === undefined)
    throw invalidField("body.accrual", "and accrual_day are only for an explicit number of days");
  if (!body.policy_id && !body.employee_id)
    throw badRequest("Give policy_id (bulk) or employee_id (individual)", [{ path: "body", message: "needs policy_id or employee_id" }]);
}

/**
 * The employees/types the request allocates in `period` and those skipped with a reason; `self`:
 * an individual allocation to the caller's own record (assertNotOwnRecord).
 */
export async function wantedAllocations(
  auth: AuthContext,
  body: Body,
  period: PeriodRow,
): Promise<{ wants: Want[]; skipped: Skip[]; self: boolean }> {
  const types: LeaveTypes = new Map((await db.leaveType.findMany()).map((t) => [t.id, t]));
  const policies = await loadActivePolicies(db);
  let named = null as Policy | null;
  if (body.policy_id) {
    const p = await db.leavePolicy.findFirst({ where: { id: body.policy_id } });
    if (!p) throw notFound("Leave policy");
    if (!p.active) throw conflict("The policy is inactive");
    named = policies.find((x) => x.id === p.id)!;
  }
  const wants: Want[] = [];
  const skipped: Skip[] = [];
  const addItems = policyItems(types, wants, skipped);
  if (!body.employee_id) {
    const emps = await db.employee.findMany({
      where: { deleted_at: null, status: { not: "exited" }, joining_date: { lte: period.end_date } },
      select: empSelect,
    });
    for (const e of emps) if (applicablePolicy(policies, e)?.id === named!.id) addItems(e, named!);
    return { wants, skipped, self: false };
  }
  const self = await individualWants(auth, body, period, { types, policies, named, wants, skipped, addItems });
  return { wants, skipped, self };
}

/**
 * Adds the items of a policy for an employee (of one type with `onlyType`) to `wants`, or to
 * `skipped` with the reason; returns how many items the policy had.
 */
function policyItems(types: LeaveTypes, wants: Want[], skipped: Skip[]) {
  return (emp: Emp, policy: Policy, onlyType?: string) => {
    const items = policy.items.filter((i) => !onlyType || i.leave_type_id === onlyType);
    for (const i of items) {
      const type = types.get(i.leave_type_id)!;
      if (!type.active) skipped.push({ employee_id: emp.id, leave_type_id: type.id, reason: "leave type is inactive" });
      else if (!typeApplies(type, emp))
        skipped.push({ employee_id: emp.id, leave_type_id: type.id, reason: "leave type does not apply to the employee" });
      else
        wants.push({
          emp,
          type,
          policyId: policy.id,
          quota: days(i.annual_quota),
          accrual: i.accrual as AccrualMode,
          accrualDay: i.accrual_day as AccrualDay,
        });
    }
    return items.length;
  };
}

/** One employee's allocation: from their policy (or the named one), or an explicit number of days. */
async function individualWants(
  auth: AuthContext,
  body: Body,
  period: PeriodRow,
  c: {
    types: LeaveTypes;
    policies: Policy[];
    named: Policy | null;
    wants: Want[];
    skipped: Skip[];
    addItems: ReturnType<typeof policyItems>;
  },
): Promise<boolean> {
  const employeeId = body.employee_id!;
  await loadEmployee(employeeId);
  // a bulk allocation applies a policy to everyone it covers; an individual one is a decision on that record
  const self = assertNotOwnRecord(auth, employeeId, `You cannot allocate leave to yourself: ${OWN_RECORD}`);
  const emp = (await db.employee.findFirst({ where: { id: employeeId }, select: { ...empSelect, status: true } }))!;
  if (emp.status === "exited") throw conflict("The employee has exited");
  if (toDateString(emp.joining_date) > toDateString(period.end_date)) throw conflict("The employee joins after the end of the period");
  if (body.leave_type_id && !c.types.has(body.leave_type_id)) throw notFound("Leave type");
  if (body.days !== undefined) {
    const type = c.types.get(body.leave_type_id!)!;
    if (!type.active) throw conflict("The leave type is inactive");
    if (!typeApplies(type, emp)) throw conflict("The leave type does not apply to this employee");
    c.wants.push({
      emp,
      type,
      policyId: null,
      days: days(body.days),
      accrual: body.accrual ?? "upfront",
      accrualDay: body.accrual_day ?? "first_day",
    });
  } else {
    const policy = c.named ?? applicablePolicy(c.policies, emp);
    if (!policy) throw conflict("No active leave policy applies to this employee; name policy_id or give days");
    if (!c.addItems(emp, policy, body.leave_type_id)) throw conflict("The policy has no quota for this leave type; give days instead");
    if (body.leave_type_id && !c.wants.length)
      throw conflict(c.skipped[0]?.reason ? `Cannot allocate: ${c.skipped[0].reason}` : "Cannot allocate this leave type");
  }
  return self;
}
