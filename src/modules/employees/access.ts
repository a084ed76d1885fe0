// Row-level access to employee records, on top of the operation's x-roles (docs/security.md, "Own-record
// rule" and "Masked identifiers"): owner/admin/hr and the employee themselves the complete record, a
// manager their reports' with pay identifiers masked, everyone else the directory projection or a 404.
import type { Employee } from "../../../generated/prisma/client.ts";
import { db } from "../../db/tenancy.ts";
import { notFound } from "../../platform/errors.ts";
import type { AuthContext } from "../../platform/use-case.ts";
import { isHr } from "../shared/access.ts";

export type Access = "full" | "masked" | "directory";

export function accessTo(auth: Pick<AuthContext, "role" | "employeeId">, e: Pick<Employee, "id" | "reports_to">): Access {
  if (isHr(auth)) return "full";
  if (auth.employeeId && auth.employeeId === e.id) return "full";
  if (auth.role === "manager" && auth.employeeId && e.reports_to === auth.employeeId) return "masked";
  return "directory";
}

/** The live employee or 404. */
export async function loadLiveEmployee(id: string): Promise<Employee> {
  const e = await db.employee.findFirst({ where: { id, deleted_at: null } });
  if (!e) throw notFound("Employee");
  return e;
}

/** The live employee if the caller may see the complete record (self, manager, privileged), else 404. */
export async function loadVisibleEmployee(
  auth: AuthContext,
  id: string,
): Promise<{ employee: Employee; access: Exclude<Access, "directory"> }> {
  const employee = await loadLiveEmployee(id);
  const access = accessTo(auth, employee);
  if (access === "directory") throw notFound("Employee");
  return { employee, access };
}

/** The live employee if it is the caller's own record or the caller is privileged, else 404 (self-service actions). */
export async function loadSelfOrPrivileged(auth: AuthContext, id: string): Promise<Employee> {
  if (!isHr(auth) && auth.employeeId !== id) throw notFound("Employee");
  return loadLiveEmployee(id);
}
