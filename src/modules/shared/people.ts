// Who may see and act on whose requests and records (outside the caller's view: a 404), and the lock that
// serialises every change to one employee's balances and requests.
import { lock, tenantLock } from "../../db/primitives.ts";
import { db, type ScopedTx } from "../../db/tenancy.ts";
import { conflict, forbidden, invalidField, notFound } from "../../platform/errors.ts";
import type { AuthContext } from "../../platform/use-case.ts";
import { assertNotOwnRecord, isHr, isLinkedRecord, isOwnRecord, OWN_RECORD } from "./access.ts";

/** `null` = every employee of the tenant; otherwise the ids the caller may see. */
export type Scope = string[] | null;

export async function visibleEmployees(auth: AuthContext): Promise<Scope> {
  if (isHr(auth)) return null;
  if (!auth.employeeId) return [];
  if (auth.role !== "manager") return [auth.employeeId];
  const reports = await db.employee.findMany({ where: { reports_to: auth.employeeId, deleted_at: null }, select: { id: true } });
  return [auth.employeeId, ...reports.map((r) => r.id)];
}

/** Prisma `employee_id` filter combining the caller's scope with an optional requested employee. */
export function employeeFilter(scope: Scope, requested?: string): { employee_id?: string | { in: string[] } } {
  if (scope === null) return requested ? { employee_id: requested } : {};
  if (requested) return scope.includes(requested) ? { employee_id: requested } : { employee_id: { in: [] } };
  return { employee_id: { in: scope } };
}

export async function assertVisible(auth: AuthContext, employeeId: string, what = "Employee"): Promise<void> {
  const scope = await visibleEmployees(auth);
  if (scope !== null && !scope.includes(employeeId)) throw notFound(what);
}

/** The employee a new request is for: the caller's own record unless hr/admin/owner name another. */
export function targetEmployee(auth: AuthContext, requested?: string): string {
  if (requested && requested !== auth.employeeId) {
    if (!isHr(auth)) throw forbidden("Only hr, admin or owner can submit this for another employee");
    return requested;
  }
  if (requested) return requested;
  if (!auth.employeeId) throw invalidField("body.employee_id", "is required: your account is not linked to an employee record");
  return auth.employeeId;
}

export interface EmployeeFacts {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  reports_to: string | null;
  joining_date: Date;
  gender: string | null;
  employment_type: string;
  status: string;
  branch_id: string | null;
  work_location_id: string | null;
}
export const employeeFactsSelect = {
  id: true,
  first_name: true,
  last_name: true,
  email: true,
  reports_to: true,
  joining_date: true,
  gender: true,
  employment_type: true,
  status: true,
  branch_id: true,
  work_location_id: true,
} as const;

export async function loadEmployee(id: string): Promise<EmployeeFacts> {
  const e = await db.employee.findFirst({ where: { id, deleted_at: null }, select: employeeFactsSelect });
  if (!e) throw notFound("Employee");
  return e;
}

export const fullName = (e: { first_name: string; last_name: string }) => `${e.first_name} ${e.last_name}`.trim();

const isManagerOf = (auth: AuthContext, e: { reports_to: string | null }) =>
  auth.role === "manager" && Boolean(auth.employeeId) && e.reports_to === auth.employeeId;

/** The 403 of a decision on one's own request (assertNotOwnRecord). */
export const OWN_REQUEST = `You cannot decide your own request: ${OWN_RECORD}`;

/**
 * Approve/reject: the employee's manager (when allowed) or hr/admin/owner, never the employee -
 * except the company's owner on their own request (assertNotOwnRecord).
 */
export function assertCanDecide(
  auth: AuthContext,
  e: { id: string; reports_to: string | null },
  opts: { manager: boolean } = { manager: true },
): void {
  assertNotOwnRecord(auth, e.id, OWN_REQUEST);
  if (isHr(auth)) return;
  if (opts.manager && isManagerOf(auth, e)) return;
  throw forbidden(
    opts.manager
      ? "Only the employee's manager or hr/admin/owner can decide this request"
      : "Only hr, admin or owner can decide this request",
  );
}

const NOT_YOURS = "Only the employee, their manager or hr, admin or owner can cancel this request";

/**
 * Cancel: pending by the employee, their manager or hr/admin/owner; approved by hr/admin/owner at
 * any time and by the employee or manager only before it starts (when `approvedBySelf` allows it).
 * hr/admin cancelling their own approved request have only the employee's say (the balance or pay
 * it gives back is a decision on their own record: assertNotOwnRecord); the owner may.
 */
export function assertCanCancel(
  auth: AuthContext,
  e: { id: string; reports_to: string | null },
  status: string,
  opts: { started: boolean; approvedBySelf: boolean },
): void {
  const own = isOwnRecord(auth, e.id);
  const mine = isLinkedRecord(auth, e.id) || isManagerOf(auth, e) || isHr(auth);
  if (status === "pending") {
    if (!mine) throw forbidden(NOT_YOURS);
    return;
  }
  if (status === "approved") {
    if (isHr(auth) && own && !(opts.approvedBySelf && !opts.started))
      assertNotOwnRecord(
        auth,
        e.id,
        `You cannot cancel your own approved request${opts.approvedBySelf ? " once it has started" : ""}: ${OWN_RECORD}`,
      );
    if (isHr(auth)) return;
    if (!mine) throw forbidden(NOT_YOURS);
    if (!opts.approvedBySelf) throw forbidden("Only hr, admin or owner can cancel an approved request");
    if (opts.started) throw conflict("The request has already started; only hr, admin or owner can cancel it now");
    return;
  }
  throw conflict(`A ${status} request cannot be cancelled`);
}

/**
 * Serialises changes to these employees' balances and requests for the transaction: a shared lock on the
 * tenant's leave data (bulk allocation takes it exclusively) and one per employee, in id order (no deadlock).
 */
export async function lockEmployees(tx: ScopedTx, employeeIds: string[]): Promise<void> {
  await lock(tx, tenantLock("leave-tenant"), { shared: true });
  for (const id of [...new Set(employeeIds)].sort()) await lock(tx, tenantLock("leave", id));
}

/** Exclusive lock on the tenant's leave data (bulk allocation, which debits previous periods). */
export async function lockTenantLeave(tx: ScopedTx): Promise<void> {
  await lock(tx, tenantLock("leave-tenant"));
}
