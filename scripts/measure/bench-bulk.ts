// Bulk import/export benchmark (docs/integrations-bulk.md): through the API of the real server (its own
// process, the production build and flags, with its job worker), in an empty company:
//   1. import BENCH_BULK_EMPLOYEES employees (default 100 000) from one CSV
//      POST /api/imports/employees → 202, polled (GET /api/imports/{id} every 250 ms) to `succeeded`
//   2. export them as CSV     GET /api/exports/employees?format=csv     (streamed, read to the end)
//   3. export them as NDJSON  GET /api/exports/employees?format=ndjson
// and prints the seconds of each (from the request to the last byte / the final status), rows/s,
// the progress seen while polling, the server's resident memory (VmRSS sampled every 50 ms during
// each step, and its peak VmHWM) and the load average before and after. Targets: import < 60 s,
// export < 10 s.
//
//   npx tsx scripts/measure/bench-bulk.ts
//   BENCH_BULK_EMPLOYEES=10000 npx tsx scripts/measure/bench-bulk.ts          (short run)
//
// Environment: BENCH_DATABASE_URL (a server where the bench may CREATE DATABASE; default: a
// throw-away embedded PostgreSQL in a temporary folder), BENCH_BULK_EMPLOYEES (100000),
// BENCH_BULK_STRICT=1 exits 1 when a step misses its target.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { startServerProcess } from "../../test/support/server-process.ts";
import { signupToken } from "../../test/support/signup.ts";
import { productionServerArgs, workerServerEnv } from "./production-server.ts";
import { adminQuery, benchClient, HTTPS } from "./bench-client.ts";

const env = process.env;
const EMPLOYEES = Number(env.BENCH_BULK_EMPLOYEES ?? 100_000);
const IMPORT_TARGET_S = 60;
const EXPORT_TARGET_S = 10;
const root = path.resolve(import.meta.dirname, "../..");
const client = benchClient();
const api = client.api;

const scratch = env.BENCH_DATABASE_URL ? null : mkdtempSync(path.join(tmpdir(), "hrms-bench-bulk-"));
const embedded = scratch ? await (await import("../../src/db/embedded.ts")).startThrowawayServer(path.join(scratch, "pg")) : null;
const ADMIN_URL = env.BENCH_DATABASE_URL || embedded!.url;
const admin = (sql: string) => adminQuery(ADMIN_URL, sql);
const DB_NAME = `wtbulk_bench_${process.pid}`;
const dbUrl = (() => {
  const u = new URL(ADMIN_URL);
  u.pathname = `/${DB_NAME}`;
  return u.toString();
})();

const log = (msg: string) => console.log(`[bench-bulk] ${msg}`);
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(", ");
const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;

/** The server's VmRSS and VmHWM (kB) from /proc. */
function memoryOf(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? 0);
  return { rss: kb("VmRSS"), hwm: kb("VmHWM") };
}

/** CPU seconds (user + system) the process has used, from /proc/<pid>/stat (clock ticks of 10 ms). */
function cpuOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Samples the server's RSS every 50 ms while `fn` runs: its peak (kB), and the server's CPU seconds meanwhile. */
async function sampled<T>(pid: number, fn: () => Promise<T>): Promise<{ out: T; peakRss: number; cpu: number }> {
  const cpu0 = cpuOf(pid);
  let peak = memoryOf(pid).rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, memoryOf(pid).rss);
  }, 50);
  try {
    const out = await fn();
    peak = Math.max(peak, memoryOf(pid).rss);
    return { out, peakRss: peak, cpu: cpuOf(pid) - cpu0 };
  } finally {
    clearInterval(timer);
  }
}

const DEPARTMENTS = ["Engineering", "Sales", "Support", "Finance", "Operations", "People"];
const STATES = ["Maharashtra", "Karnataka", "Tamil Nadu", "Delhi", ""];

/** A CSV of `n` realistic employees (about 150 bytes a row). */
function employeesCsv(n: number): string {
  const lines = ["first_name,last_name,email,phone,department,designation,joining_date,date_of_birth,gender,employment_type,state"];
  for (let i = 1; i <= n; i++) {
    const month = String(1 + (i % 12)).padStart(2, "0");
    const day = String(1 + (i % 28)).padStart(2, "0");
    lines.push(
      [
        `First${i}`,
        `Last${i}`,
        `employee.${i}@bench-bulk.example`,
        `+91 98${String(i).padStart(8, "0")}`,
        DEPARTMENTS[i % DEPARTMENTS.length],
        i % 10 === 0 ? "Team Lead" : "Associate",
        `20${String(10 + (i % 15)).padStart(2, "0")}-${month}-${day}`,
        `19${70 + (i % 25)}-${month}-${day}`,
        i % 2 ? "male" : "female",
        i % 7 ? "full_time" : "contract",
        STATES[i % STATES.length],
      ].join(","),
    );
  }
  return `${lines.join("\n")}\n`;
}

async function exportStep(format: "csv" | "ndjson"): Promise<{ seconds: number; bytes: number; lines: number }> {
  const t0 = performance.now();
  const res = await fetch(`${client.base}/api/exports/employees?format=${format}`, { headers: { cookie: client.cookie, ...HTTPS } });
  if (res.status !== 200) throw new Error(`export ${format}: ${res.status} ${await res.text()}`);
  let bytes = 0;
  let lines = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (const b of chunk) if (b === 10) lines++;
  }
  return { seconds: (performance.now() - t0) / 1000, bytes, lines };
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
    // ready once the job worker runs (an import queued before would wait for the minute's sweep)
    healthPath: "/api/health/ready",
    env: workerServerEnv(dbUrl),
  });
  client.base = started.base;
  const server = started.proc;
  const pid = server.pid!;
  const db = new pg.Client({ connectionString: dbUrl });
  let missed = false;
  try {
    await db.connect();
    const email = `bench.bulk.${process.pid}@example.test`;
    await api("POST", "/api/auth/signup", { name: "Bench Owner", email, password: "bench-password-1", company_name: "Bench Bulk Co" });
    const token = await signupToken(async (sql, params) => (await db.query(sql, params)).rows, email);
    await api("POST", "/api/auth/signup/confirm", { token, password: "bench-password-1" });
    const csv = employeesCsv(EMPLOYEES);
    const idle = memoryOf(pid);
    log(
      `CSV of ${EMPLOYEES} rows: ${(Buffer.byteLength(csv) / 1024 / 1024).toFixed(1)} MB; ` +
        `server idle RSS ${mb(idle.rss)} (peak so far ${mb(idle.hwm)})`,
    );
    const loadBefore = load();

    // 1. import
    const progress: string[] = [];
    const imported = await sampled(pid, async () => {
      const t0 = performance.now();
      const res = await api("POST", "/api/imports/employees", { csv });
      const answeredS = (performance.now() - t0) / 1000;
      let imp = res.body.data;
      while (imp.status === "queued" || imp.status === "running") {
        await new Promise((r) => setTimeout(r, 250));
        imp = (await api("GET", `/api/imports/${imp.id}`)).body.data;
        const p = `${imp.processed_rows}@${((performance.now() - t0) / 1000).toFixed(0)}s`;
        if (progress.at(-1)?.split("@")[0] !== p.split("@")[0]) progress.push(p);
      }
      return { imp, answer: res.status, answeredS, seconds: (performance.now() - t0) / 1000 };
    });
    const { imp } = imported.out;
    if (imp.status !== "succeeded" || imp.imported_rows !== EMPLOYEES)
      throw new Error(`the import ended ${imp.status}: ${JSON.stringify({ ...imp, problems: imp.problems.slice(0, 5) })}`);
    const [{ n }] = (await db.query("SELECT count(*)::int AS n FROM employees")).rows;
    if (n !== EMPLOYEES) throw new Error(`expected ${EMPLOYEES} employees, found ${n}`);
    const afterImport = memoryOf(pid);

    // 2. and 3. exports
    const csvExport = await sampled(pid, () => exportStep("csv"));
    const ndjsonExport = await sampled(pid, () => exportStep("ndjson"));
    if (csvExport.out.lines !== EMPLOYEES + 1 || ndjsonExport.out.lines !== EMPLOYEES)
      throw new Error(`export lines: csv ${csvExport.out.lines}, ndjson ${ndjsonExport.out.lines}`);
    const end = memoryOf(pid);

    console.log("");
    console.log("| step | rows | seconds | rows/s | server CPU s | peak RSS during the step | target | met |");
    console.log("|---|---:|---:|---:|---:|---:|---:|---|");
    const row = (name: string, seconds: number, peak: number, target: number, cpu: number) => {
      const ok = seconds < target;
      if (!ok) missed = true;
      console.log(
        `| ${name} | ${EMPLOYEES} | ${seconds.toFixed(2)} | ${(EMPLOYEES / seconds).toFixed(0)} | ${cpu.toFixed(1)} | ${mb(peak)} | ` +
          `< ${target} s | ${ok ? "yes" : "NO"} |`,
      );
    };
    row(
      `import CSV (${imported.out.answer} in ${imported.out.answeredS.toFixed(2)} s, then the job)`,
      imported.out.seconds,
      imported.peakRss,
      IMPORT_TARGET_S,
      imported.cpu,
    );
    row(
      `export CSV (${(csvExport.out.bytes / 1024 / 1024).toFixed(1)} MB)`,
      csvExport.out.seconds,
      csvExport.peakRss,
      EXPORT_TARGET_S,
      csvExport.cpu,
    );
    row(
      `export NDJSON (${(ndjsonExport.out.bytes / 1024 / 1024).toFixed(1)} MB)`,
      ndjsonExport.out.seconds,
      ndjsonExport.peakRss,
      EXPORT_TARGET_S,
      ndjsonExport.cpu,
    );
    console.log("");
    log(`import progress seen while polling: ${progress.join(" ")}`);
    log(`import created ${imp.created_at}, started ${imp.started_at}, finished ${imp.finished_at}`);
    log(
      `server RSS: idle ${mb(idle.rss)}, after the import ${mb(afterImport.rss)}, at the end ${mb(end.rss)}; peak (VmHWM) ${mb(end.hwm)}`,
    );
    log(`load average before ${loadBefore}, after ${load()} (1, 5, 15 min)`);
  } finally {
    await db.end().catch(() => {});
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
    await admin(`DROP DATABASE IF EXISTS "${DB_NAME}" WITH (FORCE)`).catch(() => {});
    await embedded?.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
  if (missed && env.BENCH_BULK_STRICT === "1") process.exit(1);
}

await main();
