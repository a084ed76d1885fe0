// Whose figures the dashboard shows the caller:
//   company    owner, admin, hr - every live employee
//   team       manager - themselves and their direct reports
//   department employee - the live employees of their own department
//   self       an employee without a linked record - nothing to show
import type { Prisma } from "../../../generated/prisma/client.ts";
import { db } from "../../db/tenancy.ts";
import type { AuthContext } from "../../platform/use-case.ts";
import { isHr } from "../shared/access.ts";

export type Scope = "company" | "team" | "department" | "self";

/** The employees a scope covers (besides being live). */
export type Who = { kind: "all" } | { kind: "team"; managerId: string } | { kind: "department"; department: string } | { kind: "none" };

export async function scopeOf(auth: AuthContext): Promise<{ scope: Scope; who: Who }> {
  if (isHr(auth)) return { scope: "company", who: { kind: "all" } };
  const me = auth.employeeId
    ? await db.employee.findFirst({ where: { id: auth.employeeId, deleted_at: null }, select: { id: true, department: true } })
    : null;
  if (!me) return { scope: "self", who: { kind: "none" } };
  if (auth.role === "manager") return { scope: "team", who: { kind: "team", managerId: me.id } };
  return { scope: "department", who: { kind: "department", department: me.department } };
}

/** The live employees of a scope as a Prisma filter. */
export function liveEmployeesOf(who: Who): Prisma.EmployeeWhereInput {
  const live = { deleted_at: null };
  switch (who.kind) {
    case "all":
      return live;
    case "team":
      return { ...live, OR: [{ id: who.managerId }, { reports_to: who.managerId }] };
    case "department":
      return { ...live, department: who.department };
    case "none":
      return { ...live, id: { in: [] } };
  }
}
