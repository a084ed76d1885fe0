// Payroll benchmark (docs/performance.md, "Benchmarks"): one company of BENCH_PAYROLL_EMPLOYEES with salary
// setups, leave and absences; create, recalculate and process the month's run through the real server's API
// and job worker (202, polled every 100 ms to the final status); slips/s, progress seen, load average.
//
//   npx tsx scripts/measure/bench-payroll.ts
//   BENCH_PAYROLL_EMPLOYEES=2000 npx tsx scripts/measure/bench-payroll.ts        (short run)
//
// Environment: BENCH_DATABASE_URL (default: a throw-away embedded PostgreSQL), BENCH_PAYROLL_EMPLOYEES
// (10000), BENCH_PAYROLL_TARGET_S (10), BENCH_PAYROLL_STRICT=1 (exit 1 on a missed target),
// BENCH_PAYROLL_KEEP=1; the server's own settings (PAYROLL_SYNC_LIMIT, PAYROLL_BATCH_SIZE, ...) pass through.
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { startServerProcess } from "../../test/support/server-process.ts";
import { productionServerArgs, workerServerEnv } from "./production-server.ts";
import { signupToken } from "../../test/support/signup.ts";
import { adminQuery, benchClient } from "./bench-client.ts";

const env = process.env;
const EMPLOYEES = Number(env.BENCH_PAYROLL_EMPLOYEES ?? 10_000);
const TARGET_S = Number(env.BENCH_PAYROLL_TARGET_S ?? 10);
const root = path.resolve(import.meta.dirname, "../..");
/** the server's address, once it has taken a free port of its own (PORT=0) and said which */
const client = benchClient();
const api = client.api;

const scratch = env.BENCH_DATABASE_URL ? null : mkdtempSync(path.join(tmpdir(), "hrms-bench-payroll-"));
const embedded = scratch ? await (await import("../../src/db/embedded.ts")).startThrowawayServer(path.join(scratch, "pg")) : null;
const ADMIN_URL = env.BENCH_DATABASE_URL || embedded!.url;
const admin = (sql: string) => adminQuery(ADMIN_URL, sql);
const DB_NAME = `hrms_bench_payroll_${process.pid}`;
const dbUrl = (() => {
  const u = new URL(ADMIN_URL);
  u.pathname = `/${DB_NAME}`;
  return u.toString();
})();

const log = (msg: string) => console.log(`[bench-payroll] ${msg}`);
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(", ");

async function seed(db: pg.Client): Promise<void> {
  const email = `bench.payroll.${process.pid}@example.test`;
  await api("POST", "/api/auth/signup", { name: "Bench Owner", email, password: "bench-password-1", company_name: "Bench Payroll Co" });
  // signup is confirmed by a mailed token; the bench sets one itself (as the test fixtures do)
  const token = await signupToken(async (sql, params) => (await db.query(sql, params)).rows, email);
  const signup = await api("POST", "/api/auth/signup/confirm", { token, password: "bench-password-1" });
  const tenantId: string = signup.body.data.active_tenant_id;
  await api("POST", "/api/configuration/company-settings", { modules: ["payroll"] });
  for (const c of [
    { name: "Basic", code: "BASIC", type: "earning", calculation: "formula", formula: "CTC * 0.5", pf_wage: true, position: 1 },
    { name: "House rent allowance", code: "HRA", type: "earning", calculation: "formula", formula: "BASIC * 0.4", position: 2 },
    { name: "Special allowance", code: "SPECIAL", type: "earning", calculation: "formula", formula: "CTC - BASIC - HRA", position: 3 },
  ])
    await api("POST", "/api/payroll/salary-components", c);
  const t0 = Date.now();
  await db.query(
    `INSERT INTO employees (tenant_id, employee_code, first_name, last_name, ` +
      `email, department, designation, joining_date, gender, state, date_of_birth)
     SELECT $1, 'EMP-' || lpad(g::text, 6, '0'), 'First' || g, 'Last' || g, 'emp' || g || '@bench.test',
            (ARRAY['Engineering','Sales','Support','Finance'])[1 + g % 4], 'Associate',
            CASE WHEN g % 10 = 0 THEN DATE '2027-03-16' ELSE DATE '2021-01-04' END,
            CASE WHEN g % 2 = 0 THEN 'female' ELSE 'male' END, CASE WHEN g % 3 = 0 THEN 'Karnataka' ELSE 'Maharashtra' END,
            CASE WHEN g % 25 = 0 THEN DATE '1960-01-01' ELSE DATE '1992-06-01' END
       FROM generate_series(1, $2::int) g`,
    [tenantId, EMPLOYEES],
  );
  await db.query(
    `INSERT INTO employee_salary_setups (tenant_id, employee_id, effective_from, monthly_ctc, all_components, esi_enabled)
     SELECT $1, id, DATE '2024-04-01', 12000 + (substring(employee_code from 5)::int % 40) ` +
      `* 1000, true, true FROM employees WHERE tenant_id = $1`,
    [tenantId],
  );
  const period = (
    await db.query(
      `INSERT INTO leave_periods (tenant_id, name, start_date, end_date) VALUES ($1, 'FY', '2027-01-01', '2027-12-31') RETURNING id`,
      [tenantId],
    )
  ).rows[0];
  const lwp = (
    await db.query(`INSERT INTO leave_types (tenant_id, name, code, is_paid) VALUES ($1, 'LWP', 'LWP', false) RETURNING id`, [tenantId])
  ).rows[0];
  await db.query(
    `INSERT INTO leave_requests (tenant_id, employee_id, leave_type_id, period_id, from_date, to_date, days, status)
     SELECT $1, id, $2, $3, DATE '2027-03-09', DATE '2027-03-10', 2.0, ` +
      `'approved' FROM employees WHERE tenant_id = $1 AND substring(employee_code from 5)::int % 7 = 0`,
    [tenantId, lwp.id, period.id],
  );
  await db.query(
    `INSERT INTO attendance_records (tenant_id, employee_id, date, status)
     SELECT $1, id, DATE '2027-03-03', 'absent' FROM employees WHERE tenant_id = $1 AND substring(employee_code from 5)::int % 5 = 0`,
    [tenantId],
  );
  await db.query("ANALYZE");
  log(`seeded ${EMPLOYEES} employees with salary setups, leave and absences in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

interface Step {
  name: string;
  answer: number;
  seconds: number;
  slips: number;
  progress: string[];
}

/** Sends the request, then polls the run until it reaches `final` (or fails). */
async function step(name: string, send: () => Promise<{ status: number; body: any }>, final: string): Promise<Step & { run: any }> {
  const t0 = performance.now();
  const res = await send();
  const id = res.body.data.id;
  const progress: string[] = [];
  let run = res.body.data;
  while (run.status !== final) {
    if (run.status === "failed") throw new Error(`${name}: the run failed: ${run.failure_reason}`);
    await new Promise((r) => setTimeout(r, 100));
    run = (await api("GET", `/api/payroll/draft-runs/${id}`)).body.data;
    const p = `${run.progress.processed}/${run.progress.total}`;
    if (run.status !== final && progress.at(-1) !== p) progress.push(p);
  }
  const seconds = (performance.now() - t0) / 1000;
  return { name, answer: res.status, seconds, slips: run.employee_count, progress, run };
}

async function main() {
  log(
    `employees=${EMPLOYEES} database=${env.BENCH_DATABASE_URL ? "BENCH_DATABASE_URL" : "throw-away embedded PostgreSQL"} ` +
      `load average ${load()}`,
  );
  await admin(`DROP DATABASE IF EXISTS "${DB_NAME}"`);
  await admin(`CREATE DATABASE "${DB_NAME}"`);
  const started = await startServerProcess(productionServerArgs(), {
    cwd: root,
    inheritStderr: true,
    env: workerServerEnv(dbUrl),
  });
  client.base = started.base;
  const server = started.proc;
  const db = new pg.Client({ connectionString: dbUrl });
  let missed = false;
  try {
    await db.connect();
    await seed(db);
    const loadBefore = load();
    const steps: Step[] = [];
    const created = await step("calculate (create)", () => api("POST", "/api/payroll/draft-runs", { period: "2027-03" }), "draft");
    steps.push(created);
    const id = created.run.id;
    steps.push(await step("recalculate (PUT {})", () => api("PUT", `/api/payroll/draft-runs/${id}`, {}), "draft"));
    steps.push(await step("process", () => api("POST", `/api/payroll/draft-runs/${id}/process`), "processed"));
    const [check] = (
      await db.query(
        `SELECT count(*)::int AS n, count(slip_number)::int AS numbered, sum(net_pay)::text AS net FROM payroll_slips WHERE run_id = $1`,
        [id],
      )
    ).rows;
    if (check.n !== EMPLOYEES || check.numbered !== EMPLOYEES)
      throw new Error(`expected ${EMPLOYEES} numbered slips, found ${check.n} (${check.numbered} numbered)`);
    console.log("");
    console.log(`| step | answer | employees | seconds | slips/s | progress seen while polling | < ${TARGET_S} s |`);
    console.log("|---|---:|---:|---:|---:|---|---|");
    for (const s of steps) {
      const ok = s.seconds < TARGET_S;
      if (!ok) missed = true;
      console.log(
        `| ${s.name} | ${s.answer} | ${s.slips} | ${s.seconds.toFixed(2)} | ${(s.slips / s.seconds).toFixed(0)} | ` +
          `${s.progress.join(" ") || "-"} | ${ok ? "yes" : "NO"} |`,
      );
    }
    console.log("");
    log(`total net pay ${check.net}; load average before the steps ${loadBefore}, after ${load()} (1, 5, 15 min)`);
  } finally {
    await db.end().catch(() => {});
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
    if (env.BENCH_PAYROLL_KEEP !== "1" || !env.BENCH_DATABASE_URL)
      await admin(`DROP DATABASE IF EXISTS "${DB_NAME}" WITH (FORCE)`).catch(() => {});
    else log(`kept database ${DB_NAME}`);
    await embedded?.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
  if (missed && env.BENCH_PAYROLL_STRICT === "1") process.exit(1);
}

await main();
