// Leave and attendance benchmark (docs/performance.md, "Benchmarks"; `npm run bench` runs it after bench.ts):
// one company seeded with a year of leave and attendance, then balances of one employee and of a page of 100
// and one employee's attendance month, beside a baseline operation; req/s, p50/p99 (target p99 < 50 ms) and
// the CPU per request of the server and of its database backends (the figure a shared machine keeps).
//
//   npx tsx scripts/measure/bench-leave.ts
//   BENCH_LEAVE_EMPLOYEES=2000 BENCH_LEAVE_DURATION=5 npx tsx scripts/measure/bench-leave.ts     (short run)
//
// Environment: BENCH_DATABASE_URL or DATABASE_URL (default: the embedded PostgreSQL), BENCH_LEAVE_EMPLOYEES
// (10000), BENCH_LEAVE_ATTENDANCE_DAYS (365), BENCH_LEAVE_DURATION seconds per scenario (10),
// BENCH_LEAVE_CONNECTIONS ("1,10"), BENCH_LEAVE_PORT (3199), BENCH_LEAVE_TARGET_P99_MS (50), BENCH_LEAVE_KEEP=1,
// BENCH_LEAVE_STRICT=1 (exit 1 on a missed target), BENCH_LEAVE_REUSE=<a kept database>, BENCH_LEAVE_ONLY=
// baseline,one,page,attendance.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { addDays, todayIn } from "../../src/lib/dates.ts";
import { productionServerArgs } from "./production-server.ts";
import { signupToken } from "../../test/support/signup.ts";
import { adminQuery, benchClient, HTTPS } from "./bench-client.ts";

const env = process.env;
const EMPLOYEES = Number(env.BENCH_LEAVE_EMPLOYEES ?? 10_000);
const ATTENDANCE_DAYS = Number(env.BENCH_LEAVE_ATTENDANCE_DAYS ?? 365);
const DURATION = Number(env.BENCH_LEAVE_DURATION ?? 10);
/** Concurrency levels, each scenario is measured at each: 1 shows latency without queueing, 10 throughput under load. */
const CONNECTIONS = (env.BENCH_LEAVE_CONNECTIONS ?? "1,10").split(",").map(Number);
const PORT = Number(env.BENCH_LEAVE_PORT ?? 3199);
const TARGET = Number(env.BENCH_LEAVE_TARGET_P99_MS ?? 50);
// BENCH_DATABASE_URL or DATABASE_URL (a server where the bench may CREATE DATABASE), else the
// embedded PostgreSQL of `make run` (started here when it is not running).
const embedded = env.BENCH_DATABASE_URL || env.DATABASE_URL ? null : await (await import("../../src/db/embedded.ts")).startEmbeddedServer();
const ADMIN_URL = env.BENCH_DATABASE_URL || env.DATABASE_URL || embedded!.url;
const admin = (sql: string) => adminQuery(ADMIN_URL, sql);
const REUSE = env.BENCH_LEAVE_REUSE || null;
if (REUSE !== null && !/^hrms_bench_leave_[0-9]+$/.test(REUSE)) throw new Error(`BENCH_LEAVE_REUSE: not a kept bench database: ${REUSE}`);
const ONLY = env.BENCH_LEAVE_ONLY ? new Set(env.BENCH_LEAVE_ONLY.split(",")) : null;
const DB_NAME = REUSE ?? `hrms_bench_leave_${process.pid}`;
const root = path.resolve(import.meta.dirname, "../..");
const client = benchClient(`http://127.0.0.1:${PORT}`);
const base = client.base;
const api = async (method: string, url: string, body?: unknown): Promise<any> => (await client.api(method, url, body)).body;

const dbUrl = (() => {
  const u = new URL(ADMIN_URL);
  u.pathname = `/${DB_NAME}`;
  return u.toString();
})();

function log(msg: string) {
  console.log(`[bench-leave] ${msg}`);
}
async function timed<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const t0 = Date.now();
  const r = await fn();
  log(`${label}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return r;
}

async function waitForHealth(): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      const r = await fetch(`${base}/api/health`);
      if (r.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("server did not come up");
}

async function seed(db: pg.Client) {
  const today = todayIn("Asia/Kolkata");
  const periodStart = addDays(today, -180);
  const periodEnd = addDays(today, 185);
  const email = `bench.${process.pid}@example.test`;
  await api("POST", "/api/auth/signup", { name: "Bench Owner", email, password: "bench-password-1", company_name: "Bench Co" });
  // signup is confirmed by a mailed token; the bench sets one itself (as the test fixtures do)
  const token = await signupToken(async (sql, params) => (await db.query(sql, params)).rows, email);
  const signup = await api("POST", "/api/auth/signup/confirm", { token, password: "bench-password-1" });
  const tenantId: string = signup.data.active_tenant_id;
  const userId: string = signup.data.user.id;

  await timed(`seed ${EMPLOYEES} employees`, () =>
    db.query(
      `INSERT INTO employees (tenant_id, employee_code, first_name, last_name, email, department, designation, joining_date, gender)
       SELECT $1, 'EMP-' || lpad(g::text, 5, '0'), 'First' || g, 'Last' || g, 'emp' || g || '@bench.test',
              (ARRAY['Engineering','Sales','Support','Finance'])[1 + g % 4], 'Staff',
              CASE WHEN g % 10 = 0 THEN $2::date + (g % 150) ELSE DATE '2020-01-06' END,
              CASE WHEN g % 2 = 0 THEN 'female' ELSE 'male' END
         FROM generate_series(1, $3) g`,
      [tenantId, periodStart, EMPLOYEES],
    ),
  );
  await db.query(
    `UPDATE employees e SET reports_to = m.id FROM employees m WHERE e.tenant_id = $1 AND ` +
      `m.tenant_id = $1 AND m.employee_code = 'EMP-00001' AND e.employee_code <> 'EMP-00001'`,
    [tenantId],
  );

  const period = (
    await api("POST", "/api/leave-periods", { name: "Bench period", start_date: periodStart, end_date: periodEnd, is_current: true })
  ).data;
  const sl = (await api("POST", "/api/leave-types", { name: "Sick leave", code: "SL" })).data;
  const cl = (await api("POST", "/api/leave-types", { name: "Casual leave", code: "CL", sandwich_rule: true })).data;
  const el = (
    await api("POST", "/api/leave-types", {
      name: "Earned leave",
      code: "EL",
      carry_forward: true,
      carry_forward_max_days: "10",
      encashable: true,
    })
  ).data;
  const policy = (
    await api("POST", "/api/leave-policies", {
      name: "Default",
      items: [
        { leave_type_id: sl.id, annual_quota: "12" },
        { leave_type_id: cl.id, annual_quota: "12", accrual: "monthly" },
        { leave_type_id: el.id, annual_quota: "18", accrual: "monthly", accrual_day: "joining_date" },
      ],
    })
  ).data;
  await api("POST", "/api/holidays/bulk", {
    holidays: [0, 40, 90, 130, 170, 220].map((d, i) => ({ date: addDays(periodStart, d), name: `Holiday ${i + 1}` })),
  });
  const alloc = await timed("bulk allocation by policy through the API", () =>
    api("POST", "/api/leave-allocations", { policy_id: policy.id }),
  );
  log(`  ${alloc.data.created_count} allocations created`);

  await timed("seed a year of leave requests and ledger entries", async () => {
    // five approved single days in the past per employee (ledger debits), one pending day ahead
    await db.query(
      `WITH ins AS (
         INSERT INTO leave_requests (tenant_id, employee_id, leave_type_id, period_id, ` +
        `from_date, to_date, days, status, requested_by, decided_by, decided_at)
         SELECT e.tenant_id, e.id, $2, $3, x.d, x.d, 1, 'approved', $4, $4, now()
           FROM employees e CROSS JOIN generate_series(0, 4) k
           CROSS JOIN LATERAL (SELECT ($5::date + k * 35 + abs(hashtext(e.id::text)) % 30) AS d0) y
           CROSS JOIN LATERAL (SELECT (y.d0 + CASE extract(dow FROM y.d0) WHEN 6 THEN 2 WHEN 0 THEN 1 ELSE 0 END)::date AS d) x
          WHERE e.tenant_id = $1 AND x.d < $6::date AND x.d >= e.joining_date
         RETURNING id, tenant_id, employee_id, leave_type_id, period_id, from_date)
       INSERT INTO leave_ledger_entries (tenant_id, employee_id, leave_type_id, period_id, ` +
        `entry_type, days, effective_date, reference_type, reference_id, dedupe_key)
       SELECT tenant_id, employee_id, leave_type_id, period_id, 'taken', -1, from_date, 'leave_request', id, 'taken:' || id FROM ins`,
      [tenantId, sl.id, period.id, userId, periodStart, today],
    );
    await db.query(
      `INSERT INTO leave_requests (tenant_id, employee_id, leave_type_id, period_id, from_date, to_date, days, status, requested_by)
       SELECT e.tenant_id, e.id, $2, $3, x.d, x.d, 1, 'pending', $4
         FROM employees e
         CROSS JOIN LATERAL (SELECT ($5::date + 10 + abs(hashtext(e.id::text)) % 60) AS d0) y
         CROSS JOIN LATERAL (SELECT (y.d0 + CASE extract(dow FROM y.d0) WHEN 6 THEN 2 WHEN 0 THEN 1 ELSE 0 END)::date AS d) x
        WHERE e.tenant_id = $1`,
      [tenantId, cl.id, period.id, userId, today],
    );
  });

  const attendanceFrom = addDays(today, -ATTENDANCE_DAYS);
  await timed(`seed ${ATTENDANCE_DAYS} days of attendance`, () =>
    db.query(
      `INSERT INTO attendance_records (tenant_id, employee_id, date, check_in, check_out, worked_hours, status, late, early_exit, source)
       SELECT e.tenant_id, e.id, d::date,
              (d::date + time '03:30')::timestamp AT TIME ZONE 'UTC' + m.m * interval '1 minute',
              (d::date + time '12:30')::timestamp AT TIME ZONE 'UTC' + m.m * interval '1 minute',
              9.00, 'present', m.m > 15, false, 'import'
         FROM employees e
         CROSS JOIN generate_series($2::date, $3::date, interval '1 day') d
         CROSS JOIN LATERAL (SELECT abs(hashtext(e.id::text || d::date::text)) % 40 AS m) m
        WHERE e.tenant_id = $1 AND extract(dow FROM d) NOT IN (0, 6) AND d::date >= e.joining_date`,
      [tenantId, attendanceFrom, addDays(today, -1)],
    ),
  );
  // VACUUM as autovacuum would after the bulk load: it also sets the visibility map that index-only
  // scans (the ledger's balance index) rely on
  await timed("vacuum analyze", () => db.query("VACUUM ANALYZE"));
  const counts = await db.query(
    `SELECT (SELECT count(*) FROM leave_ledger_entries) AS ledger, (SELECT count(*) ` +
      `FROM leave_requests) AS requests, (SELECT count(*) FROM attendance_records) AS attendance`,
  );
  log(`  rows: ${JSON.stringify(counts.rows[0])}`);
  const one = (await db.query(`SELECT id FROM employees WHERE tenant_id = $1 AND employee_code = 'EMP-00042'`, [tenantId])).rows[0]
    .id as string;
  return { one, today };
}

/** A kept database (BENCH_LEAVE_REUSE): signs in as its owner and finds what seed() returned. */
async function reuse(db: pg.Client) {
  const owner = await db.query(`SELECT email FROM users WHERE email LIKE 'bench.%@example.test' ORDER BY created_at LIMIT 1`);
  if (!owner.rows.length) throw new Error(`${DB_NAME} holds no bench owner`);
  await api("POST", "/api/auth/sign-in", { email: owner.rows[0].email, password: "bench-password-1" });
  const one = (await db.query(`SELECT id FROM employees WHERE employee_code = 'EMP-00042'`)).rows[0].id as string;
  const session = await api("GET", "/api/auth/session");
  const tz = (await db.query(`SELECT timezone FROM tenants WHERE id = $1`, [session.data.active_tenant_id])).rows[0].timezone as string;
  return { one, today: todayIn(tz) };
}

/** CPU time (ms) used so far by these processes (utime + stime of /proc/<pid>/stat); exited ones count 0. */
async function cpuMs(pids: number[]): Promise<number> {
  const { readFile } = await import("node:fs/promises");
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = await readFile(`/proc/${pid}/stat`, "utf8");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(f[11]) + Number(f[12]); // fields 14 and 15: utime, stime
    } catch {
      /* gone */
    }
  }
  return ticks * 10; // USER_HZ = 100
}

interface Figures {
  name: string;
  connections: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** CPU ms per request of the server process and of the database backends serving its pool. */
  nodeCpu: number;
  pgCpu: number;
}

let serverPid = 0;
async function backendPids(): Promise<number[]> {
  const c = new pg.Client({ connectionString: ADMIN_URL });
  await c.connect();
  try {
    const r = await c.query(`SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [DB_NAME]);
    return r.rows.map((x) => x.pid as number);
  } finally {
    await c.end();
  }
}

async function measure(name: string, url: string): Promise<Figures[]> {
  const out: Figures[] = [];
  await autocannon({
    url: `${base}${url}`,
    connections: Math.max(...CONNECTIONS),
    headers: { cookie: client.cookie, ...HTTPS },
    duration: Math.min(2, DURATION),
  }); // warm-up
  for (const connections of CONNECTIONS) {
    // backends that start during the run count in full, those that end during it are missed (the
    // pool closes a connection after 30 s idle: rare within a run)
    const pids = await backendPids();
    const [node0, pg0] = [await cpuMs([serverPid]), await cpuMs(pids)];
    const r = await autocannon({ url: `${base}${url}`, connections, headers: { cookie: client.cookie, ...HTTPS }, duration: DURATION });
    const [node1, pg1] = [await cpuMs([serverPid]), await cpuMs([...new Set([...pids, ...(await backendPids())])])];
    const n = Math.max(1, r.requests.total);
    out.push({
      nodeCpu: (node1 - node0) / n,
      pgCpu: (pg1 - pg0) / n,
      name,
      connections,
      rps: r.requests.average,
      p50: r.latency.p50,
      p99: r.latency.p99,
      errors: r.errors + r.timeouts + r.non2xx,
    });
  }
  return out;
}

async function main() {
  log(
    `employees=${EMPLOYEES} attendance_days=${ATTENDANCE_DAYS} duration=${DURATION}s ` +
      `connections=${CONNECTIONS.join(",")} (load average ${(await import("node:os")).loadavg()[0].toFixed(1)})`,
  );
  if (!REUSE) {
    await admin(`DROP DATABASE IF EXISTS "${DB_NAME}"`);
    await admin(`CREATE DATABASE "${DB_NAME}"`);
  }
  const server = spawn(process.execPath, productionServerArgs(), {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...env,
      NODE_ENV: "production",
      PORT: String(PORT),
      DATABASE_URL: dbUrl,
      PUBLIC_URL: base,
      SESSION_SECRET: randomBytes(32).toString("hex"),
      RUN_WORKER: "false",
      LOG_LEVEL: "warn",
      TRUST_PROXY: "true",
    },
  });
  serverPid = server.pid ?? 0;
  const db = new pg.Client({ connectionString: dbUrl });
  let failed = false;
  try {
    await timed("server start (with migrations)", waitForHealth);
    await db.connect();
    const { one, today } = REUSE ? await reuse(db) : await seed(db);
    const [year, month] = [Number(today.slice(0, 4)), Number(today.slice(5, 7))];
    const prev = month === 1 ? { year: year - 1, month: 12 } : { year, month: month - 1 };
    const results: Figures[] = [];
    const scenarios: [string, string, string][] = [
      // the platform's floor on this machine (session, auth, validation, one small query), for comparison
      ["baseline", "baseline: company settings", "/api/configuration/company-settings"],
      ["one", "leave-balances, one employee", `/api/leave-balances?employee_id=${one}`],
      ["page", "leave-balances, page of 100", `/api/leave-balances?limit=100`],
      ["attendance", "attendance month, one employee", `/api/attendance?employee_id=${one}&month=${prev.month}&year=${prev.year}`],
    ];
    for (const [key, name, url] of scenarios) if (!ONLY || ONLY.has(key)) results.push(...(await measure(name, url)));
    const load = (await import("node:os")).loadavg().map((x) => x.toFixed(2));
    console.log("");
    console.log(`load average: ${load.join(", ")}`);
    console.log(`| scenario | connections | req/s | p50 ms | p99 ms | errors | CPU ms/req node | CPU ms/req db | p99 < ${TARGET} ms |`);
    console.log("|---|---:|---:|---:|---:|---:|---:|---:|---|");
    for (const r of results) {
      const ok = r.p99 < TARGET && r.errors === 0;
      if (!ok && !r.name.startsWith("baseline")) failed = true;
      console.log(
        `| ${r.name} | ${r.connections} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.errors} | ` +
          `${r.nodeCpu.toFixed(2)} | ${r.pgCpu.toFixed(2)} | ${ok ? "yes" : "NO"} |`,
      );
    }
    console.log("");
  } finally {
    await db.end().catch(() => {});
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
    if (env.BENCH_LEAVE_KEEP !== "1" && !REUSE) await admin(`DROP DATABASE IF EXISTS "${DB_NAME}" WITH (FORCE)`);
    else log(`kept database ${DB_NAME}`);
    await embedded?.stop();
  }
  if (failed && env.BENCH_LEAVE_STRICT === "1") process.exit(1);
}

await main();
