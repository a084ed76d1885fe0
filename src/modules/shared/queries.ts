// The raw SQL of the shared policy (src/db/sql.ts).
import { query, type Sql, sql, tenant } from "../../db/sql.ts";
import type { ScopedTx } from "../../db/tenancy.ts";
import type { AuthContext } from "../../platform/use-case.ts";
import { isHr } from "./access.ts";

/** The caller's scope as a condition on the employees alias `e`: visibleEmployees()'s rule (people.ts) for raw reads. */
export function employeeScopeSql(auth: AuthContext): Sql {
  if (isHr(auth)) return sql`TRUE`;
  if (!auth.employeeId) return sql`FALSE`;
  if (auth.role !== "manager") return sql`e.id = ${auth.employeeId}::uuid`;
  return sql`(e.id = ${auth.employeeId}::uuid OR e.reports_to = ${auth.employeeId}::uuid)`;
}

/** The active tenant's weekly offs and time zone, on the caller's transaction when given. */
export async function companyWorkWeek(
  client?: Pick<ScopedTx, "$queryRaw" | "$executeRaw">,
): Promise<{ weekly_offs: number[]; timezone: string }> {
  const [row] = await query<{ weekly_offs: number[]; timezone: string }>(
    sql`SELECT t.weekly_offs, t.timezone FROM tenants t WHERE t.id = ${tenant}::uuid`,
    client,
  );
  return row;
}
