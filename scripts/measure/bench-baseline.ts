// The baseline of `npm run bench`: server-time, health (SELECT 1) and the benchmark's three queries answered by a bare node:http
// server over a pg pool - the same SQL as the API (scripts/measure/bench-sql.ts), the same
// `{ data, message, pagination }` JSON - but no framework, session, validation, tenancy layer or ORM.
// The tenant comes from BENCH_TENANT_ID (an `x-bench-tenant` header answers for another company). Started as a child process by
// scripts/measure/bench.ts: `tsx scripts/measure/bench-baseline.ts` with PORT and DATABASE_URL.
import http from "node:http";
import pg from "pg";
import { byIdSql, listSql } from "./bench-sql.ts";

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
const tenantId = process.env.BENCH_TENANT_ID!;
function send(res: http.ServerResponse, status: number, body: unknown) {
  const json = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(json) });
  res.end(json);
}

async function list(tenantId: string, q: URLSearchParams) {
  const page = Number(q.get("page") ?? 1);
  const limit = Number(q.get("limit") ?? 20);
  const sql = listSql(tenantId, { search: q.get("search"), department: q.get("department"), page, limit });
  let rows: any[];
  let total: number;
  if (sql.windowed) {
    rows = (await pool.query(sql.page)).rows;
    total = rows.length ? rows[0].total : page === 1 ? 0 : (await pool.query(sql.count)).rows[0].total;
  } else {
    const [r, c] = await Promise.all([pool.query(sql.page), pool.query(sql.count)]);
    rows = r.rows;
    total = c.rows[0].total;
  }
  const data = rows.map(({ total: _, ...e }) => ({ view: "directory", ...e, full_name: `${e.first_name} ${e.last_name}` }));
  return { data, message: "OK", pagination: { page, limit, total, total_pages: Math.ceil(total / limit) } };
}

async function byId(tenantId: string, id: string) {
  const { rows } = await pool.query(byIdSql(tenantId, id));
  if (!rows.length) return null;
  const { tenant_id, search_text, deleted_at, ...e } = rows[0];
  return { data: { view: "full", ...e, full_name: `${e.first_name} ${e.last_name}`, exit: null }, message: "OK" };
}

const server = http.createServer(async (req, res) => {
  try {
    const url = new URL(req.url ?? "/", "http://localhost");
    const tenant = (req.headers["x-bench-tenant"] as string | undefined) ?? tenantId;
    const one = /^\/api\/employees\/([0-9a-f-]{36})$/.exec(url.pathname);
    if (url.pathname === "/api/employees") return send(res, 200, await list(tenant, url.searchParams));
    if (url.pathname === "/api/server-time") {
      const now = new Date();
      return send(res, 200, { data: { now: now.toISOString(), epoch_ms: now.getTime() }, message: "OK" });
    }
    if (url.pathname === "/api/health") {
      await pool.query("SELECT 1");
      return send(res, 200, { data: { status: "ok", database: "up", uptime_seconds: Math.floor(process.uptime()) }, message: "OK" });
    }
    if (one) {
      const body = await byId(tenant, one[1]);
      return body ? send(res, 200, body) : send(res, 404, { error: "Employee not found", status: 404, code: "not_found" });
    }
    send(res, 404, { error: "Not found", status: 404, code: "not_found" });
  } catch {
    send(res, 500, { error: "Internal server error", status: 500, code: "internal" });
  }
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () =>
  console.log(`listening ${(server.address() as import("node:net").AddressInfo).port}`),
);
process.on("SIGTERM", () => server.close(() => pool.end().then(() => process.exit(0))));
