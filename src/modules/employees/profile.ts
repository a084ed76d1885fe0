// Reading one employee: the profile (complete record, masked record or directory entry, by the
// caller's row-level access - access.ts) and its activity log.
import type { Employee } from "../../../generated/prisma/client.ts";
import { auditEntryJson } from "../../audit.ts";
import { db } from "../../db/tenancy.ts";
import { type PageQuery, pageOf } from "../../http/envelope.ts";
import { notFound } from "../../http/errors.ts";
import type { AuthContext } from "../../http/types.ts";
import { accessTo, loadVisibleEmployee } from "./access.ts";
import { employeeWithUser, type EmployeeWithUser } from "./queries.ts";
import { directoryJson, employeeJson, type ExitWithChecklist } from "./views.ts";

/** The exit record: only employees on notice or exited have one. */
export async function exitOf(e: Pick<Employee, "id" | "status">): Promise<ExitWithChecklist | null> {
  if (e.status !== "on_notice" && e.status !== "exited") return null;
  return db.employeeExit.findFirst({ where: { employee_id: e.id }, include: { checklist: true } });
}

/** The live employee with the member account linked to it (one prepared statement on the pool), or 404. */
export async function loadEmployeeWithUser(id: string): Promise<EmployeeWithUser> {
  const row = await employeeWithUser(id);
  if (!row) throw notFound("Employee");
  return row;
}

/** The complete record's JSON for a privileged caller, reloaded after a change. */
export async function fullEmployeeJson(id: string) {
  const e = await loadEmployeeWithUser(id);
  return employeeJson(e, { access: "full", exit: await exitOf(e), userId: e.user_id });
}

/** An employee as the caller may see them: the complete record (masked for a manager) or the directory entry. */
export async function employeeProfile(auth: AuthContext, id: string) {
  const e = await loadEmployeeWithUser(id);
  const access = accessTo(auth, e);
  if (access === "directory") return directoryJson(e);
  return employeeJson(e, { access, exit: await exitOf(e), userId: e.user_id });
}

/** A page of the employee's activity log (newest first), for callers who may see the complete record. */
export async function employeeActivity(auth: AuthContext, id: string, query: PageQuery) {
  await loadVisibleEmployee(auth, id);
  const page = pageOf(query);
  const where = { entity_type: "employee", entity_id: id };
  const [rows, total] = await Promise.all([
    db.auditLog.findMany({ where, orderBy: [{ created_at: "desc" }, { id: "desc" }], skip: page.skip, take: page.limit }),
    db.auditLog.count({ where }),
  ]);
  return { rows: rows.map(auditEntryJson), page, total };
}
