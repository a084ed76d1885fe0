// Event-loop check of `make verify` (also `npx tsx scripts/measure/event-loop.ts`): no single request may
// keep the server's event loop busy for more than 100 ms (EVENT_LOOP_LIMIT_MS), since every other
// request of every tenant waits meanwhile.
//
// It starts the real server (the compiled build as `npm start` runs it, its own process) with
// EVENT_LOOP_REPORT=<file> (src/lib/event-loop-report.ts: a perf_hooks.monitorEventLoopDelay
// histogram, written and reset on SIGUSR2), signs up, enables the modules, creates what the
// operations need (EVENT_LOOP_EMPLOYEES employees with salary setups and WPS details, default
// 2 000; formula salary components of the longest formula allowed; a processed payroll run), then
// drives each operation that does text or CPU work with the LARGEST inputs the OpenAPI document
// allows (maxLength / maxItems from generated/openapi.json), several times one after the other
// and some at once. Around each operation it asks the server for its histogram, so every row is
// the longest the loop was blocked while that operation ran. Fails when a row exceeds the limit or
// a request gets an answer other than the one expected. On a shared, loaded machine the histogram's
// wall time includes the time the server's thread was ready but had no CPU: a row's block is its
// longest delay times the share of its ready time the thread ran (schedstat; 1 on a quiet machine).
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { operationTable } from "../../generated/registry.ts";
import { deployMigrations } from "../../src/db/migrations.ts";
import type { EventLoopReport } from "../../src/lib/event-loop-report.ts";
import { freePort } from "../../test/support/ports.ts";
import { signupToken } from "../../test/support/signup.ts";
import { table } from "./load.ts";
import { scratchDatabase } from "../db/scratch-db.ts";
import { own } from "../support/owned-processes.ts";
import { productionServerArgs } from "./production-server.ts";

const root = path.resolve(import.meta.dirname, "../..");
const SESSION_SECRET = "event-loop-session-secret-0123456789abcdef";
const PASSWORD = "event-loop-password-1";
const json = { "content-type": "application/json", "x-forwarded-proto": "https" };
const doc = JSON.parse(readFileSync(path.join(root, "generated/openapi.json"), "utf8"));

export interface LoopRow {
  operation: string;
  case: string;
  requests: number;
  /** requests sent at once in the concurrent part */
  concurrent: number;
  statuses: string;
  slowestMs: number;
  maxLoopMs: number;
  /** of the time the server's main thread was ready to run during the case, the share it ran */
  cpuShare: number;
  p99LoopMs: number;
  result: "pass" | "FAIL";
}
export interface LoopResult {
  rows: LoopRow[];
  problems: string[];
  limitMs: number;
  employees: number;
  idleMaxMs: number;
  loadBefore: string;
  loadAfter: string;
}

// ───────────────────────── largest inputs, read from the document ─────────────────────────

function schemaOf(operationId: string): any {
  const meta = (operationTable as Record<string, { method: string; path: string }>)[operationId];
  const op = doc.paths[meta.path][meta.method];
  return resolve(op.requestBody?.content?.["application/json"]?.schema);
}
function resolve(s: any): any {
  if (s?.$ref)
    return resolve(
      s.$ref
        .split("/")
        .slice(1)
        .reduce((o: any, k: string) => o[k], doc),
    );
  // allOf of a component and extra `required`: the component's properties
  if (Array.isArray(s?.allOf)) return s.allOf.map(resolve).find((x: any) => x?.properties) ?? s;
  return s;
}
/** maxLength / maxItems of a property of an operation's body (`a.b` for nested, `items` for array items). */
function bound(operationId: string, prop: string, kind: "maxLength" | "maxItems" = "maxLength"): number {
  let s = schemaOf(operationId);
  for (const k of prop.split(".")) s = resolve(k === "items" ? s.items : s.properties[k]);
  const v = s?.[kind] ?? (Array.isArray(s?.oneOf) ? s.oneOf.map(resolve).find((x: any) => x?.[kind])?.[kind] : undefined);
  if (typeof v !== "number") throw new Error(`${operationId} ${prop} has no ${kind} in the document`);
  return v;
}
function queryBound(operationId: string, name: string): number {
  const meta = (operationTable as Record<string, { method: string; path: string }>)[operationId];
  const op = doc.paths[meta.path][meta.method];
  const p = [...(doc.paths[meta.path].parameters ?? []), ...(op.parameters ?? [])].map(resolve).find((x: any) => x.name === name);
  return p.schema.maxLength;
}
/** `unit` repeated to exactly `n` characters. */
const fill = (unit: string, n: number) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);

const PROSE =
  "Senior backend engineer with 7+ years of experience building REST APIs " +
  "in TypeScript and Node.js; 3-5 years with PostgreSQL, Redis and Kafka. " +
  "Led a team of 4 engineers, mentored juniors and ran code reviews. Docker, Kubernetes, AWS, Terraform, CI/CD with GitHub Actions. " +
  "Improved p99 latency by 40 % through query plans and caching.\n- Designed " +
  "event-driven microservices\n- Owned on-call and incident reviews. ";
const REQUIREMENTS =
  "5+ years of backend development with TypeScript and Node.js. " +
  "Strong PostgreSQL and data modelling. Experience with Docker and Kubernetes is a plus. " +
  "Mentor junior engineers.\nDesign and operate services.\n- Good communication and stakeholder management; ";

/** Texts that defeat naive regular expressions: long runs of whitespace, dots and hyphens after a digit or a word. */
function nasty(n: number): Record<string, string> {
  return {
    prose: fill(PROSE, n),
    "digit + spaces": `5${" ".repeat(n - 2)}x`,
    "digit + newlines/tabs": `Experience: 12${fill("\t \n", n - 20)}years.`,
    "word + hyphens": `a${"-".repeat(n - 2)}b`,
    "dots and spaces": `Skills${fill(". ", n - 12)}Kafka.`,
    "bullets + spaces": `-${" ".repeat(n - 3)}x;`,
  };
}

// ───────────────────────── server, report, requests ─────────────────────────

interface Server {
  proc: ChildProcess;
  base: string;
  reportFile: string;
  seq: number;
  log: () => string;
}

async function startServer(url: string, reportFile: string): Promise<Server> {
  const port = await freePort();
  const proc = spawn(process.execPath, productionServerArgs(), {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: url,
      PORT: String(port),
      NODE_ENV: "production",
      SESSION_SECRET,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      RUN_WORKER: "true",
      MIGRATE_ON_START: "false",
      LOG_LEVEL: "warn",
      TRUST_PROXY: "true",
      EVENT_LOOP_REPORT: reportFile,
      // the check calls every AI helper over a hundred times as one user: not what the budgets are for
      AI_CALLS_PER_USER_PER_HOUR: "100000",
      AI_CALLS_PER_TENANT_PER_HOUR: "100000",
      // the password rows sign up more often than the production limit per IP allows
      SIGNUP_MAX_PER_IP: "1000",
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  own(proc.pid, `server ${port}`);
  let log = "";
  proc.stderr!.on("data", (d) => (log = (log + d).slice(-4000)));
  const base = `http://127.0.0.1:${port}`;
  const until = Date.now() + 90_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited (${proc.exitCode}): ${log}`);
    if (
      await fetch(`${base}/api/health`).then(
        (r) => r.status < 500,
        () => false,
      )
    )
      break;
    if (Date.now() > until) throw new Error(`server not healthy in time: ${log}`);
    await new Promise((r) => setTimeout(r, 300));
  }
  return { proc, base, reportFile, seq: 0, log: () => log };
}

/**
 * The server's main thread's nanoseconds on a CPU and waiting in the run queue for one
 * (/proc/<pid>/task/<pid>/schedstat): on a shared machine the loop's delay is also the time the
 * thread was ready but not running, which is the machine's load, not a block of the server's.
 */
function schedTimes(pid: number | undefined): { cpu: number; wait: number } {
  try {
    const [cpu, wait] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, "utf8").split(" ").map(Number);
    return { cpu, wait };
  } catch {
    return { cpu: 0, wait: 0 };
  }
}

/** Asks the server for its histogram since the previous report (SIGUSR2) and waits for the file. */
async function loopReport(s: Server): Promise<EventLoopReport> {
  // let a timer sample land after the last response, so a block at the very end is counted
  await new Promise((r) => setTimeout(r, 100));
  s.proc.kill("SIGUSR2");
  const until = Date.now() + 30_000;
  for (;;) {
    if (existsSync(s.reportFile)) {
      const r = JSON.parse(readFileSync(s.reportFile, "utf8")) as EventLoopReport;
      if (r.seq > s.seq) {
        s.seq = r.seq;
        return r;
      }
    }
    if (Date.now() > until) throw new Error(`no event-loop report from the server: ${s.log()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

interface Req {
  method: string;
  path: string;
  body?: unknown;
  /** expected status (default 2xx) */
  expect?: number;
}

class Client {
  cookie = "";
  constructor(readonly base: string) {}
  async call(r: Req): Promise<{ status: number; body: any; ms: number }> {
    const t0 = performance.now();
    const res = await fetch(`${this.base}${r.path}`, {
      method: r.method,
      headers: { ...json, cookie: this.cookie },
      body: r.body === undefined ? undefined : JSON.stringify(r.body),
    });
    const type = res.headers.get("content-type") ?? "";
    const body = type.includes("json") ? await res.json() : await res.arrayBuffer();
    const set = res.headers.getSetCookie()[0];
    if (set) this.cookie = set.split(";")[0];
    return { status: res.status, body, ms: performance.now() - t0 };
  }
  async must(r: Req): Promise<any> {
    const x = await this.call(r);
    if (x.status >= 300) throw new Error(`${r.method} ${r.path}: ${x.status} ${JSON.stringify(x.body).slice(0, 300)}`);
    return x.body;
  }
}

const pathOf = (id: string, params: Record<string, string> = {}) =>
  (operationTable as Record<string, { path: string }>)[id].path.replace(/\{(\w+)\}/g, (_, k: string) => params[k]);

// ───────────────────────── the run ─────────────────────────

export async function runEventLoop(opts: { employees?: number; limitMs?: number; log?: (s: string) => void } = {}): Promise<LoopResult> {
  const employees = opts.employees ?? Number(process.env.EVENT_LOOP_EMPLOYEES ?? 2000);
  /** the server's PAYROLL_SYNC_LIMIT (it inherits this environment): larger runs are queued */
  const payrollSyncLimit = Number(process.env.PAYROLL_SYNC_LIMIT || 1000);
  const limitMs = opts.limitMs ?? Number(process.env.EVENT_LOOP_LIMIT_MS ?? 100);
  const log = opts.log ?? ((s: string) => console.log(s));
  const fmtLoad = () =>
    loadavg()
      .map((x) => x.toFixed(2))
      .join(", ");
  const loadBefore = fmtLoad();
  const problems: string[] = [];
  const rows: LoopRow[] = [];

  const dir = mkdtempSync(path.join(tmpdir(), "hrms-event-loop-")); // the server's loop report
  const scratch = await scratchDatabase("event_loop");
  const url = scratch.url;
  let server: Server | undefined;
  const c = new pg.Client({ connectionString: url });
  try {
    await deployMigrations(url);
    server = await startServer(url, path.join(dir, "event-loop.json"));
    await c.connect();
    const api = new Client(server.base);
    const email = `owner.${process.pid}@event-loop.test`;
    await api.must({
      method: "POST",
      path: pathOf("signup"),
      body: { name: "Loop Owner", email, password: PASSWORD, company_name: "Event Loop Ltd" },
    });
    // signup is confirmed by a mailed token; the script sets one itself (as the test fixtures do)
    await api.must({
      method: "POST",
      path: pathOf("confirmSignup"),
      body: { token: await signupToken(async (sql, params) => (await c.query(sql, params)).rows, email), password: PASSWORD },
    });
    const [{ tenant_id: tenantId }] = (
      await c.query(`SELECT m.tenant_id FROM memberships m JOIN users u ON u.id = m.user_id WHERE u.email = $1`, [email])
    ).rows;
    await api.must({
      method: "POST",
      path: pathOf("updateCompanySettings"),
      body: { modules: ["payroll", "recruitment", "helpdesk", "assets"] },
    });

    // employees (by SQL, as the load test does) with salary setups and WPS details
    const t0 = Date.now();
    await c.query(
      `INSERT INTO employees (tenant_id, employee_code, first_name, last_name, email, phone, department, ` +
        `designation, joining_date, gender, state, date_of_birth, labour_card_number, bank_routing_code, bank_iban)
       SELECT $1, 'EL-' || lpad(g::text, 6, '0'), 'Loop', 'Person ' || g, ` +
        `'loop' || g || '@example.test', '+91' || (9000000000 + g)::text, 'Engineering', 'Engineer',
              DATE '2021-01-04', CASE WHEN g % 2 = 0 THEN 'female' ELSE 'male' END, 'Karnataka', DATE '1990-06-01',
              lpad(g::text, 8, '0'), '802420101', 'AE07033' || lpad(g::text, 16, '0')
         FROM generate_series(1, $2::int) g`,
      [tenantId, employees],
    );
    await c.query(
      `INSERT INTO employee_salary_setups (tenant_id, employee_id, effective_from, monthly_ctc, all_components)
       SELECT tenant_id, id, DATE '2024-04-01', 30000 + (substring(employee_code from 4)::int % 40) ` +
        `* 1000, true FROM employees WHERE tenant_id = $1`,
      [tenantId],
    );
    // the owner is the first employee (for "my salary" and its PDF); sign in again so the session knows
    await c.query(
      `UPDATE memberships SET employee_id = (SELECT id FROM employees WHERE ` +
        `tenant_id = $1 AND employee_code = 'EL-000001') WHERE tenant_id = $1`,
      [tenantId],
    );
    await api.must({ method: "POST", path: pathOf("signIn"), body: { email, password: PASSWORD } });
    await c.query("ANALYZE");
    log(`event-loop: ${employees} employees with salary setups in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

    // salary components: a fixed basic and formula components of the longest formula allowed
    const formulaMax = bound("createSalaryComponent", "formula");
    await api.must({
      method: "POST",
      path: pathOf("createSalaryComponent"),
      body: { name: "Basic", code: "BASIC", type: "earning", calculation: "fixed", amount: "20000.00", pf_wage: true },
    });
    const longFormula = (k: number) => {
      const head = `round(BASIC * 0.${k}0, 2)`;
      const term = " + min(BASIC, CTC) * 0";
      return head + term.repeat(Math.floor((formulaMax - head.length) / term.length));
    };
    const FORMULAS = 8;
    const formulaCalls: Req[] = Array.from({ length: FORMULAS }, (_, k) => ({
      method: "POST",
      path: pathOf("createSalaryComponent"),
      body: { name: `Allowance ${k + 1}`, code: `ALW${k + 1}`, type: "earning", calculation: "formula", formula: longFormula(k + 1) },
    }));
    await api.must({
      method: "POST",
      path: pathOf("updateWpsSettings"),
      body: { employer_id: "1234567890123", bank_routing_code: "802420101", currency: "AED" },
    });

    const idle = await loopReport(server); // resets the histogram after the set-up
    await new Promise((r) => setTimeout(r, 1000));
    const idleMaxMs = (await loopReport(server)).max_ms;
    log(`event-loop: idle for 1 s: max loop delay ${idleMaxMs} ms (start-up and set-up: ${idle.max_ms} ms)`);

    /** One row: `sequential` requests one after the other, then `concurrent` at once; the server's histogram around them. */
    const phase = async (
      operation: string,
      label: string,
      make: (i: number) => Req,
      sequential: number,
      concurrent: number,
      settle?: () => Promise<void>,
    ) => {
      await loopReport(server!);
      const sched0 = schedTimes(server!.proc.pid);
      const statuses = new Map<number, number>();
      let slowest = 0;
      const unexpected: string[] = [];
      const one = async (i: number) => {
        const r = make(i);
        const x = await api.call(r);
        statuses.set(x.status, (statuses.get(x.status) ?? 0) + 1);
        slowest = Math.max(slowest, x.ms);
        if (r.expect ? x.status !== r.expect : x.status >= 300)
          unexpected.push(`${x.status} ${x.body instanceof ArrayBuffer ? "" : JSON.stringify(x.body).slice(0, 200)}`);
        return x;
      };
      for (let i = 0; i < sequential; i++) {
        await one(i);
        await settle?.(); // queued work (a large payroll run) finishes inside the measured window
      }
      await Promise.all(Array.from({ length: concurrent }, (_, i) => one(sequential + i)));
      const rep = await loopReport(server!);
      const sched1 = schedTimes(server!.proc.pid);
      // the share of its ready time the thread ran: the longest block, less the waits the machine imposed
      const ran = sched1.cpu - sched0.cpu;
      const cpuShare = ran > 0 ? ran / (ran + sched1.wait - sched0.wait) : 1;
      const blockMs = Math.round(rep.max_ms * cpuShare * 10) / 10;
      const fail = blockMs > limitMs || unexpected.length > 0;
      if (blockMs > limitMs)
        problems.push(
          `${operation} (${label}): the event loop was blocked for ${blockMs} ms on the CPU ` +
            `(${rep.max_ms} ms of wall time, ${Math.round(cpuShare * 100)} % of it running; limit ${limitMs} ms)`,
        );
      if (unexpected.length) problems.push(`${operation} (${label}): unexpected answers: ${unexpected.slice(0, 2).join(" | ")}`);
      const row: LoopRow = {
        operation,
        case: label,
        requests: sequential + concurrent,
        concurrent,
        statuses: [...statuses].map(([s, n]) => `${n}×${s}`).join(" "),
        slowestMs: Math.round(slowest),
        maxLoopMs: rep.max_ms,
        cpuShare: Math.round(cpuShare * 100) / 100,
        p99LoopMs: rep.p99_ms,
        result: fail ? "FAIL" : "pass",
      };
      rows.push(row);
      log(
        `event-loop: ${operation} (${label}): ${row.requests} requests, ${row.statuses}, ` +
          `slowest ${row.slowestMs} ms, loop max ${row.maxLoopMs} ms`,
      );
      return row;
    };
    const SEQ = 3;
    const CONC = 3;

    // ── the password rule (zxcvbn) on the longest password the document allows ──
    const passwordMax = bound("signup", "password");
    const passwords: [string, string, number][] = [
      ["l33t characters (accepted)", "4@3$1!0|7+(", 202],
      ["repeated common password in l33t (refused)", "p@$$w0rd", 400],
      ["repeated digits (refused)", "1234567890", 400],
    ];
    for (const [label, unit, expect] of passwords)
      await phase(
        "signup",
        `password ${passwordMax} chars: ${label}`,
        (i) => ({
          method: "POST",
          path: pathOf("signup"),
          body: { name: "Loop Signup", email: `signup.${i}.${Date.now()}@event-loop.test`, password: fill(unit, passwordMax) },
          expect,
        }),
        SEQ,
        CONC,
      );

    // ── recruitment AI helpers ──
    const resumeMax = bound("screenResume", "resume_text");
    const reqMax = bound("screenResume", "job_requirements");
    const skillsMax = bound("screenResume", "required_skills", "maxItems");
    const skillLen = bound("screenResume", "required_skills.items");
    const skills = Array.from({ length: skillsMax }, (_, i) =>
      fill(`${["typescript", "node.js", "postgresql", "kubernetes", "leadership"][i % 5]} skill ${i} `, skillLen).trim(),
    );
    for (const [label, resume] of Object.entries(nasty(resumeMax)))
      await phase(
        "screenResume",
        `resume ${resumeMax} chars: ${label}`,
        () => ({
          method: "POST",
          path: pathOf("screenResume"),
          body: { resume_text: resume, job_requirements: fill(REQUIREMENTS, reqMax), required_skills: skills },
        }),
        SEQ,
        CONC,
      );
    await phase(
      "screenResume",
      `requirements ${reqMax} chars: digit + spaces`,
      () => ({
        method: "POST",
        path: pathOf("screenResume"),
        body: { resume_text: fill(PROSE, resumeMax), job_requirements: nasty(reqMax)["digit + spaces"] },
      }),
      SEQ,
      CONC,
    );

    const jdMax = bound("generateJobDescription", "requirements");
    for (const [label, text] of Object.entries(nasty(jdMax)))
      await phase(
        "generateJobDescription",
        `requirements ${jdMax} chars: ${label}`,
        () => ({
          method: "POST",
          path: pathOf("generateJobDescription"),
          body: {
            title: fill("Senior Backend Engineer ", bound("generateJobDescription", "title")).trim(),
            department: fill("Engineering ", bound("generateJobDescription", "department")).trim(),
            requirements: text,
            location: "Bengaluru",
          },
        }),
        SEQ,
        CONC,
      );

    const iqMax = bound("generateInterviewQuestions", "requirements");
    for (const [label, text] of Object.entries(nasty(iqMax)).slice(0, 3))
      await phase(
        "generateInterviewQuestions",
        `requirements ${iqMax} chars: ${label}`,
        () => ({
          method: "POST",
          path: pathOf("generateInterviewQuestions"),
          body: {
            requirements: text,
            skills: skills.slice(0, bound("generateInterviewQuestions", "skills", "maxItems")),
            count: 30,
            seniority: "senior",
          },
        }),
        SEQ,
        CONC,
      );

    const contentMax = bound("generateRecruitmentContent", "details");
    for (const [label, text] of Object.entries(nasty(contentMax)).slice(0, 3))
      await phase(
        "generateRecruitmentContent",
        `details ${contentMax} chars: ${label}`,
        () => ({
          method: "POST",
          path: pathOf("generateRecruitmentContent"),
          body: {
            type: "linkedin_post",
            job_title: fill("Engineer ", 200).trim(),
            candidate_name: fill("Priya Sharma ", 200).trim(),
            details: text,
            tone: "friendly",
          },
        }),
        SEQ,
        CONC,
      );

    // ── letter template preview (PDF) ──
    const templateMax = bound("previewDocumentTemplatePdf", "template");
    const valueMax = (k: string) => bound("previewDocumentTemplatePdf", `values.${k}`);
    const bigValues = {
      job_title: `${fill("Principal Engineer ", valueMax("job_title") - 1)}x`,
      candidate_name: `${fill("Priya Sharma ", valueMax("candidate_name") - 1)}x`,
    };
    const templates: Record<string, string> = {
      "prose, blank lines, bullets": fill(
        "Dear {{candidate_name}},\n\nWe are pleased to offer you the role of {{job_title}} at " +
          "{{company_name}}.\n- Joining: {{joining_date}}\n- Salary: {{currency}} {{salary}}\n\n",
        templateMax,
      ),
      "fields filled with the longest values": fill("{{job_title}}", templateMax),
      "one line, no breaks": fill("word ", templateMax),
      "{{ + spaces, no }}": `{{${" ".repeat(templateMax - 3)}x`,
      "newline + spaces runs": `${fill("\n      \n", templateMax - 1)}x`,
    };
    for (const [label, template] of Object.entries(templates))
      await phase(
        "previewDocumentTemplatePdf",
        `template ${templateMax} chars: ${label}`,
        () => ({
          method: "POST",
          path: pathOf("previewDocumentTemplatePdf"),
          body: { template, values: bigValues, title: fill("Offer letter ", 200).trim() },
        }),
        SEQ,
        CONC,
      );

    // ── payroll: formulas, draft run calculate / recalculate / process, payslip PDF, WPS ──
    await phase("createSalaryComponent", `${FORMULAS} formulas of ${formulaMax} chars`, (i) => formulaCalls[i], FORMULAS, 0);
    // A run of more than PAYROLL_SYNC_LIMIT employees is calculated and processed by the job worker
    // of the same process (202, then status calculating/processing until done): each step waits
    // for it inside its measured window, so the worker's work is measured too.
    const runDone = async () => {
      const until = Date.now() + 600_000; // a hang guard
      for (;;) {
        const { rows } = await c.query(
          `SELECT status, failure_reason FROM payroll_runs WHERE tenant_id = $1 AND period_year = 2026 AND period_month = 10`,
          [tenantId],
        );
        if (rows[0] && !["calculating", "processing"].includes(rows[0].status)) {
          if (rows[0].failure_reason) problems.push(`payroll run failed in the job queue: ${rows[0].failure_reason}`);
          return;
        }
        if (Date.now() > until) throw new Error("the queued payroll run did not finish within 10 minutes");
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const ok202 = (r: Req): Req => ({ ...r, expect: employees > payrollSyncLimit ? 202 : undefined });
    await phase(
      "createPayrollRun",
      `calculate ${employees} employees, ${FORMULAS} long formulas`,
      () =>
        ok202({
          method: "POST",
          path: pathOf("createPayrollRun"),
          body: { period: "2026-10", notes: fill("note ", bound("createPayrollRun", "notes")) },
        }),
      1,
      0,
      runDone,
    );
    const [{ id: runId }] = (
      await c.query(`SELECT id FROM payroll_runs WHERE tenant_id = $1 AND period_year = 2026 AND period_month = 10`, [tenantId])
    ).rows;
    await phase(
      "updatePayrollRun",
      `recalculate ${employees} employees`,
      () => ok202({ method: "PUT", path: pathOf("updatePayrollRun", { id: runId }), body: { notes: "recalculated" } }),
      2,
      0,
      runDone,
    );
    await phase(
      "processPayrollRun",
      `process ${employees} employees`,
      () => ok202({ method: "POST", path: pathOf("processPayrollRun", { id: runId }) }),
      1,
      0,
      runDone,
    );
    await phase(
      "downloadMySalarySlip",
      "payslip PDF",
      () => ({ method: "GET", path: pathOf("downloadMySalarySlip", { draftId: runId }) }),
      SEQ,
      CONC,
    );
    await phase(
      "exportWpsSif",
      `SIF of ${employees} employees`,
      () => ({ method: "GET", path: pathOf("exportWpsSif", { draftId: runId }) }),
      SEQ,
      CONC,
    );

    // ── employees: search with the longest term, attendance import of the most records ──
    const searchMax = queryBound("listEmployees", "search");
    for (const [label, term] of Object.entries({
      "longest term": fill("Loop Person ", searchMax),
      "spaces run": `a${" ".repeat(searchMax - 2)}b`,
      "%_ and digits": fill("%_9", searchMax),
    }))
      await phase(
        "listEmployees",
        `search ${searchMax} chars: ${label}`,
        () => ({ method: "GET", path: `${pathOf("listEmployees")}?search=${encodeURIComponent(term)}&limit=100` }),
        SEQ,
        CONC,
      );
    const recordsMax = bound("importAttendance", "records", "maxItems");
    // notes as long as the 1 MB body limit allows with the most records (the document allows 1 000 characters each)
    const notesMax = Math.min(bound("importAttendance", "records.items.notes"), Math.floor((1_000_000 - recordsMax * 200) / recordsMax));
    const ids = (
      await c.query(`SELECT id FROM employees WHERE tenant_id = $1 ORDER BY employee_code LIMIT $2`, [tenantId, recordsMax])
    ).rows.map((r) => r.id as string);
    const day = (k: number) => `2026-09-${String(1 + k).padStart(2, "0")}`;
    await phase(
      "importAttendance",
      `${recordsMax} records, notes ${notesMax} chars`,
      (k) => ({
        method: "POST",
        path: pathOf("importAttendance"),
        body: {
          records: Array.from({ length: recordsMax }, (_, i) => ({
            employee_id: ids[i % ids.length],
            date: day(k),
            check_in: `${day(k)}T03:35:00Z`,
            check_out: `${day(k)}T12:40:00Z`,
            notes: fill("biometric ", notesMax),
          })),
        },
      }),
      2,
      0,
    );
    return { rows, problems, limitMs, employees, idleMaxMs, loadBefore, loadAfter: fmtLoad() };
  } finally {
    await c.end().catch(() => {});
    if (server && server.proc.exitCode === null) server.proc.kill("SIGKILL");
    await scratch.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function formatEventLoop(r: LoopResult): string {
  const head = [
    "operation",
    "case (largest inputs the document allows)",
    "requests",
    "at once",
    "answers",
    "slowest ms",
    "loop max ms",
    "loop p99 ms",
    "CPU share",
    "result",
  ];
  const body = r.rows.map((x) => [
    x.operation,
    x.case,
    String(x.requests),
    String(x.concurrent),
    x.statuses,
    String(x.slowestMs),
    String(x.maxLoopMs),
    String(x.p99LoopMs),
    String(x.cpuShare),
    x.result,
  ]);
  return [
    `Event loop: longest block of the server's loop per operation (limit ${r.limitMs} ms), ${r.employees} employees; ` +
      `idle loop max ${r.idleMaxMs} ms; load average ${r.loadBefore} before, ${r.loadAfter} after (2 shared cores: ` +
      `server, PostgreSQL and this script)`,
    table(head, body),
  ].join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await runEventLoop();
  console.log(formatEventLoop(r));
  if (r.problems.length) {
    console.error(`event-loop FAILED:\n  ${r.problems.join("\n  ")}`);
    process.exit(1);
  }
}
