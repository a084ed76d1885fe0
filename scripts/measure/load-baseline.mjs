// The baseline of the load test: a bare node:http + pg server doing the same database work as
// the API's read routes, without Express, validation, sessions middleware or Prisma. The load
// test drives it with the same connections and compares throughput.
//   GET /session    - verify the signed session cookie, load the session row, the membership,
//                     tenant and user (what GET /api/auth/session does)
//   GET /employees  - one page of a tenant's employees with the total (GET /api/employees)
// Env: DATABASE_URL, PORT, SESSION_SECRET.
import { createHmac, timingSafeEqual } from "node:crypto";
import http from "node:http";
import pg from "pg";

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
const secret = process.env.SESSION_SECRET ?? "dev-only-insecure-session-secret-change-me";

function sidFrom(cookieHeader) {
  const m = /(?:^|;\s*)(?:__Host-)?hrms\.sid=([^;]+)/.exec(cookieHeader ?? "");
  if (!m) return null;
  const v = decodeURIComponent(m[1]);
  if (!v.startsWith("s:")) return null;
  const dot = v.lastIndexOf(".");
  const sid = v.slice(2, dot);
  const mac = createHmac("sha256", secret).update(sid).digest("base64").replace(/=+$/, "");
  const given = Buffer.from(v.slice(dot + 1));
  return given.length === mac.length && timingSafeEqual(given, Buffer.from(mac)) ? sid : null;
}

async function auth(req) {
  const sid = sidFrom(req.headers.cookie);
  if (!sid) return null;
  const s = await pool.query(`SELECT sess FROM "session" WHERE sid = $1 AND expire >= now()`, [sid]);
  const sess = s.rows[0]?.sess;
  if (!sess?.userId || !sess.tenantId) return null;
  const m = await pool.query(
    `SELECT m.role, m.employee_id, t.modules, t.name AS tenant_name, u.email, u.name, u.created_at FROM memberships ` +
      `m JOIN tenants t ON t.id = m.tenant_id JOIN users u ON u.id = m.user_id WHERE m.tenant_id = $1 AND m.user_id = $2`,
    [sess.tenantId, sess.userId],
  );
  return m.rows[0] ? { ...m.rows[0], userId: sess.userId, tenantId: sess.tenantId } : null;
}

function send(res, status, body) {
  const json = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(json) });
  res.end(json);
}

http
  .createServer(async (req, res) => {
    try {
      const url = new URL(req.url, "http://x");
      const a = await auth(req);
      if (!a) return send(res, 401, { error: "Authentication required", status: 401, code: "unauthenticated" });
      if (url.pathname === "/session") {
        const tenants = await pool.query(
          `SELECT t.id, t.name, m.role FROM memberships m JOIN tenants t ON t.id = m.tenant_id WHERE m.user_id = $1 ORDER BY t.name`,
          [a.userId],
        );
        return send(res, 200, {
          data: {
            user: { id: a.userId, email: a.email, name: a.name, created_at: a.created_at },
            tenants: tenants.rows,
            active_tenant_id: a.tenantId,
            role: a.role,
            modules: a.modules,
          },
          message: "OK",
        });
      }
      if (url.pathname === "/employees") {
        const page = Math.max(1, Number(url.searchParams.get("page") ?? 1));
        const [rows, total] = await Promise.all([
          pool.query(
            `SELECT id, employee_code, first_name, last_name, email, department, designation, ` +
              `status FROM employees WHERE tenant_id = $1 AND deleted_at IS NULL ORDER BY employee_code LIMIT 20 OFFSET $2`,
            [a.tenantId, (page - 1) * 20],
          ),
          pool.query(`SELECT count(*)::int AS n FROM employees WHERE tenant_id = $1 AND deleted_at IS NULL`, [a.tenantId]),
        ]);
        return send(res, 200, {
          data: rows.rows,
          message: "OK",
          pagination: { page, limit: 20, total: total.rows[0].n, total_pages: Math.ceil(total.rows[0].n / 20) },
        });
      }
      send(res, 404, { error: "Not found", status: 404, code: "not_found" });
    } catch (err) {
      send(res, 500, { error: String(err.message), status: 500, code: "internal" });
    }
  })
  .listen(Number(process.env.PORT ?? 0), "127.0.0.1", function () {
    process.stdout.write(`listening ${this.address().port}\n`);
  });
