// `npm run bench` / `make bench`: the signed-in read path against a bare node:http + pg server, side by side,
// in alternating turns; what it seeds, measures and prints, its settings and the goals: docs/performance.md,
// "Benchmarks". Also: BENCH_DB_NAME (default `hrms_bench`), BENCH_RESEED=1 (a new seed even when the counts
// match), BENCH_PROFILE_DIR (where BENCH_PROFILE writes), BENCH_SERVER_STDOUT=<file> (our server's stdout kept there: the
// access log, `--trace-gc-nvp` of BENCH_NODE_FLAGS). Employees are bulk-inserted by multi-row INSERTs
// (5 000 rows a statement) then VACUUM ANALYZE. No figure is asserted by a test.
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { execFileSync } from "node:child_process";
import { createWriteStream, mkdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { deployMigrations } from "../../src/db/migrations.ts";
import { formatEmployeeCode, searchText } from "../../src/modules/employees/records.ts";
import { byIdSql, listSql, type Statement } from "./bench-sql.ts";
import { startServerProcess } from "../../test/support/server-process.ts";
import { signupToken } from "../../test/support/signup.ts";
import { productionServerArgs } from "./production-server.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const env = process.env;
const EMPLOYEES = Number(env.BENCH_EMPLOYEES ?? 20_000);
const SECONDS = Number(env.BENCH_SECONDS ?? 15);
/** each side's time is split into this many turns, ours and the baseline's alternating (A, B, A, B) */
const ROUNDS = Math.max(1, Number(env.BENCH_ROUNDS ?? 3));
const CONNECTIONS = Number(env.BENCH_CONNECTIONS ?? 10);
const RATE = Number(env.BENCH_RATE ?? 0);
/** BENCH_PROFILE=cpu,heap: the server writes V8's CPU and sampling heap profiles into BENCH_PROFILE_DIR on exit */
const PROFILE = (env.BENCH_PROFILE ?? "").split(",").filter(Boolean);
const PROFILE_DIR = path.resolve(env.BENCH_PROFILE_DIR ?? path.join(import.meta.dirname, "../../.data/profiles"));
/**
 * BENCH_BEFORE=<git ref>: a build of that commit runs beside ours as a third side of every turn, to
 * measure a change of the request path before and after in one run (its sources built into
 * .data/bench-before/; the document, packages and database are this tree's)
 */
const BEFORE = env.BENCH_BEFORE ?? "";
/** the before build's own node flags and environment where they differ from ours (space-separated; NAME= unsets NAME) */
const BEFORE_FLAGS = (env.BENCH_BEFORE_FLAGS ?? "").split(/\s+/).filter(Boolean);
const BEFORE_ENV = (env.BENCH_BEFORE_ENV ?? "").split(/\s+/).filter(Boolean);
/** more node flags for the server (e.g. --heapsnapshot-signal=SIGUSR2), after production's */
const NODE_FLAGS = (env.BENCH_NODE_FLAGS ?? "").split(/\s+/).filter(Boolean);
const DB_NAME = env.BENCH_DB_NAME ?? "hrms_bench";
const NOISE_TENANTS = Number(env.BENCH_NOISE_TENANTS ?? 3);
const NOISE_EMPLOYEES = Number(env.BENCH_NOISE_EMPLOYEES ?? 20_000);
const SMALL_EMPLOYEES = Number(env.BENCH_SMALL_EMPLOYEES ?? 200);
const PASSWORD = "bench-password-123";
/**
 * BENCH_ID_STATUS=on_notice,exited: the profiles read by id only of employees of these statuses (default:
 * all, as a company's reads come: 92 % active, 3 % inactive, 2 % on notice, 3 % exited)
 */
const ID_STATUS = env.BENCH_ID_STATUS ? env.BENCH_ID_STATUS.split(",") : null;
interface Company {
  owner: { name: string; email: string; password: string; company_name: string };
  employees: number;
  /** seed of the company's draw of names, departments, phones */
  seed: number;
  /** e-mail domain of its employees */
  domain: string;
}
const OWNER = { name: "Bench Owner", email: "bench-owner@bench.example", password: PASSWORD, company_name: "Bench Co" };
const MAIN: Company = { owner: OWNER, employees: EMPLOYEES, seed: 42, domain: "bench.example" };
const SMALL: Company = {
  owner: { name: "Small Owner", email: "small-owner@small.example", password: PASSWORD, company_name: "Small Co" },
  employees: SMALL_EMPLOYEES,
  seed: 7,
  domain: "small.example",
};
const NOISE: Company[] = Array.from({ length: NOISE_EMPLOYEES > 0 ? NOISE_TENANTS : 0 }, (_, k) => ({
  owner: {
    name: `Noise Owner ${k + 1}`,
    email: `noise-owner-${k + 1}@noise.example`,
    password: PASSWORD,
    company_name: `Noise Co ${k + 1}`,
  },
  employees: NOISE_EMPLOYEES,
  seed: 1000 + k,
  domain: `noise${k + 1}.example`,
}));
const COMPANIES = [MAIN, ...NOISE, ...(SMALL_EMPLOYEES > 0 ? [SMALL] : [])];
/** the server's peak resident set under the bench's load (VmHWM), MB */
const TARGET_RSS_MB = 250;

// ───────────────────────────── data ─────────────────────────────

const FIRST = (
  `Aarav Aditi Ahmed Aisha Akira Alejandro Amal Amelia Ananya Anil Arjun Ava ` +
  `Ayesha Bilal Carlos Chen Chloe Daniel Deepa Diego Divya Elena Emma Fatima
  Gabriel Grace Hana Hassan Isabella Ishaan Jia Jose Kabir Karim Kavya Khalid ` +
  `Lakshmi Layla Leo Lina Lucas Maria Maya Mei Mohammed Nadia Neha Noah Noor Olivia
  Omar Pooja Priya Rahul Rania Ravi Riya Rohan Sakura Sana Sara Sofia Suresh Tariq Vikram Wei Yara Yusuf Zain Zara`
).split(/\s+/);
const LAST = (
  `Abbas Acharya Agarwal Ahmed Al-Farsi Al-Mansoori Ali Anand Bakshi Banerjee ` +
  `Bhatt Bose Chandra Chatterjee Chopra Das Desai Dubey Fernandes Gandhi
  Ghosh Gupta Haddad Hussain Iyer Jain Joshi Kapoor Khan Khanna Kulkarni Kumar ` +
  `Malhotra Mehta Menon Mishra Mukherjee Nair Naidu Narayan Pandey Patel Pillai Rao
  Reddy Saxena Sen Shah Sharma Shetty Silva Singh Sinha Srinivasan Subramanian ` +
  `Thakur Trivedi Varma Verma Yadav Zaidi Anderson Brown Clark Davis Evans Garcia
  Harris Johnson Jones Lee Lewis Lopez Martin Martinez Miller Moore Nguyen Robinson ` +
  `Rodriguez Smith Taylor Thomas Thompson Walker White Williams Wilson Young
  Costa Ferreira Kim Park Tanaka Suzuki Wang Zhang Rossi Bianchi Novak Kowalski`
).split(/\s+/);
const DEPARTMENTS: [string, number, string[]][] = [
  ["Engineering", 25, ["Software Engineer", "Senior Engineer", "Staff Engineer", "Engineering Manager"]],
  ["Sales", 15, ["Account Executive", "Sales Manager", "Sales Associate"]],
  ["Operations", 12, ["Operations Analyst", "Operations Manager"]],
  ["Support", 10, ["Support Specialist", "Support Lead"]],
  ["Marketing", 8, ["Marketing Specialist", "Content Writer"]],
  ["Finance", 6, ["Accountant", "Financial Analyst"]],
  ["Product", 6, ["Product Manager", "Product Analyst"]],
  ["Human Resources", 4, ["HR Generalist", "Recruiter"]],
  ["Administration", 4, ["Office Administrator"]],
  ["Design", 4, ["Product Designer"]],
  ["Data", 4, ["Data Analyst", "Data Engineer"]],
  ["Legal", 2, ["Legal Counsel"]],
];
/**
 * What people type into the search box, in turn: four surnames (each ~1 % of the company, ~1 000
 * matches to count) and four narrow terms (a full name, a code prefix, a phone fragment). Override
 * with BENCH_SEARCH=term,term,…
 */
const SEARCH_TERMS = (env.BENCH_SEARCH ?? "sharma,priya sharma,khan,emp-0421,nair,98765,omar khan,mehta")
  .split(",")
  .map((t) => t.trim())
  .filter(Boolean);

/** Deterministic pseudo-random numbers (mulberry32), so every seed is the same. */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}
const pad = (n: number, w = 2) => String(n).padStart(w, "0");

function progress(done: number, total: number, started: number) {
  const width = 30;
  const filled = Math.round((done / total) * width);
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  process.stderr.write(
    `\r  seeding ` +
      `[${"#".repeat(filled)}${".".repeat(width - filled)}] ${Math.floor((done / total) * 100)}% ${done}/${total} employees ${secs} s`,
  );
  if (done === total) process.stderr.write("\n");
}

async function seedEmployees(pool: pg.Pool, tenantId: string, { employees: count, seed, domain }: Company) {
  const random = rng(seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)];
  const deptWheel = DEPARTMENTS.flatMap(([name, weight, titles]) => Array.from({ length: weight }, () => [name, titles] as const));
  const BATCH = 5000;
  const started = Date.now();
  progress(0, count, started);
  for (let from = 0; from < count; from += BATCH) {
    const cols: Record<string, (string | null)[]> = {
      code: [],
      first: [],
      last: [],
      email: [],
      phone: [],
      dept: [],
      title: [],
      joined: [],
      dob: [],
      status: [],
      search: [],
    };
    for (let i = from; i < Math.min(count, from + BATCH); i++) {
      const first = pick(FIRST);
      const last = pick(LAST);
      const [dept, titles] = pick(deptWheel);
      const code = formatEmployeeCode(i + 1);
      const email = `${first}.${last}.${i + 1}@${domain}`.toLowerCase();
      const phone =
        random() < 0.7
          ? `+91 9${pad(Math.floor(random() * 10000), 4)} ${pad(Math.floor(random() * 100000), 5)}`
          : `+971 5${Math.floor(random() * 10)} ${pad(Math.floor(random() * 1000), 3)} ${pad(Math.floor(random() * 10000), 4)}`;
      const r = random();
      cols.code.push(code);
      cols.first.push(first);
      cols.last.push(last);
      cols.email.push(email);
      cols.phone.push(phone);
      cols.dept.push(dept);
      cols.title.push(pick([...titles]));
      cols.joined.push(`${2010 + Math.floor(random() * 16)}-${pad(1 + Math.floor(random() * 12))}-${pad(1 + Math.floor(random() * 28))}`);
      cols.dob.push(
        random() < 0.9
          ? `${1960 + Math.floor(random() * 43)}-${pad(1 + Math.floor(random() * 12))}-${pad(1 + Math.floor(random() * 28))}`
          : null,
      );
      cols.status.push(r < 0.92 ? "active" : r < 0.95 ? "inactive" : r < 0.97 ? "on_notice" : "exited");
      cols.search.push(searchText({ first_name: first, last_name: last, employee_code: code, email, phone }));
    }
    await pool.query(
      `INSERT INTO employees (tenant_id, employee_code, first_name, last_name, email, ` +
        `phone, department, designation, joining_date, date_of_birth, status, search_text)
       SELECT $1::uuid, * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], ` +
        `$6::text[], $7::text[], $8::text[], $9::date[], $10::date[], $11::text[], $12::text[])`,
      [
        tenantId,
        cols.code,
        cols.first,
        cols.last,
        cols.email,
        cols.phone,
        cols.dept,
        cols.title,
        cols.joined,
        cols.dob,
        cols.status,
        cols.search,
      ],
    );
    progress(Math.min(count, from + BATCH), count, started);
  }
  await pool.query(
    `INSERT INTO employee_code_counters (tenant_id, last_value) VALUES ($1, ` +
      `$2) ON CONFLICT (tenant_id) DO UPDATE SET last_value = EXCLUDED.last_value`,
    [tenantId, count],
  );
}

// ───────────────────────────── processes ─────────────────────────────

const children: ChildProcess[] = [];
/** when the server process was started (performance.now()): its profile's time 0, near enough */
let serverStartedAt = 0;
/**
 * One process each, so its CPU time can be read from /proc: the server as production runs it (the
 * compiled build, `npm start`'s flags), the baseline with `node --import tsx`.
 */
async function startChild(script: string, extraEnv: Record<string, string>): Promise<{ proc: ChildProcess; base: string }> {
  const args =
    script === "src/main.ts"
      ? withFlags(productionServerArgs(), [...profileFlags(), ...NODE_FLAGS])
      : script.endsWith(".js")
        ? withFlags(productionServerArgs(), [...BEFORE_FLAGS, ...NODE_FLAGS])
            .slice(0, -1)
            .concat(script)
        : ["--import", "tsx", script];
  if (script === "src/main.ts") serverStartedAt = performance.now();
  // on a port the child takes itself (PORT=0) and reports: no port to lose to another process
  const childEnv: Record<string, string | undefined> = { ...process.env, ...extraEnv };
  if (script.endsWith(".js"))
    for (const pair of BEFORE_ENV) {
      const [name, value] = [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)];
      if (value) childEnv[name] = value;
      else delete childEnv[name];
    }
  const { proc, base, startOutput } = await startServerProcess(args, {
    cwd: ROOT,
    env: childEnv,
    inheritStderr: true,
    healthPath: script.includes("baseline") ? "/api/server-time" : "/api/health",
  });
  children.push(proc);
  // BENCH_SERVER_STDOUT=<file>: what our server writes to stdout (the access log, --trace-gc's lines) kept there
  if (env.BENCH_SERVER_STDOUT && script === "src/main.ts") {
    const out = createWriteStream(env.BENCH_SERVER_STDOUT);
    out.write(startOutput);
    proc.stdout!.pipe(out);
  }
  return { proc, base };
}
/**
 * The server of commit `ref` compiled into .data/bench-before/dist (BENCH_BEFORE): its src/ and
 * generated/ taken out of git into .data/bench-before and built with this tree's build script and
 * packages. Returns the bundle's path; the server finds this tree as its project folder.
 */
function buildBefore(ref: string): string {
  const dir = path.join(ROOT, ".data", "bench-before");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const archive = execFileSync("git", ["archive", ref, "src", "generated", "scripts/build", "tsconfig.json", "package.json"], {
    cwd: ROOT,
    maxBuffer: 1 << 30,
  });
  execFileSync("tar", ["-x", "-C", dir], { input: archive });
  symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
  execFileSync(process.execPath, [path.join(dir, "scripts", "build", "build.mjs"), "--outdir", path.join(dir, "dist")], {
    cwd: dir,
    stdio: ["ignore", "ignore", "inherit"],
  });
  process.stderr.write(`  before: ${ref} built into ${dir}/dist\n`);
  return path.join(dir, "dist", "main.js");
}

/** node's arguments with `flags` before the script (the last argument). */
const withFlags = (args: string[], flags: string[]) => [...args.slice(0, -1), ...flags, args[args.length - 1]];

/** V8's profilers for the server (BENCH_PROFILE): written when it exits, as the bench stops it. */
function profileFlags(): string[] {
  if (!PROFILE.length) return [];
  mkdirSync(PROFILE_DIR, { recursive: true });
  process.stderr.write(`  profiles of the server (${PROFILE.join(", ")}) go to ${PROFILE_DIR}\n`);
  return [
    ...(PROFILE.includes("cpu") ? ["--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`] : []),
    ...(PROFILE.includes("heap") ? ["--heap-prof", `--heap-prof-dir=${PROFILE_DIR}`] : []),
  ];
}

async function stopChildren() {
  await Promise.all(
    children.map(async (c) => {
      if (c.exitCode !== null || c.signalCode !== null) return;
      c.kill("SIGTERM");
      await Promise.race([once(c, "exit"), new Promise((r) => setTimeout(r, 5000))]);
    }),
  );
}

/** CPU time (user + system, ms) used so far by each of these processes (Linux /proc; absent elsewhere). */
function cpuMs(pids: number[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
      out.set(pid, (Number(fields[11]) + Number(fields[12])) * 10); // utime + stime, USER_HZ = 100
    } catch {
      /* gone, or not Linux */
    }
  }
  return out;
}
/** CPU ms used between two samples by the processes alive at the second (new ones count from 0). */
function cpuDelta(before: Map<number, number>, after: Map<number, number>): number {
  let ms = 0;
  for (const [pid, v] of after) ms += v - (before.get(pid) ?? 0);
  return ms;
}

/** PostgreSQL backends serving the bench database (their CPU is part of each request's cost). */
async function backendPids(pool: pg.Pool): Promise<number[]> {
  const { rows } = await pool.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [
    DB_NAME,
  ]);
  return rows.map((r) => r.pid);
}

// ───────────────────────────── database ─────────────────────────────

async function adminUrl(): Promise<{ url: string; stop: () => Promise<void> }> {
  const url = env.BENCH_DATABASE_URL || env.DATABASE_URL;
  if (url) return { url, stop: async () => {} };
  const { startEmbeddedServer } = await import("../../src/db/embedded.ts");
  return startEmbeddedServer();
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * Whether the database holds exactly the companies asked for (owner and employee count each, no other
 * company with employees): a different noise configuration is reseeded.
 */
async function seededAsAsked(admin: string, url: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  const exists = (await c.query("SELECT 1 FROM pg_database WHERE datname = $1", [DB_NAME])).rowCount;
  await c.end();
  if (!exists) return false;
  const d = new pg.Client({ connectionString: url });
  await d.connect();
  try {
    const { rows } = await d.query<{ email: string | null; n: number }>(
      `SELECT (SELECT u.email::text FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.tenant_id = t.id ` +
        `ORDER BY m.created_at LIMIT 1) AS email, (SELECT count(*)::int FROM employees e WHERE e.tenant_id = t.id) AS n FROM tenants t`,
    );
    const have = rows.filter((r) => r.n > 0).map((r) => `${r.email}:${r.n}`);
    const want = COMPANIES.filter((c) => c.employees > 0).map((c) => `${c.owner.email}:${c.employees}`);
    return have.sort().join() === want.sort().join();
  } catch {
    return false;
  } finally {
    await d.end();
  }
}

async function recreateDatabase(admin: string) {
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS "${DB_NAME}" WITH (FORCE)`);
  await c.query(`CREATE DATABASE "${DB_NAME}"`);
  await c.end();
}

// ───────────────────────────── measuring ─────────────────────────────

interface Scenario {
  key: string;
  name: string;
  paths: string[];
  /** ours/baseline throughput the scenario must reach */
  targetRatio: number;
  /** p99 at BENCH_CONNECTIONS the scenario must stay under (ms; 0: none) */
  targetP99: number;
  /** also measured at BENCH_RATE (when set) */
  rated: boolean;
  /** the company whose owner asks (default: the measured company) */
  company?: { cookie: string; tenantId: string };
}

function rotating(paths: string[]) {
  let i = 0;
  return [{ setupRequest: (req: { path?: string }) => ({ ...req, path: paths[i++ % paths.length] }) }];
}

/** One side's figures, over one turn or the sum of its turns. */
interface Measured {
  requests: number;
  seconds: number;
  /** every response's latency, ms */
  latencies: number[];
  /** CPU ms: the server process, and the PostgreSQL backends of the bench database */
  nodeMs: number;
  pgMs: number;
  /** the server's largest resident set seen while it ran (MB) */
  peakRssMb: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

/** Resident set of a process (MB, Linux /proc): VmRSS now, or VmHWM (its peak since it started). */
function rssMb(pid: number, field: "VmRSS" | "VmHWM" = "VmRSS"): number {
  try {
    // regex-bounded: one line of /proc/<pid>/status
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

async function measure(
  base: string,
  s: Scenario,
  headers: Record<string, string>,
  seconds: number,
  server: ChildProcess,
  pool: pg.Pool,
  rate?: number,
): Promise<Measured> {
  const [node0, pg0] = [cpuMs([server.pid!]), cpuMs(await backendPids(pool))];
  let peakRssMb = rssMb(server.pid!);
  const sampler = setInterval(() => {
    peakRssMb = Math.max(peakRssMb, rssMb(server.pid!));
  }, 100);
  const latencies: number[] = [];
  const run = autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: seconds,
    headers,
    requests: rotating(s.paths),
    ...(rate ? { overallRate: rate } : {}),
  });
  run.on("response", (_client, _status, _bytes, ms) => latencies.push(ms));
  const r = await run;
  clearInterval(sampler);
  const [node1, pg1] = [cpuMs([server.pid!]), cpuMs(await backendPids(pool))];
  return {
    requests: r.requests.total,
    seconds: r.duration,
    latencies,
    nodeMs: cpuDelta(node0, node1),
    pgMs: cpuDelta(pg0, pg1),
    peakRssMb: Math.max(peakRssMb, rssMb(server.pid!)),
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
  };
}

/** The turns of one side as one measurement. */
function combined(turns: Measured[]): Measured {
  const sum = (f: (m: Measured) => number) => turns.reduce((a, m) => a + f(m), 0);
  return {
    requests: sum((m) => m.requests),
    seconds: sum((m) => m.seconds),
    latencies: turns.flatMap((m) => m.latencies),
    nodeMs: sum((m) => m.nodeMs),
    pgMs: sum((m) => m.pgMs),
    peakRssMb: Math.max(...turns.map((m) => m.peakRssMb)),
    non2xx: sum((m) => m.non2xx),
    errors: sum((m) => m.errors),
    timeouts: sum((m) => m.timeouts),
  };
}

const perSecond = (m: Measured) => m.requests / Math.max(0.001, m.seconds);
const perRequest = (ms: number, m: Measured) => ms / Math.max(1, m.requests);
/** The q-quantile (0..1) of a measurement's latencies, ms. */
function quantile(m: Measured, q: number): number {
  if (!m.latencies.length) return Number.NaN;
  const sorted = Float64Array.from(m.latencies).sort();
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

function check(r: Measured, label: string) {
  if (r.non2xx || r.errors || r.timeouts)
    process.stderr.write(`  warning: ${label}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts\n`);
}

async function explain(pool: pg.Pool, tenantId: string, id: string, smallTenantId?: string) {
  const department = listSql(tenantId, { department: "Engineering", page: 50, limit: 20 });
  const statements: [string, { text: string; values: unknown[] }][] = [
    ...SEARCH_TERMS.map((t): [string, Statement] => [
      `search "${t}" (page and total)`,
      listSql(tenantId, { search: t, page: 1, limit: 20 }).page,
    ]),
    ...(smallTenantId
      ? SEARCH_TERMS.map((t): [string, Statement] => [
          `small company: search "${t}"`,
          listSql(smallTenantId, { search: t, page: 1, limit: 20 }).page,
        ])
      : []),
    ["department page 50", department.page],
    ["department total", department.count],
    ["profile by id", byIdSql(tenantId, id)],
  ];
  for (const [label, st] of statements) {
    const { rows } = await pool.query(`EXPLAIN (ANALYZE, BUFFERS) ${st.text}`, st.values);
    process.stderr.write(`\n  EXPLAIN ANALYZE ${label}:\n${rows.map((r) => `    ${r["QUERY PLAN"]}`).join("\n")}\n`);
  }
}

const f0 = (n: number) => n.toFixed(0);
const f1 = (n: number) => n.toFixed(1);

async function main() {
  const admin = await adminUrl();
  const url = withDatabase(admin.url, DB_NAME);
  const force = ["1", "true", "yes"].includes((env.BENCH_RESEED ?? "").toLowerCase());
  let fresh = force || !(await seededAsAsked(admin.url, url));
  if (!fresh) {
    // A database seeded under other migrations (e.g. an edited branch) is rebuilt.
    fresh = await deployMigrations(url).then(
      () => false,
      (err: Error) => {
        process.stderr.write(`Migrations do not apply to the existing ${DB_NAME} (${err.message}); reseeding.\n`);
        return true;
      },
    );
  }
  if (fresh) {
    process.stderr.write(`Creating database ${DB_NAME} …\n`);
    await recreateDatabase(admin.url);
    await deployMigrations(url);
  }

  const serverEnv = {
    DATABASE_URL: url,
    NODE_ENV: "production",
    SESSION_SECRET: "bench-session-secret-bench-session-secret",
    PUBLIC_URL: "http://127.0.0.1",
    TRUST_PROXY: "true",
    MIGRATE_ON_START: "false",
    RUN_WORKER: "false",
    LOG_LEVEL: env.LOG_LEVEL ?? "info",
    // one signup per company from this address
    SIGNUP_MAX_PER_IP: "100",
  };
  const beforeScript = BEFORE ? buildBefore(BEFORE) : "";
  const { proc: server, base } = await startChild("src/main.ts", serverEnv);

  // The session cookie is Secure in production: tell the server the sign-in came over HTTPS.
  const post = (p: string, body: unknown) =>
    fetch(`${base}${p}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-proto": "https" },
      body: JSON.stringify(body),
    });
  /** Signs the company's owner up (fresh database) or in: its session cookie and tenant. */
  async function signIn({ owner }: Company): Promise<{ cookie: string; tenantId: string }> {
    let auth: Response;
    if (fresh) {
      // signup is confirmed by a mailed token; the bench sets one itself (as the test fixtures do)
      const started = await post("/api/auth/signup", owner);
      if (started.status !== 202) throw new Error(`signup failed: ${started.status} ${await started.text()}`);
      const db = new pg.Client({ connectionString: url });
      await db.connect();
      try {
        auth = await post("/api/auth/signup/confirm", {
          token: await signupToken(async (sql, params) => (await db.query(sql, params)).rows, owner.email),
          password: owner.password, // chosen at the confirmation (docs/security.md)
        });
      } finally {
        await db.end();
      }
    } else auth = await post("/api/auth/sign-in", { email: owner.email, password: owner.password });
    if (!auth.ok) throw new Error(`sign-in of ${owner.email} failed: ${auth.status} ${await auth.text()}`);
    const cookie = auth.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    return { cookie, tenantId: ((await auth.json()) as { data: { active_tenant_id: string } }).data.active_tenant_id };
  }
  const signedIn = new Map<Company, { cookie: string; tenantId: string }>();
  for (const c of COMPANIES) signedIn.set(c, await signIn(c));
  const { cookie, tenantId } = signedIn.get(MAIN)!;
  const small = signedIn.get(SMALL);

  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const others = [
    NOISE_TENANTS > 0 && NOISE_EMPLOYEES > 0 ? `${NOISE_TENANTS} × ${NOISE_EMPLOYEES} of noise companies` : "",
    SMALL_EMPLOYEES > 0 ? `${SMALL_EMPLOYEES} of a small company` : "",
  ].filter(Boolean);
  const layout = `${EMPLOYEES} employees${others.length ? ` beside ${others.join(" and ")}` : " in one company alone"}`;
  if (fresh) {
    for (const c of COMPANIES) {
      process.stderr.write(`  ${c.owner.company_name}: ${c.employees} employees\n`);
      await seedEmployees(pool, signedIn.get(c)!.tenantId, c);
    }
    process.stderr.write("  VACUUM ANALYZE employees …\n");
    await pool.query("VACUUM ANALYZE employees");
  } else process.stderr.write(`Reusing ${DB_NAME}: ${layout} (BENCH_RESEED=1 to reseed).\n`);
  const ids = (
    await pool.query<{ id: string }>(
      `SELECT id FROM employees WHERE tenant_id = $1 AND deleted_at IS NULL AND ($2::text[] IS NULL OR status = ANY($2))
        ORDER BY md5(id::text) LIMIT 500`,
      [tenantId, ID_STATUS],
    )
  ).rows.map((r) => r.id);
  if (env.BENCH_EXPLAIN === "1") await explain(pool, tenantId, ids[0], small?.tenantId);

  const { proc: baseline, base: baselineBase } = await startChild("scripts/measure/bench-baseline.ts", {
    DATABASE_URL: url,
    BENCH_TENANT_ID: tenantId,
  });

  const only = (env.BENCH_ONLY ?? "time,health,search,search-small,department,id").split(",");
  const scenarios: Scenario[] = [
    // the floor every request pays: signed in, no database work of its own / one SELECT 1
    {
      key: "time",
      name: "signed-in floor: GET /api/server-time",
      paths: ["/api/server-time"],
      targetRatio: 0.3,
      targetP99: 0,
      rated: false,
    },
    { key: "health", name: "GET /api/health (SELECT 1)", paths: ["/api/health"], targetRatio: 0.5, targetP99: 0, rated: false },
    {
      key: "search",
      name: `GET /api/employees?search=<${SEARCH_TERMS.length} terms>&limit=20`,
      paths: SEARCH_TERMS.map((s) => `/api/employees?search=${encodeURIComponent(s)}&limit=20`),
      targetRatio: 0.7,
      targetP99: 40,
      rated: true,
    },
    ...(small
      ? [
          {
            key: "search-small",
            name: `small company (${SMALL_EMPLOYEES}): search=<${SEARCH_TERMS.length} terms>`,
            paths: SEARCH_TERMS.map((s) => `/api/employees?search=${encodeURIComponent(s)}&limit=20`),
            targetRatio: 0,
            targetP99: 0,
            rated: true,
            company: small,
          },
        ]
      : []),
    {
      key: "department",
      name: "GET /api/employees?department=Engineering&page=50",
      paths: ["/api/employees?department=Engineering&page=50"],
      targetRatio: 0.7,
      targetP99: 25,
      rated: true,
    },
    {
      key: "id",
      name: "GET /api/employees/{id}",
      paths: ids.map((id) => `/api/employees/${id}`),
      targetRatio: 0.7,
      targetP99: 10,
      rated: true,
    },
  ].filter((s) => only.includes(s.key));

  // Same answers from both servers (the baseline does the same work).
  // Ours asks as the scenario's company's owner, the baseline for its tenant.
  const oursHeaders = (s: Scenario) => ({ cookie: (s.company ?? { cookie }).cookie });
  const baseHeaders = (s: Scenario): Record<string, string> => (s.company ? { "x-bench-tenant": s.company.tenantId } : {});
  for (const s of scenarios.filter((x) => x.key.startsWith("search") || x.key === "department")) {
    const a = (await (await fetch(base + s.paths[0], { headers: oursHeaders(s) })).json()) as any;
    const b = (await (await fetch(baselineBase + s.paths[0], { headers: baseHeaders(s) })).json()) as any;
    if (a.pagination?.total !== b.pagination?.total || a.data?.[0]?.id !== b.data?.[0]?.id)
      throw new Error(`baseline disagrees on ${s.paths[0]}: ${a.pagination?.total} vs ${b.pagination?.total}`);
    process.stderr.write(`  ${s.paths[0]}: total ${a.pagination.total}, same first row on both servers\n`);
  }

  // the build of BENCH_BEFORE, signed in with the same sessions (same database and secret)
  const before = beforeScript ? await startChild(beforeScript, serverEnv) : null;

  const loadBefore = os.loadavg();
  const idleRssMb = rssMb(server.pid!);
  const results: Row[] = [];
  for (const s of scenarios) {
    process.stderr.write(`\n${s.name}\n  warm-up …\n`);
    await measure(base, s, oursHeaders(s), 2, server, pool);
    await measure(baselineBase, s, baseHeaders(s), 2, baseline, pool);
    if (before) await measure(before.base, s, oursHeaders(s), 2, before.proc, pool);
    // turns in alternation, so that both sides share whatever else the machine does meanwhile
    const turn = SECONDS / ROUNDS;
    process.stderr.write(`  ${ROUNDS} × (ours, baseline) for ${turn.toFixed(1)} s each at ${CONNECTIONS} connections …\n`);
    // where the turns are in the server's life: the window of its profile (scripts/measure/profile-summary.ts)
    const since = () => ((performance.now() - serverStartedAt) / 1000).toFixed(1);
    process.stderr.write(`  turns start at ${since()} s of the server's life\n`);
    const oursTurns: Measured[] = [];
    const baseTurns: Measured[] = [];
    const beforeTurns: Measured[] = [];
    for (let k = 0; k < ROUNDS; k++) {
      oursTurns.push(await measure(base, s, oursHeaders(s), turn, server, pool));
      if (before) beforeTurns.push(await measure(before.base, s, oursHeaders(s), turn, before.proc, pool));
      baseTurns.push(await measure(baselineBase, s, baseHeaders(s), turn, baseline, pool));
    }
    const [o, b] = [combined(oursTurns), combined(baseTurns)];
    if (before) check(combined(beforeTurns), `before ${s.name}`);
    process.stderr.write(`  turns end at ${since()} s; ours served ${o.requests} requests\n`);
    check(o, `ours ${s.name}`);
    check(b, `baseline ${s.name}`);
    let rated: Measured | undefined;
    if (RATE > 0 && s.rated) {
      process.stderr.write(`  ours: ${SECONDS} s at ${RATE} req/s …\n`);
      rated = await measure(base, s, oursHeaders(s), SECONDS, server, pool, RATE);
      check(rated, `ours@${RATE} ${s.name}`);
    }
    results.push({ name: s.name, scenario: s, ours: o, base: b, rated, before: before ? combined(beforeTurns) : undefined });
  }
  const peakRssMb = rssMb(server.pid!, "VmHWM");
  const baselinePeakMb = rssMb(baseline.pid!, "VmHWM");
  const beforePeakMb = before ? rssMb(before.proc.pid!, "VmHWM") : 0;
  const loadAfter = os.loadavg();
  await pool.end();
  await stopChildren();
  await admin.stop();
  printTable(results, { layout, loadBefore, loadAfter, idleRssMb, peakRssMb, baselinePeakMb, beforePeakMb });
}

/** The results as a table on stdout, each against the targets of docs/performance.md. */
interface Row {
  name: string;
  scenario: Scenario;
  ours: Measured;
  base: Measured;
  rated?: Measured;
  /** the build of BENCH_BEFORE, in the same turns */
  before?: Measured;
}

function printTable(
  results: Row[],
  run: {
    layout: string;
    loadBefore: number[];
    loadAfter: number[];
    idleRssMb: number;
    peakRssMb: number;
    baselinePeakMb: number;
    beforePeakMb: number;
  },
) {
  const header = [
    "query",
    "ours req/s",
    "p50 ms",
    "p99 ms",
    "baseline req/s",
    "p50 ms",
    "p99 ms",
    "ratio",
    "CPU ms/req ours",
    "baseline",
    "CPU ratio",
    "peak RSS MB",
    ...(RATE > 0 ? [`@${RATE}/s p50`, "p99 ms"] : []),
    "target",
  ];
  // with BENCH_BEFORE, a row of the before build under each row of ours
  const sides = results.flatMap((r) => [
    { ...r, label: r.name },
    ...(r.before ? [{ ...r, ours: r.before, rated: undefined, label: `  before (${BEFORE})` }] : []),
  ]);
  const rows = sides.map((r) => {
    const ratio = perSecond(r.ours) / perSecond(r.base);
    const p99 = quantile(r.ours, 0.99);
    const { targetRatio, targetP99 } = r.scenario;
    const meets = ratio >= targetRatio && (!targetP99 || p99 < targetP99);
    const target = [targetRatio ? `ratio ≥ ${targetRatio}` : "", targetP99 ? `p99 < ${targetP99} ms` : ""].filter(Boolean).join(", ");
    const [oursCpu, baseCpu] = [r.ours, r.base].map((m) => perRequest(m.nodeMs, m) + perRequest(m.pgMs, m));
    return [
      r.label,
      f0(perSecond(r.ours)),
      f1(quantile(r.ours, 0.5)),
      f1(p99),
      f0(perSecond(r.base)),
      f1(quantile(r.base, 0.5)),
      f1(quantile(r.base, 0.99)),
      r.ours.requests ? ratio.toFixed(2) : "-",
      `${perRequest(r.ours.nodeMs, r.ours).toFixed(3)}+${perRequest(r.ours.pgMs, r.ours).toFixed(3)}`,
      `${perRequest(r.base.nodeMs, r.base).toFixed(3)}+${perRequest(r.base.pgMs, r.base).toFixed(3)}`,
      (baseCpu / Math.max(0.001, oursCpu)).toFixed(2),
      f0(r.ours.peakRssMb),
      ...(RATE > 0 ? [r.rated ? f1(quantile(r.rated, 0.5)) : "-", r.rated ? f1(quantile(r.rated, 0.99)) : "-"] : []),
      target ? `${meets ? "met" : "MISSED"} (${target})` : "-",
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(" | ")} |`;
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(" ");
  console.log(
    `\nHRMS bench: ${run.layout}; ${SECONDS} s per side per query in ${ROUNDS} alternating turns, ${CONNECTIONS} connections, ` +
      `${os.cpus().length} CPUs, node ${process.version}; load average ${load(run.loadBefore)} before, ${load(run.loadAfter)} after`,
  );
  console.log(
    "ratio = ours req/s ÷ baseline's (bare node:http + pg, same SQL, same machine, interleaved); CPU ms/req = server process + " +
      "PostgreSQL backends (node+pg), CPU ratio = baseline CPU/req ÷ ours: the ratio an idle machine would show\n",
  );
  console.log(line(header));
  console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const r of rows) console.log(line(r));
  const rssMet = run.peakRssMb < TARGET_RSS_MB;
  console.log(
    `\nserver RSS: ${f0(run.idleRssMb)} MB before the load, peak ${f0(run.peakRssMb)} MB (VmHWM) - ` +
      `${rssMet ? "met" : "MISSED"} (< ${TARGET_RSS_MB} MB); the baseline's peak ${f0(run.baselinePeakMb)} MB` +
      (BEFORE ? `; before (${BEFORE}): peak ${f0(run.beforePeakMb)} MB` : ""),
  );
}

main()
  .then(() => process.exit(0))
  .catch(async (err) => {
    console.error(err instanceof Error ? err.stack : err);
    await stopChildren();
    process.exit(1);
  });
