// Scale of the work: one company of SIZE employees (default 100 000) seeded by SQL, then two months of
// payroll, the `leave.accrue` job and an attendance import as production runs them, phase by phase
// (docs/performance.md, "Scale of the work"). On a shared machine compare the CPU and memory, not wall time.
//
//   npx tsx scripts/measure/bench-scale.ts                 (SIZE=100000)
//   SIZE=10000 npx tsx scripts/measure/bench-scale.ts
//
// Environment: SIZE, BENCH_DATABASE_URL (default a throw-away embedded PostgreSQL), BENCH_SCALE_ONLY=
// payroll,leave,attendance, BENCH_SCALE_ATTENDANCE_ROWS (at most 100 000), BENCH_SCALE_CPU_PROF=<folder>,
// BENCH_SCALE_STATEMENTS=<n> (needs pg_stat_statements), BENCH_SCALE_KEEP=1; the server's settings pass through.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { startServerProcess } from "../../test/support/server-process.ts";
import { signupToken } from "../../test/support/signup.ts";
import { adminQuery, benchClient } from "./bench-client.ts";
import { productionServerArgs, workerServerEnv } from "./production-server.ts";

const env = process.env;
const SIZE = Number(env.SIZE ?? 100_000);
const ATTENDANCE_ROWS = Math.min(100_000, Number(env.BENCH_SCALE_ATTENDANCE_ROWS ?? SIZE));
const ONLY = new Set((env.BENCH_SCALE_ONLY ?? "payroll,leave,attendance").split(","));
const root = path.resolve(import.meta.dirname, "../..");
const client = benchClient();
const api = client.api;
const scratch = mkdtempSync(path.join(tmpdir(), "hrms-bench-scale-"));
const embedded = env.BENCH_DATABASE_URL
  ? null
  : await (await import("../../src/db/embedded.ts")).startThrowawayServer(path.join(scratch, "pg"));
const ADMIN_URL = env.BENCH_DATABASE_URL || embedded!.url;
const DB_NAME = `hrms_bench_scale_${process.pid}`;
const dbUrl = Object.assign(new URL(ADMIN_URL), { pathname: `/${DB_NAME}` }).toString();
const PROBE = path.join(scratch, "heap-probe.json");
const log = (msg: string) => console.log(`[bench-scale] ${msg}`);
const uptime = () => execFileSync("uptime", { encoding: "utf8" }).trim();
const mb = (b: number) => (b / 1048576).toFixed(0);

/** utime + stime (ms) of a process; with `children`, also of its reaped children (cutime + cstime). */
async function cpuMs(pid: number, children = false): Promise<number> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(f[11]) + Number(f[12]) + (children ? Number(f[13]) + Number(f[14]) : 0)) * 10; // USER_HZ = 100
  } catch {
    return 0;
  }
}

/** Every PostgreSQL process's CPU: the postmaster with its reaped children, and its live children. */
async function dbCpuMs(db: pg.Client): Promise<number | null> {
  const { rows } = await db.query(`SELECT pid FROM pg_stat_activity WHERE pid = pg_backend_pid()`);
  const ppid = Number((await readFile(`/proc/${rows[0].pid}/stat`, "utf8").catch(() => "")).split(") ")[1]?.split(" ")[1]);
  if (!ppid) return null; // the database is not on this machine
  let total = await cpuMs(ppid, true);
  const kids = (await readFile(`/proc/${ppid}/task/${ppid}/children`, "utf8").catch(() => "")).trim().split(/\s+/).filter(Boolean);
  for (const k of kids) total += await cpuMs(Number(k));
  return total;
}

interface Probe {
  rss: number;
  heap_used: number;
  peak_rss: number;
  peak_heap_used: number;
}
/** Asks the server's heap probe for its figures (and starts its peaks again). */
async function probe(pid: number): Promise<Probe> {
  rmSync(PROBE, { force: true });
  process.kill(pid, "SIGUSR2");
  for (let i = 0; i < 600; i++) {
    try {
      return JSON.parse(readFileSync(PROBE, "utf8"));
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error("the server's heap probe did not answer");
}

interface Row {
  phase: string;
  seconds: number;
  serverCpu: number;
  dbCpu: number | null;
  peakRss: number;
  peakHeap: number;
  heapAfter: number;
  note: string;
}
const rows: Row[] = [];

const STATEMENTS = Number(env.BENCH_SCALE_STATEMENTS ?? 0);

/** The statements that took the database longest since the last reset (pg_stat_statements), printed. */
async function topStatements(db: pg.Client, phase: string): Promise<void> {
  const { rows: top } = await db.query(
    `SELECT calls, total_exec_time, rows, regexp_replace(query, '\\s+', ' ', 'g') AS query
       FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
      ORDER BY total_exec_time DESC LIMIT $1`,
    [STATEMENTS],
  );
  log(`${phase}: the statements that took the database longest (ms, calls, rows)`);
  for (const t of top) console.log(`  ${Number(t.total_exec_time).toFixed(0)} ms ${t.calls}× ${t.rows} rows: ${t.query.slice(0, 220)}`);
}

async function measure(phase: string, serverPid: number, db: pg.Client, work: () => Promise<string>): Promise<void> {
  if (STATEMENTS) await db.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements; SELECT pg_stat_statements_reset()");
  await probe(serverPid);
  const [s0, d0, t0] = [await cpuMs(serverPid), await dbCpuMs(db), performance.now()];
  const note = await work();
  const seconds = (performance.now() - t0) / 1000;
  const [s1, d1] = [await cpuMs(serverPid), await dbCpuMs(db)];
  const p = await probe(serverPid);
  if (STATEMENTS) await topStatements(db, phase);
  const row = {
    phase,
    seconds,
    serverCpu: (s1 - s0) / 1000,
    dbCpu: d0 === null || d1 === null ? null : (d1 - d0) / 1000,
    peakRss: p.peak_rss,
    peakHeap: p.peak_heap_used,
    heapAfter: p.heap_used,
    note,
  };
  rows.push(row);
  log(
    `${phase}: ${seconds.toFixed(1)} s, server CPU ${row.serverCpu.toFixed(1)} s, database CPU ${row.dbCpu?.toFixed(1) ?? "-"} s, ` +
      `peak RSS ${mb(row.peakRss)} MB, peak heap ${mb(row.peakHeap)} MB, heap after ${mb(row.heapAfter)} MB; ${note}; ${uptime()}`,
  );
}

async function seed(db: pg.Client): Promise<string> {
  const email = `bench.scale.${process.pid}@example.test`;
  await api("POST", "/api/auth/signup", { name: "Bench Owner", email, password: "bench-password-1", company_name: "Bench Scale Co" });
  const token = await signupToken(async (sql, params) => (await db.query(sql, params)).rows, email);
  const tenantId: string = (await api("POST", "/api/auth/signup/confirm", { token, password: "bench-password-1" })).body.data
    .active_tenant_id;
  await api("POST", "/api/configuration/company-settings", { modules: ["payroll"] });
  for (const c of [
    { name: "Basic", code: "BASIC", type: "earning", calculation: "formula", formula: "CTC * 0.5", pf_wage: true, position: 1 },
    { name: "House rent allowance", code: "HRA", type: "earning", calculation: "formula", formula: "BASIC * 0.4", position: 2 },
    { name: "Special allowance", code: "SPECIAL", type: "earning", calculation: "formula", formula: "CTC - BASIC - HRA", position: 3 },
  ])
    await api("POST", "/api/payroll/salary-components", c);
  const t0 = Date.now();
  const q = (sql: string, params: unknown[] = [tenantId]) => db.query(sql, params);
  await q(
    `INSERT INTO employees (tenant_id, employee_code, first_name, last_name, email, department, designation, joining_date, gender, state,
                            date_of_birth, pan_number)
     SELECT $1, 'EMP-' || lpad(g::text, 6, '0'), 'First' || g, 'Last' || g, 'emp' || g || '@bench.test',
            (ARRAY['Engineering','Sales','Support','Finance'])[1 + g % 4], 'Associate',
            CASE WHEN g % 10 = 0 THEN DATE '2026-04-16' ELSE DATE '2021-01-04' END,
            CASE WHEN g % 2 = 0 THEN 'female' ELSE 'male' END, CASE WHEN g % 3 = 0 THEN 'Karnataka' ELSE 'Maharashtra' END,
            CASE WHEN g % 25 = 0 THEN DATE '1960-01-01' ELSE DATE '1992-06-01' END,
            CASE WHEN g % 50 = 0 THEN NULL ELSE 'ABCPE' || lpad((g % 10000)::text, 4, '0') || 'F' END
       FROM generate_series(1, $2::int) g`,
    [tenantId, SIZE],
  );
  const n = `substring(employee_code from 5)::int`;
  // salaries of 12 000 to 3 11 000 a month: the upper ones pay tax in either regime
  await q(`INSERT INTO employee_salary_setups (tenant_id, employee_id, effective_from, monthly_ctc, all_components, esi_enabled)
           SELECT $1, id, DATE '2024-04-01', 12000 + (${n} % 300) * 1000, true, true FROM employees WHERE tenant_id = $1`);
  await q(`INSERT INTO tax_profiles (tenant_id, employee_id, tax_year, regime, city, other_income)
           SELECT $1, id, '2026-27', CASE WHEN ${n} % 2 = 0 THEN 'old' ELSE 'new' END, CASE WHEN ${n} % 4 = 0 THEN 'Mumbai' ELSE 'Pune' END,
                  (${n} % 7) * 10000 FROM employees WHERE tenant_id = $1 AND ${n} % 3 = 0`);
  await q(`INSERT INTO tax_declarations (tenant_id, employee_id, tax_year, section, description, amount)
           SELECT $1, e.id, '2026-27', s.section, s.section || ' declared', s.amount
             FROM employees e CROSS JOIN (VALUES ('80C', 150000), ('80D_self', 25000), ('hra_rent', 240000)) s(section, amount)
            WHERE e.tenant_id = $1 AND substring(e.employee_code from 5)::int % 6 = 0`);
  const period = (
    await q(`INSERT INTO leave_periods (tenant_id, name, start_date, end_date) VALUES ($1, 'FY', '2026-04-01', '2027-03-31') RETURNING id`)
  ).rows[0].id;
  const lwp = (await q(`INSERT INTO leave_types (tenant_id, name, code, is_paid) VALUES ($1, 'LWP', 'LWP', false) RETURNING id`)).rows[0]
    .id;
  const el = (await q(`INSERT INTO leave_types (tenant_id, name, code, is_paid) VALUES ($1, 'Earned leave', 'EL', true) RETURNING id`))
    .rows[0].id;
  await q(
    `INSERT INTO leave_allocations (tenant_id, employee_id, leave_type_id, period_id, days, accrual, effective_from)
           SELECT $1, id, $2, $3, 18, 'monthly', GREATEST(DATE '2026-04-01', joining_date) FROM employees WHERE tenant_id = $1`,
    [tenantId, el, period],
  );
  for (const [from, to] of [
    ["2026-04-07", "2026-04-08"],
    ["2026-05-12", "2026-05-13"],
  ])
    await q(
      `INSERT INTO leave_requests (tenant_id, employee_id, leave_type_id, period_id, from_date, to_date, days, status)
             SELECT $1, id, $2, $3, $4::date, $5::date, 2.0, 'approved' FROM employees WHERE tenant_id = $1 AND ${n} % 7 = 0`,
      [tenantId, lwp, period, from, to],
    );
  await q(`INSERT INTO attendance_records (tenant_id, employee_id, date, status)
           SELECT $1, id, d, 'absent' FROM employees, (VALUES (DATE '2026-04-03'), (DATE '2026-05-05')) v(d)
            WHERE tenant_id = $1 AND ${n} % 5 = 0`);
  await db.query("ANALYZE");
  log(
    `seeded ${SIZE} employees (salary setups, tax profiles and declarations, leave, absences) ` +
      `in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );
  return tenantId;
}

/** Sends the request, then polls `poll` (every 250 ms) until `done` says so; returns the final resource. */
async function untilDone(send: () => Promise<{ body: any }>, poll: (id: string) => string, done: (r: any) => boolean): Promise<any> {
  let r = (await send()).body.data;
  const id = r.id;
  while (!done(r)) {
    if (r.status === "failed") throw new Error(`failed: ${JSON.stringify(r).slice(0, 500)}`);
    await new Promise((res) => setTimeout(res, 250));
    r = (await api("GET", poll(id))).body.data;
  }
  return r;
}

async function payroll(pid: number, db: pg.Client, period: string): Promise<void> {
  let id = "";
  await measure(`payroll ${period}: calculate`, pid, db, async () => {
    const run = await untilDone(
      () => api("POST", "/api/payroll/draft-runs", { period }),
      (i) => `/api/payroll/draft-runs/${i}`,
      (r) => r.status === "draft",
    );
    id = run.id;
    return `${run.employee_count} slips, net ${run.total_net}`;
  });
  await measure(`payroll ${period}: process`, pid, db, async () => {
    const run = await untilDone(
      () => api("POST", `/api/payroll/draft-runs/${id}/process`),
      (i) => `/api/payroll/draft-runs/${i}`,
      (r) => r.status === "processed",
    );
    const [t] = (
      await db.query(`SELECT count(*)::int AS n, sum(income_tax)::text AS tds FROM payroll_slips WHERE run_id = $1 AND income_tax > 0`, [
        id,
      ])
    ).rows;
    return `${run.employee_count} slips, net ${run.total_net}, income tax ${t.tds ?? 0} on ${t.n} slips`;
  });
}

async function attendanceDay(pid: number, db: pg.Client): Promise<void> {
  const { rows: emps } = await db.query(`SELECT id FROM employees ORDER BY employee_code LIMIT $1`, [ATTENDANCE_ROWS]);
  const csv = ["employee_id,date,check_in,check_out"];
  for (const e of emps) csv.push(`${e.id},2026-05-06,2026-05-06T03:30:00Z,2026-05-06T12:30:00Z`);
  const phase = `attendance: ${emps.length} employees × a day (POST /api/imports/attendance; a job above 1 000 rows)`;
  await measure(phase, pid, db, async () => {
    const imp = await untilDone(
      () => api("POST", "/api/imports/attendance", { csv: csv.join("\n") }),
      (i) => `/api/imports/${i}`,
      (r) => !["queued", "running", "processing"].includes(r.status),
    );
    return `${emps.length} rows, import ${imp.status} (${JSON.stringify(imp.counts ?? imp.processed_rows ?? "")})`;
  });
}

async function leaveAccrual(pid: number, db: pg.Client): Promise<void> {
  await measure("leave accrual (leave.accrue job, own process)", pid, db, async () => {
    const out = execFileSync(
      process.execPath,
      ["--import", "tsx", path.join(root, "scripts/measure/scale-job.ts"), "leave-accrual", "2026-04-15"],
      {
        cwd: root,
        env: { ...env, DATABASE_URL: dbUrl, LOG_LEVEL: "warn" },
        encoding: "utf8",
        maxBuffer: 1 << 24,
      },
    );
    const j = JSON.parse(out.trim().split("\n").at(-1)!);
    return (
      `${j.posted} postings; the job's process: CPU ${(j.cpu_ms / 1000).toFixed(1)} s, peak RSS ${mb(j.peak_rss)} MB, ` +
      `peak heap ${mb(j.peak_heap_used)} MB, heap after ${mb(j.heap_used)} MB`
    );
  });
}

async function main() {
  log(`SIZE=${SIZE} database=${env.BENCH_DATABASE_URL ? "BENCH_DATABASE_URL" : "throw-away embedded PostgreSQL"}; ${uptime()}`);
  await adminQuery(ADMIN_URL, `CREATE DATABASE "${DB_NAME}"`);
  const args = productionServerArgs();
  const started = await startServerProcess(
    [
      ...args.slice(0, -1),
      ...(env.BENCH_SCALE_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${env.BENCH_SCALE_CPU_PROF}`] : []),
      "--require",
      path.join(root, "scripts/measure/heap-probe.cjs"),
      args.at(-1)!,
    ],
    {
      cwd: root,
      inheritStderr: true,
      env: { ...workerServerEnv(dbUrl), HEAP_PROBE_FILE: PROBE },
    },
  );
  client.base = started.base;
  const pid = started.proc.pid!;
  // the server logs JSON lines to stdout: its errors (level 50 and above) are shown
  started.proc.stdout!.on("data", (d: Buffer) => {
    for (const line of String(d).split("\n")) if (/"level":(5|6)\d/.test(line)) console.error(`[server] ${line.slice(0, 2000)}`);
  });
  const db = new pg.Client({ connectionString: dbUrl });
  try {
    await db.connect();
    await seed(db);
    if (ONLY.has("payroll")) for (const period of ["2026-04", "2026-05"]) await payroll(pid, db, period);
    if (ONLY.has("leave")) await leaveAccrual(pid, db);
    if (ONLY.has("attendance")) await attendanceDay(pid, db);
    console.log(
      `\n| phase (${SIZE} employees) | wall s | server CPU s | database CPU s | server peak RSS MB | peak heap MB | heap after MB ` +
        "| result |",
    );
    console.log("|---|---:|---:|---:|---:|---:|---:|---|");
    for (const r of rows)
      console.log(
        `| ${r.phase} | ${r.seconds.toFixed(1)} | ${r.serverCpu.toFixed(1)} | ${r.dbCpu?.toFixed(1) ?? "-"} | ${mb(r.peakRss)} | ` +
          `${mb(r.peakHeap)} | ${mb(r.heapAfter)} | ${r.note} |`,
      );
    log(`done; ${uptime()}`);
  } finally {
    await db.end().catch(() => {});
    // a server that died (out of memory) has exited already: waiting for its exit would hang
    if (started.proc.exitCode === null && !started.proc.signalCode) {
      started.proc.kill("SIGTERM");
      await new Promise((r) => started.proc.once("exit", r));
    }
    if (env.BENCH_SCALE_KEEP) log(`kept the database ${DB_NAME}`);
    else await adminQuery(ADMIN_URL, `DROP DATABASE IF EXISTS "${DB_NAME}" WITH (FORCE)`).catch(() => {});
    await embedded?.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
