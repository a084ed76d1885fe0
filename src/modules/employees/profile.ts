// Reading one employee: the profile (complete record, masked record or directory entry, by the
// caller's row-level access - access.ts) and its activity log.
import type { Prisma } from "../../../generated/prisma/client.ts";
import type { OperationId } from "../../../generated/registry.ts";
import { auditEntryJson } from "../../platform/audit.ts";
import { db } from "../../db/tenancy.ts";
import { type Listing, type PageQuery, pageOf } from "../../platform/use-case.ts";
import { type Walk, walkPage } from "../../db/keyset.ts";
import { notFound } from "../../platform/errors.ts";
import { type AuthContext, mayCall, type Role } from "../../platform/use-case.ts";
import { accessTo, loadVisibleEmployee } from "./access.ts";
import { activityKeys, employeeWithUser, type EmployeeWithUser } from "./queries.ts";
import { directoryJson, employeeJson } from "./views.ts";

/** The live employee with the member account linked to it and the exit (one prepared statement on the pool), or 404. */
export async function loadEmployeeWithUser(id: string): Promise<EmployeeWithUser> {
  const row = await employeeWithUser(id);
  if (!row) throw notFound("Employee");
  return row;
}

/** The complete record's JSON for a privileged caller, reloaded after a change. */
export async function fullEmployeeJson(id: string) {
  const e = await loadEmployeeWithUser(id);
  return employeeJson(e, { access: "full", exit: e.exit, userId: e.user_id });
}

/** An employee as the caller may see them: the complete record (masked for a manager) or the directory entry. */
export async function employeeProfile(auth: AuthContext, id: string) {
  const e = await loadEmployeeWithUser(id);
  const access = accessTo(auth, e);
  if (access === "directory") return directoryJson(e);
  return employeeJson(e, { access, exit: e.exit, userId: e.user_id });
}

/**
 * Entries of an employee's log about a record that an operation of its own guards: shown only to
 * callers who may call that operation (its roles and module). Salary setups carry the monthly CTC,
 * which only payroll readers may see.
 */
const READ_ELSEWHERE: readonly { actionPrefix: string; readBy: OperationId }[] = [
  { actionPrefix: "salary_setup.", readBy: "getEmployeeSalarySetup" },
];

/** Who may see the actor's e-mail address and IP of an entry. */
const ACTOR_DETAIL_ROLES: readonly Role[] = ["owner", "admin"];

/** A page of the employee's activity log, newest first, leaving out (and not counting) entries the caller may not read. */
export async function employeeActivity(
  auth: AuthContext,
  id: string,
  query: PageQuery,
  walk: Walk | null = null,
): Promise<Listing<ReturnType<typeof auditEntryJson>>> {
  await loadVisibleEmployee(auth, id);
  const page = pageOf(query);
  const hidden = READ_ELSEWHERE.filter((r) => !mayCall(auth, r.readBy));
  const where: Prisma.AuditLogWhereInput = {
    entity_type: "employee",
    entity_id: id,
    ...(hidden.length ? { NOT: hidden.map((r) => ({ action: { startsWith: r.actionPrefix } })) } : {}),
  };
  const actorDetails = ACTOR_DETAIL_ROLES.includes(auth.role);
  // a walk in the order of change (docs/integrations-sync.md): the log only grows, so its new entries
  if (walk) {
    const { rows, last } = await walkPage(
      walk,
      (after, n) => activityKeys(walk, after, n),
      (ids) => db.auditLog.findMany({ where: { ...where, id: { in: ids } } }),
    );
    return { rows: rows.map((r) => auditEntryJson(r, { actorDetails })), walk, last };
  }
  const [rows, total] = await Promise.all([
    db.auditLog.findMany({ where, orderBy: [{ created_at: "desc" }, { id: "desc" }], skip: page.skip, take: page.limit }),
    db.auditLog.count({ where }),
  ]);
  return { rows: rows.map((r) => auditEntryJson(r, { actorDetails })), page, total };
}
