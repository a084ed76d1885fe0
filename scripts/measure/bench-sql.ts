// The SQL of the benchmark's queries for the bare baseline (scripts/measure/bench-baseline.ts) and for
// `BENCH_EXPLAIN=1`: the same statements src/modules/employees/queries.ts sends.
export interface ListQuery {
  search?: string | null;
  department?: string | null;
  page: number;
  limit: number;
}
export interface Statement {
  text: string;
  values: unknown[];
}

const COLUMNS = `id, employee_code, first_name, last_name, email::text AS email, phone, department, designation,
  to_char(joining_date, 'YYYY-MM-DD') AS joining_date, status, reports_to, branch_id, work_location_id`;
const SORT_KEYS = "id, first_name, last_name, employee_code, joining_date, created_at";
const E_COLUMNS = `e.id, e.employee_code, e.first_name, e.last_name, e.email::text AS email, e.phone, e.department, e.designation,
  to_char(e.joining_date, 'YYYY-MM-DD') AS joining_date, e.status, e.reports_to, e.branch_id, e.work_location_id`;

/** `page` is the page (with `total` per row when `windowed`); `count` the separate total. */
export function listSql(tenantId: string, q: ListQuery): { page: Statement; count: Statement; windowed: boolean } {
  const values: unknown[] = [tenantId];
  let where = "tenant_id = $1 AND deleted_at IS NULL";
  if (q.department) where += ` AND department = $${values.push(q.department)}`;
  if (q.search)
    where += ` AND search_text LIKE $${values.push(
      `%${q.search
        .trim()
        .toLowerCase()
        .replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
    )}`;
  const paging = `ORDER BY last_name, first_name, id LIMIT ${q.limit} OFFSET ${(q.page - 1) * q.limit}`;
  const count = q.search
    ? { text: `SELECT count(*)::int AS total FROM employees WHERE ${where}`, values }
    : q.department
      ? {
          text:
            "SELECT coalesce(sum(live_count), 0)::int AS total FROM " +
            "employee_department_counts WHERE tenant_id = $1 AND department = $2",
          values: [tenantId, q.department],
        }
      : {
          text: "SELECT coalesce(sum(live_count), 0)::int AS total FROM employee_department_counts WHERE tenant_id = $1",
          values: [tenantId],
        };
  if (q.search)
    return {
      page: {
        text: `WITH matches AS MATERIALIZED (SELECT ${SORT_KEYS} FROM employees WHERE ${where}),
          top AS (SELECT ${SORT_KEYS}, count(*) OVER ()::int AS total FROM matches ${paging}),
          page AS (SELECT id, total, row_number() OVER (ORDER BY last_name, first_name, id) AS n FROM top)
          SELECT ${E_COLUMNS}, page.total FROM page JOIN employees e ON e.tenant_id = $1 AND e.id = page.id ORDER BY page.n`,
        values,
      },
      count,
      windowed: true,
    };
  return { page: { text: `SELECT ${COLUMNS} FROM employees WHERE ${where} ${paging}`, values }, count, windowed: false };
}

export function byIdSql(tenantId: string, id: string): Statement {
  return {
    text:
      `SELECT e.*, (SELECT m.user_id FROM memberships m WHERE m.tenant_id = ` +
      `e.tenant_id AND m.employee_id = e.id ORDER BY m.created_at LIMIT 1) AS user_id
             FROM employees e WHERE e.tenant_id = $1 AND e.id = $2 AND e.deleted_at IS NULL`,
    values: [tenantId, id],
  };
}
