// The dashboard's raw SQL (src/db/sql.ts): figures over the employees of the caller's scope.
// Other areas' figures (leave, attendance corrections, exits) come through their index.ts.
import { query, type Sql, sql, tenant } from "../../db/sql.ts";
import type { DateString } from "../../lib/dates.ts";
import type { Who } from "./scope.ts";

/** A scope as a condition on the employees alias `e`. */
function whoSql(who: Who): Sql {
  switch (who.kind) {
    case "all":
      return sql`TRUE`;
    case "team":
      return sql`(e.id = ${who.managerId}::uuid OR e.reports_to = ${who.managerId}::uuid)`;
    case "department":
      return sql`e.department = ${who.department}`;
    case "none":
      return sql`FALSE`;
  }
}

export interface HeadcountRow {
  active: number;
  inactive: number;
  on_notice: number;
  exited: number;
  joiners: number;
}

/** Live employees of the scope by status, and those who joined in [monthStart, nextMonthStart). */
export async function headcountByStatus(who: Who, monthStart: DateString, nextMonthStart: DateString): Promise<HeadcountRow> {
  const [r] = await query<HeadcountRow>(sql`
    SELECT
      count(*) FILTER (WHERE e.status = 'active')::int AS active,
      count(*) FILTER (WHERE e.status = 'inactive')::int AS inactive,
      count(*) FILTER (WHERE e.status = 'on_notice')::int AS on_notice,
      count(*) FILTER (WHERE e.status = 'exited')::int AS exited,
      count(*) FILTER (WHERE e.joining_date >= ${monthStart}::date AND e.joining_date < ${nextMonthStart}::date)::int AS joiners
    FROM employees e
    WHERE e.tenant_id = ${tenant}::uuid AND e.deleted_at IS NULL AND ${whoSql(who)}`);
  return r;
}

/** Employees of the scope not exited, per department, largest first. */
export async function departmentCounts(who: Who): Promise<{ department: string; count: number }[]> {
  return query<{ department: string; count: number }>(sql`
    SELECT e.department, count(*)::int AS count FROM employees e
    WHERE e.tenant_id = ${tenant}::uuid AND e.deleted_at IS NULL AND ${whoSql(who)} AND e.status <> 'exited'
    GROUP BY e.department ORDER BY count(*) DESC, e.department`);
}

export interface CelebrationRow {
  id: string;
  first_name: string;
  last_name: string;
  department: string;
  birthday: string | null;
  joined: DateString;
}

/** Employees of the scope (not exited) with a birthday, or a work anniversary of a past joining, on one of the days (MM-DD). */
export async function celebrationsOn(who: Who, mmdd: string[], today: DateString): Promise<CelebrationRow[]> {
  return query<CelebrationRow>(sql`
    SELECT e.id, e.first_name, e.last_name, e.department,
           CASE WHEN to_char(e.date_of_birth, 'MM-DD') = ANY(${mmdd}) THEN to_char(e.date_of_birth, 'MM-DD') END AS birthday,
           to_char(e.joining_date, 'YYYY-MM-DD') AS joined
    FROM employees e
    WHERE e.tenant_id = ${tenant}::uuid AND e.deleted_at IS NULL AND ${whoSql(who)} AND e.status <> 'exited'
      AND (to_char(e.date_of_birth, 'MM-DD') = ANY(${mmdd}) OR (to_char(e.joining_date,
        'MM-DD') = ANY(${mmdd}) AND e.joining_date < ${today}::date))`);
}
