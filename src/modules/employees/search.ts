// The employee list: the one hot query of this area, in raw SQL so that it uses exactly the indexes
// built for it (prisma/schema/employees.prisma) - checked with EXPLAIN ANALYZE on 100 000
// employees in one tenant:
//   - every query is `tenant_id = $tenant AND deleted_at IS NULL AND …`, matching the partial
//     indexes;
//   - `search` is `search_text LIKE '%term%'` on a lower-cased copy of name/code/email/phone,
//     answered by the pg_trgm GIN index (terms of 3+ characters), or, when the term is common, by
//     walking the name index and filtering until the page is full;
//   - `department` walks employees_live_department_idx in name order (an OFFSET reads index
//     entries, no sort of the whole department);
//   - the page and the exact total run in parallel; the total is not queried at all when the page
//     itself shows it (a short page).
// The tenant id comes from currentTenantId(), never from the caller.
import { Prisma } from "../../../generated/prisma/client.ts";
import { currentTenantId, db } from "../../db/tenancy.ts";
import type { Page } from "../../http/envelope.ts";
import type { QueryParams } from "../../http/types.ts";
import type { DirectoryFields } from "./records.ts";

export type EmployeeListQuery = QueryParams<"listEmployees">;
type Sort = NonNullable<EmployeeListQuery["sort"]>;

const ORDER: Record<Sort, Prisma.Sql> = {
  name: Prisma.sql`last_name, first_name, id`,
  "-name": Prisma.sql`last_name DESC, first_name DESC, id DESC`,
  employee_code: Prisma.sql`employee_code, id`,
  "-employee_code": Prisma.sql`employee_code DESC, id DESC`,
  joining_date: Prisma.sql`joining_date, id`,
  "-joining_date": Prisma.sql`joining_date DESC, id DESC`,
  created_at: Prisma.sql`created_at, id`,
  "-created_at": Prisma.sql`created_at DESC, id DESC`,
};

const COLUMNS = Prisma.sql`id, employee_code, first_name, last_name, email::text AS email, phone, department, designation,
  to_char(joining_date, 'YYYY-MM-DD') AS joining_date, status, reports_to, branch_id, work_location_id`;

/** `%term%` for LIKE, with the term lower-cased (as search_text is) and its wildcards escaped. */
export function containsPattern(term: string): string {
  return `%${term.trim().toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export async function listEmployeeDirectory(q: EmployeeListQuery, page: Page): Promise<{ rows: DirectoryFields[]; total: number }> {
  const conds = [Prisma.sql`tenant_id = ${currentTenantId()}::uuid`, Prisma.sql`deleted_at IS NULL`];
  if (q.department !== undefined) conds.push(Prisma.sql`department = ${q.department}`);
  if (q.status !== undefined) conds.push(Prisma.sql`status = ${q.status}`);
  if (q.reports_to !== undefined) conds.push(Prisma.sql`reports_to = ${q.reports_to}::uuid`);
  if (q.search !== undefined && q.search.trim() !== "") conds.push(Prisma.sql`search_text LIKE ${containsPattern(q.search)}`);
  const where = Prisma.join(conds, " AND ");

  const rowsQuery = db.$queryRaw<DirectoryFields[]>`SELECT ${COLUMNS} FROM employees WHERE ${where} ORDER BY ${ORDER[q.sort ?? "name"]} LIMIT ${page.limit} OFFSET ${page.skip}`;
  // A page that is not full (and not past the end) already tells the total.
  if (page.skip === 0) {
    const rows = await rowsQuery;
    if (rows.length < page.limit) return { rows, total: rows.length };
    const [{ total }] = await db.$queryRaw<{ total: number }[]>`SELECT count(*)::int AS total FROM employees WHERE ${where}`;
    return { rows, total };
  }
  const [rows, [{ total }]] = await Promise.all([rowsQuery, db.$queryRaw<{ total: number }[]>`SELECT count(*)::int AS total FROM employees WHERE ${where}`]);
  return { rows, total };
}
