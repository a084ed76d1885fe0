// The baseline of `npm run bench`: the benchmark's three queries answered by a bare node:http
// server over a pg pool - the same SQL as src/modules/employees/search.ts (and one row lookup by
// id), the same `{ data, message, pagination }` JSON - but no framework, session, validation,
// tenancy layer or ORM. The tenant comes from BENCH_TENANT_ID. Started as a child process by
// scripts/bench.ts: `tsx scripts/bench-baseline.ts` with PORT and DATABASE_URL.
import http from "node:http";
import pg from "pg";

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
const tenantId = process.env.BENCH_TENANT_ID!;
const COLUMNS = `id, employee_code, first_name, last_name, email::text AS email, phone, department, designation,
  to_char(joining_date, 'YYYY-MM-DD') AS joining_date, status, reports_to, branch_id, work_location_id`;

function send(res: http.ServerResponse, status: number, body: unknown) {
  const json = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(json) });
  res.end(json);
}

async function list(q: URLSearchParams) {
  const page = Number(q.get("page") ?? 1);
  const limit = Number(q.get("limit") ?? 20);
  const params: unknown[] = [tenantId];
  let where = "tenant_id = $1 AND deleted_at IS NULL";
  const department = q.get("department");
  if (department) where += ` AND department = $${params.push(department)}`;
  const search = q.get("search");
  if (search) where += ` AND search_text LIKE $${params.push(`%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`)}`;
  const rowsSql = `SELECT ${COLUMNS} FROM employees WHERE ${where} ORDER BY last_name, first_name, id LIMIT ${limit} OFFSET ${(page - 1) * limit}`;
  const countSql = `SELECT count(*)::int AS total FROM employees WHERE ${where}`;
  let rows: any[];
  let total: number;
  if (page === 1) {
    rows = (await pool.query(rowsSql, params)).rows;
    total = rows.length < limit ? rows.length : (await pool.query(countSql, params)).rows[0].total;
  } else {
    const [r, c] = await Promise.all([pool.query(rowsSql, params), pool.query(countSql, params)]);
    rows = r.rows;
    total = c.rows[0].total;
  }
  const data = rows.map((e) => ({ view: "directory", ...e, full_name: `${e.first_name} ${e.last_name}` }));
  return { data, message: "OK", pagination: { page, limit, total, total_pages: Math.ceil(total / limit) } };
}

async function byId(id: string) {
  const { rows } = await pool.query(
    `SELECT e.*, to_char(e.joining_date, 'YYYY-MM-DD') AS joining_date, to_char(e.date_of_birth, 'YYYY-MM-DD') AS date_of_birth,
            m.user_id, x.id AS exit_id
       FROM employees e
       LEFT JOIN memberships m ON m.tenant_id = e.tenant_id AND m.employee_id = e.id
       LEFT JOIN employee_exits x ON x.tenant_id = e.tenant_id AND x.employee_id = e.id
      WHERE e.tenant_id = $1 AND e.id = $2 AND e.deleted_at IS NULL`,
    [tenantId, id],
  );
  if (!rows.length) return null;
  const { tenant_id, search_text, deleted_at, exit_id, ...e } = rows[0];
  return { data: { view: "full", ...e, full_name: `${e.first_name} ${e.last_name}`, exit: null }, message: "OK" };
}

const server = http.createServer(async (req, res) => {
  try {
    const url = new URL(req.url ?? "/", "http://localhost");
    const one = /^\/api\/employees\/([0-9a-f-]{36})$/.exec(url.pathname);
    if (url.pathname === "/api/employees") return send(res, 200, await list(url.searchParams));
    if (one) {
      const body = await byId(one[1]);
      return body ? send(res, 200, body) : send(res, 404, { error: "Employee not found", status: 404, code: "not_found" });
    }
    send(res, 404, { error: "Not found", status: 404, code: "not_found" });
  } catch {
    send(res, 500, { error: "Internal server error", status: 500, code: "internal" });
  }
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT), "127.0.0.1", () => console.log("baseline listening"));
process.on("SIGTERM", () => server.close(() => pool.end().then(() => process.exit(0))));
