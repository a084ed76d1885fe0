// Load test of `make verify` (also `tsx scripts/measure/load.ts`): the real server (the compiled build as `npm start` runs it, production
// settings, its own process) against a database holding LOAD_EMPLOYEES employees (default 100 000)
// across many tenants, driven by autocannon for LOAD_SECONDS (default 60) with a mixed workload of
// many users of every role: sign-in, read profile, settings, members, notifications, activity log
// and - as soon as the operations are in generated/registry.ts - list/search/read employees and
// leave requests with approvals. Checks: 0 errors, 0 non-2xx (so 0 5xx), RSS growth ≤ 20 % from
// the end of the warm-up (LOAD_WARMUP_SECONDS, default 60) to the end of the run; reports p99 per route and the throughput of the bare
// node:http + pg baseline (scripts/measure/load-baseline.mjs) for the same read work, in the same run.
import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { operationTable } from "../../generated/registry.ts";
import { hashPassword } from "../../src/platform/identity/passwords.ts";
import { deployMigrations } from "../../src/db/migrations.ts";
import { startServerProcess } from "../../test/support/server-process.ts";
import { scratchDatabase } from "../db/scratch-db.ts";
import { own } from "../support/owned-processes.ts";
import { productionServerArgs } from "./production-server.ts";

const root = path.resolve(import.meta.dirname, "../..");
/** autocannon with the options this script uses beyond scripts/measure/autocannon.d.ts (request sequences, onResponse, statusCodeStats). */
const cannon = autocannon as unknown as (opts: Record<string, unknown>) => Promise<any>;
export const SESSION_SECRET = "load-test-session-secret-0123456789abcdef";
export const PASSWORD = "load-password-1";

export interface RouteRow {
  route: string;
  operations: string;
  connections: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  note?: string;
}

export interface LoadReport {
  seconds: number;
  employees: number;
  tenants: number;
  users: number;
  rows: RouteRow[];
  /** RSS once the users are signed in, before any load */
  rssStartMb: number;
  warmSeconds: number;
  rssBeforeMb: number;
  /** highest RSS sampled (every 2 s) during the measured run */
  rssPeakMb: number;
  rssAfterMb: number;
  /** VmHWM at the end of the run: the highest RSS the server reached, warm-up included */
  hwmMb: number;
  baseline: { route: string; api: number; bare: number }[];
  problems: string[];
}

const has = (id: string) => id in operationTable;
const pathOf = (id: string) => (operationTable as Record<string, { path: string }>)[id]?.path;
const SEARCH_TERMS = ["Aarav", "Iyer", "EMP-0042", "emp1234", "+9190000", "Layla Haddad", "sneha"];

/** VmRSS (or VmHWM, the highest RSS the process has had) in MB, from /proc. */
function rssMb(pid: number, field: "VmRSS" | "VmHWM" = "VmRSS"): number {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Math.round(Number(m[1]) / 102.4) / 10 : NaN;
}
/** The server's RSS bound, at idle and after the load (under 300 MB on a 2-core machine). */
export const RSS_LIMIT_MB = Number(process.env.LOAD_RSS_LIMIT_MB ?? 300);

export interface SeedUser {
  email: string;
  role: string;
  tenantId: string;
  tenantIndex: number;
  cookie?: string;
}

/** Tenants with a member of every role (three employees each), employees by SQL, notifications and audit history. */
export async function seed(url: string, tenants: number, employees: number): Promise<{ users: SeedUser[]; tenantIds: string[] }> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const hash = await hashPassword(PASSWORD);
    const tenantIds = (
      await c.query(
        `INSERT INTO tenants (name, modules) SELECT 'Load tenant ' || g, '{payroll}' FROM generate_series(1, $1) g ORDER BY g RETURNING id`,
        [tenants],
      )
    ).rows.map((r) => r.id as string);
    const roles = ["owner", "admin", "hr", "manager", "employee", "employee", "employee"];
    const users: SeedUser[] = [];
    for (const [ti, tenantId] of tenantIds.entries())
      for (const [ri, role] of roles.entries()) {
        const email = `load.t${ti}.${role}${ri}@example.test`;
        const u = await c.query(`INSERT INTO users (email, name, password_hash) VALUES ($1, $2, $3) RETURNING id`, [
          email,
          `${role} ${ti}.${ri}`,
          hash,
        ]);
        await c.query(`INSERT INTO memberships (tenant_id, user_id, role) VALUES ($1, $2, $3)`, [tenantId, u.rows[0].id, role]);
        users.push({ email, role, tenantId, tenantIndex: ti });
      }
    // the first tenant is the big one; the rest share what is left (at least 100 each)
    const small = Math.max(100, Math.floor((employees * 0.1) / Math.max(1, tenants - 1)));
    const big = Math.max(employees - small * (tenants - 1), small);
    const first = [
      "Aarav",
      "Vivaan",
      "Aditya",
      "Diya",
      "Ananya",
      "Ishaan",
      "Kavya",
      "Rohan",
      "Saanvi",
      "Arjun",
      "Fatima",
      "Omar",
      "Layla",
      "Yusuf",
      "Mei",
      "Priya",
      "Rahul",
      "Sneha",
      "Vikram",
      "Zara",
    ];
    const last = [
      "Sharma",
      "Verma",
      "Iyer",
      "Nair",
      "Reddy",
      "Khan",
      "Patel",
      "Gupta",
      "Singh",
      "Das",
      "Menon",
      "Rao",
      "Al Mansouri",
      "Haddad",
      "Kumar",
      "Joshi",
      "Bose",
      "Chopra",
      "Pillai",
      "Shah",
    ];
    const depts = ["Engineering", "Sales", "Finance", "Operations", "People", "Support", "Marketing", "Legal"];
    for (const [ti, tenantId] of tenantIds.entries()) {
      const n = ti === 0 ? big : small;
      await c.query(
        `INSERT INTO employees (tenant_id, employee_code, first_name, last_name, ` +
          `email, phone, department, designation, joining_date, status, state)
         SELECT $1, 'EMP-' || lpad(g::text, 6, '0'), ($3::text[])[1 + g % 20], ` +
          `($4::text[])[1 + (g / 20) % 20], 'emp' || g || '.t' || $5 || '@load.test',
                '+91' || (9000000000 + g)::text, ($6::text[])[1 + g % 8], ` +
          `'Associate ' || (1 + g % 5), date '2015-01-01' + (g % 3650), 'active', 'KA'
           FROM generate_series(1, $2) g`,
        [tenantId, n, first, last, ti, depts],
      );
    }
    await c.query(
      `UPDATE memberships m SET employee_id = e.id FROM (SELECT DISTINCT ON (tenant_id) tenant_id, ` +
        `id FROM employees ORDER BY tenant_id, employee_code) e WHERE e.tenant_id = m.tenant_id AND m.role = 'employee'`,
    );
    await c.query(
      `INSERT INTO notifications (tenant_id, user_id, kind, title) SELECT m.tenant_id, ` +
        `m.user_id, 'load', 'Notification ' || g FROM memberships m, generate_series(1, 30) g`,
    );
    await c.query(
      `INSERT INTO audit_logs (tenant_id, action, entity_type, entity_id, changes, created_at)
       SELECT t.id, (array['employee.updated','auth.sign_in','settings.updated','member.invited'])[1 + g % 4], ` +
        `'employee', gen_random_uuid(), '{"x":{"from":1,"to":2}}', now() - (g || ' minutes')::interval
         FROM tenants t, generate_series(1, $1) g`,
      [Math.ceil(50_000 / tenants)],
    );
    await c.query("ANALYZE");
    return { users, tenantIds };
  } finally {
    await c.end();
  }
}

export interface Route {
  name: string;
  operations: string[];
  connections: number;
  /** who calls it */
  callers: (u: SeedUser) => boolean;
  /** one request (or a sequence) for a caller */
  requests: (pick: () => SeedUser, ctx: RouteContext) => object[];
}
export interface RouteContext {
  employeeIds: Map<string, string[]>;
  /** leave requests made so far (across warm-up and run: each (employee, day) is used once) */
  leaveSeq: number;
}

export const json = { "content-type": "application/json" };

/** Signs every seeded user in at `base` and keeps their session cookie (`hrms.sid`, or `__Host-hrms.sid` in production). */
export async function signInAll(base: string, users: SeedUser[], headers: Record<string, string> = {}): Promise<void> {
  for (const u of users) {
    const r = await fetch(`${base}/api/auth/sign-in`, {
      method: "POST",
      headers: { ...json, ...headers },
      body: JSON.stringify({ email: u.email, password: PASSWORD }),
    });
    if (r.status !== 200) throw new Error(`sign-in of ${u.email} at ${base}: ${r.status} ${await r.text()}`);
    u.cookie = r.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .find((c) => /^(__Host-)?hrms\.sid=/.test(c));
  }
}

/** The load mix's context: up to 500 employee ids (at random) of each seeded user's company. */
export async function routeContext(url: string, users: SeedUser[]): Promise<RouteContext> {
  const ctx: RouteContext = { employeeIds: new Map(), leaveSeq: 0 };
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    for (const tid of new Set(users.map((x) => x.tenantId)))
      ctx.employeeIds.set(
        tid,
        (await db.query(`SELECT id FROM employees WHERE tenant_id = $1 ORDER BY random() LIMIT 500`, [tid])).rows.map((r) => r.id),
      );
  } finally {
    await db.end();
  }
  return ctx;
}
const rnd = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)];
const withCookie = (u: SeedUser, extra: Record<string, string> = {}) => ({ cookie: u.cookie!, ...extra });

function get(pathFn: (u: SeedUser, ctx: RouteContext) => string) {
  return (pick: () => SeedUser, ctx: RouteContext) => [
    {
      method: "GET",
      setupRequest: (req: any) => {
        const u = pick();
        return { ...req, path: pathFn(u, ctx), headers: withCookie(u) };
      },
    },
  ];
}

/** The workload. An entry runs when all of its operations are in the registry; add areas' routes here. */
export const ROUTES: Route[] = [
  {
    name: "sign-in",
    operations: ["signIn"],
    connections: 2,
    callers: () => true,
    requests: (pick) => [
      {
        method: "POST",
        setupRequest: (req: any) => ({
          ...req,
          path: "/api/auth/sign-in",
          headers: { ...json, "x-forwarded-proto": "https" },
          body: JSON.stringify({ email: pick().email, password: PASSWORD }),
        }),
      },
    ],
  },
  {
    name: "read profile (session)",
    operations: ["getSession"],
    connections: 4,
    callers: () => true,
    requests: get(() => "/api/auth/session"),
  },
  {
    name: "company settings",
    operations: ["getCompanySettings"],
    connections: 2,
    callers: () => true,
    requests: get(() => "/api/configuration/company-settings"),
  },
  {
    name: "members",
    operations: ["listMembers"],
    connections: 2,
    callers: (u) => ["owner", "admin", "hr"].includes(u.role),
    requests: get(() => "/api/configuration/members"),
  },
  {
    name: "notifications",
    operations: ["listNotifications"],
    connections: 3,
    callers: () => true,
    requests: get(() => `/api/notifications?page=${1 + Math.floor(Math.random() * 2)}&limit=10`),
  },
  {
    name: "activity log",
    operations: ["listActivityLog"],
    connections: 2,
    callers: (u) => ["owner", "admin"].includes(u.role),
    requests: get(() => `/api/configuration/activity-log?page=${1 + Math.floor(Math.random() * 50)}&action=employee.`),
  },
  {
    name: "list employees",
    operations: ["listEmployees"],
    connections: 4,
    callers: (u) => ["owner", "admin", "hr"].includes(u.role),
    requests: get(() => `${pathOf("listEmployees")}?page=${1 + Math.floor(Math.random() * 200)}&limit=20`),
  },
  {
    name: "search employees",
    operations: ["listEmployees"],
    connections: 4,
    callers: (u) => ["owner", "admin", "hr"].includes(u.role),
    requests: get(() => `${pathOf("listEmployees")}?search=${encodeURIComponent(rnd(SEARCH_TERMS))}&limit=20`),
  },
  {
    name: "read employee",
    operations: ["getEmployee"],
    connections: 3,
    callers: (u) => ["owner", "admin", "hr"].includes(u.role),
    requests: get((u, ctx) =>
      pathOf("getEmployee").replace(/\{[^}]+\}/, rnd(ctx.employeeIds.get(u.tenantId) ?? ["00000000-0000-4000-8000-000000000000"])),
    ),
  },
  {
    name: "leave requests",
    operations: ["listLeaveRequests"],
    connections: 2,
    callers: (u) => ["owner", "admin", "hr", "manager"].includes(u.role),
    requests: get(() => `${pathOf("listLeaveRequests")}?limit=20`),
  },
  {
    name: "leave request + approval",
    operations: ["createLeaveRequest", "updateLeaveRequest", "createLeaveType", "createLeavePeriod", "createLeaveAllocations"],
    connections: 2,
    callers: (u) => u.role === "hr",
    requests: (pick, ctx) => {
      return [
        {
          method: "POST",
          setupRequest: (req: any, context: any) => {
            const u = pick();
            const ids = ctx.employeeIds.get(`leave:${u.tenantId}`) ?? [];
            const n = ctx.leaveSeq++;
            const employeeId = ids[n % Math.max(1, ids.length)];
            const day = new Date(Date.now() + (14 + Math.floor(n / Math.max(1, ids.length)) * 7) * 86_400_000);
            while (day.getUTCDay() % 6 === 0) day.setUTCDate(day.getUTCDate() + 1);
            const d = day.toISOString().slice(0, 10);
            context.user = u;
            return {
              ...req,
              path: pathOf("createLeaveRequest"),
              headers: withCookie(u, json),
              body: JSON.stringify({
                employee_id: employeeId,
                leave_type_id: ctx.employeeIds.get(`leavetype:${u.tenantId}`)?.[0],
                from_date: d,
                to_date: d,
                reason: "load",
              }),
            };
          },
          onResponse: (status: number, body: string, context: any) => {
            if (status === 201) context.requestId = JSON.parse(body).data.id;
          },
        },
        {
          method: "PUT",
          setupRequest: (req: any, context: any) =>
            context.requestId
              ? {
                  ...req,
                  path: pathOf("updateLeaveRequest").replace(/\{[^}]+\}/, context.requestId),
                  headers: withCookie(context.user, json),
                  body: JSON.stringify({ status: "approved" }),
                }
              : null,
        },
      ];
    },
  },
];

/** Leave setup per tenant for the approval route (type, current period, allocations for a pool of employees). */
export async function leaveSetup(base: string, users: SeedUser[], ctx: RouteContext, url: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    for (const hr of users.filter((u) => u.role === "hr")) {
      const call = async (id: string, body: unknown) => {
        const r = await fetch(`${base}${pathOf(id)}`, {
          method: "POST",
          headers: { ...json, cookie: hr.cookie! },
          body: JSON.stringify(body),
        });
        if (r.status >= 300) throw new Error(`leave setup ${id}: ${r.status} ${await r.text()}`);
        return (await r.json()).data;
      };
      const type = await call("createLeaveType", { name: "Load leave", code: "LOAD", min_notice_days: 0 });
      const start = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1));
      await call("createLeavePeriod", {
        name: "Load period",
        start_date: start.toISOString().slice(0, 10),
        end_date: new Date(start.getTime() + 364 * 86_400_000).toISOString().slice(0, 10),
        is_current: true,
      });
      const pool = (
        await c.query(`SELECT id FROM employees WHERE tenant_id = $1 ORDER BY employee_code LIMIT 100`, [hr.tenantId])
      ).rows.map((r) => r.id as string);
      for (const employee_id of pool) await call("createLeaveAllocations", { employee_id, leave_type_id: type.id, days: "300" });
      ctx.employeeIds.set(`leave:${hr.tenantId}`, pool);
      ctx.employeeIds.set(`leavetype:${hr.tenantId}`, [type.id]);
    }
  } finally {
    await c.end();
  }
}

/** First answers that were not 2xx, per route (shown with the failure). */
export const failures = new Map<string, string[]>();

export function runCannon(base: string, route: Route, users: SeedUser[], ctx: RouteContext, seconds: number): Promise<any> {
  const mine = users.filter(route.callers);
  let i = Math.floor(Math.random() * mine.length);
  const pick = () => mine[i++ % mine.length];
  const seen = failures.get(route.name) ?? [];
  failures.set(route.name, seen);
  const requests = route.requests(pick, ctx).map((r: any) => ({
    ...r,
    onResponse: (status: number, body: string, context: any, headers: unknown) => {
      if (status >= 300 && seen.length < 3) seen.push(`${status} ${String(body).slice(0, 160)}`);
      r.onResponse?.(status, body, context, headers);
    },
  }));
  return cannon({ url: base, connections: route.connections, duration: seconds, requests, timeout: 30 });
}

export async function startProcess(args: string[], env: Record<string, string>, healthPath: string) {
  // on a port the child takes itself (PORT=0) and reports: no port to lose to another process
  const { proc, port, base } = await startServerProcess(args, {
    cwd: root,
    env: { ...process.env, ...env },
    healthPath,
    timeoutMs: 90_000,
  });
  own(proc.pid, `server ${port}`);
  return { proc, port, base };
}

export async function runLoad(
  opts: { seconds?: number; employees?: number; tenants?: number; log?: (s: string) => void } = {},
): Promise<LoadReport> {
  const seconds = opts.seconds ?? Number(process.env.LOAD_SECONDS ?? 60);
  const employees = opts.employees ?? Number(process.env.LOAD_EMPLOYEES ?? 100_000);
  const tenants = opts.tenants ?? Number(process.env.LOAD_TENANTS ?? 10);
  const log = opts.log ?? ((s: string) => console.log(s));
  const problems: string[] = [];
  const scratch = await scratchDatabase("load");
  const url = scratch.url;
  const procs: ChildProcess[] = [];
  try {
    await deployMigrations(url);
    let t0 = Date.now();
    const { users } = await seed(url, tenants, employees);
    log(`load: seeded ${tenants} tenants, ${users.length} users, ${employees} employees in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

    const env = {
      DATABASE_URL: url,
      NODE_ENV: "production",
      SESSION_SECRET,
      RUN_WORKER: "false",
      MIGRATE_ON_START: "false",
      LOG_LEVEL: "warn",
      TRUST_PROXY: "true",
    }; // production: Secure cookies behind a TLS-terminating proxy
    const api = await startProcess(productionServerArgs(), { ...env, PUBLIC_URL: "http://127.0.0.1" }, "/api/health");
    procs.push(api.proc);
    t0 = Date.now();
    await signInAll(api.base, users, { "x-forwarded-proto": "https" });
    log(`load: ${users.length} users signed in in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

    const ctx = await routeContext(url, users);

    const active = ROUTES.filter((r) => r.operations.every(has));
    const absent = ROUTES.filter((r) => !r.operations.every(has));
    for (const r of absent)
      log(`load: route "${r.name}" waits for ${r.operations.filter((o) => !has(o)).join(", ")} (not in the document yet)`);
    if (active.some((r) => r.name === "leave request + approval")) await leaveSetup(api.base, users, ctx, url);

    // Warm-up at the same mix, then RSS "before". Its length is about reaching a steady state, not
    // about hiding growth: measured on 2 cores, RSS climbs for about a minute of this traffic
    // (V8 sizing its heap; likely also the libuv threads' malloc arenas keeping the 16 MB of scrypt
    // working memory that sign-in uses) and then stays flat - 565 MB → 566 MB over the last three
    // and a half minutes of a 240 s run - while a 10 s warm-up reported +25 %. A leak keeps growing.
    const rssStartMb = rssMb(api.proc.pid!);
    const warm = Math.min(Number(process.env.LOAD_WARMUP_SECONDS ?? 60), seconds);
    log(`load: RSS ${rssStartMb} MB before any load; warming up for ${warm} s`);
    await Promise.all(active.map((r) => runCannon(api.base, r, users, ctx, warm)));
    const rssBeforeMb = rssMb(api.proc.pid!);
    log(`load: warm-up ${warm} s done, RSS ${rssBeforeMb} MB; running ${active.length} routes for ${seconds} s`);
    let rssPeakMb = rssBeforeMb;
    const sampler = setInterval(() => (rssPeakMb = Math.max(rssPeakMb, rssMb(api.proc.pid!))), 2000);
    const results = await Promise.all(active.map((r) => runCannon(api.base, r, users, ctx, seconds))).finally(() => clearInterval(sampler));
    const rssAfterMb = rssMb(api.proc.pid!);
    rssPeakMb = Math.max(rssPeakMb, rssAfterMb);
    const hwmMb = rssMb(api.proc.pid!, "VmHWM");

    const rows: RouteRow[] = active.map((r, k) => {
      const res = results[k];
      const fivexx = Object.entries(res.statusCodeStats ?? {})
        .filter(([s]) => s.startsWith("5"))
        .reduce((n, [, v]: [string, any]) => n + Number(v.count), 0);
      if (res.errors || res.timeouts) problems.push(`${r.name}: ${res.errors} errors, ${res.timeouts} timeouts`);
      if (fivexx) problems.push(`${r.name}: ${fivexx} responses 5xx`);
      if (res.non2xx)
        problems.push(
          `${r.name}: ${res.non2xx} non-2xx responses (${JSON.stringify(res.statusCodeStats)}), e.g. ${failures.get(r.name)?.join(" | ")}`,
        );
      return {
        route: r.name,
        operations: r.operations.slice(0, 2).join("+"),
        connections: r.connections,
        requests: res.requests.total,
        rps: Math.round(res.requests.average),
        p50: res.latency.p50,
        p99: res.latency.p99,
        non2xx: res.non2xx,
        errors: res.errors + res.timeouts,
      };
    });
    for (const r of absent)
      rows.push({
        route: r.name,
        operations: r.operations.slice(0, 2).join("+"),
        connections: 0,
        requests: 0,
        rps: 0,
        p50: 0,
        p99: 0,
        non2xx: 0,
        errors: 0,
        note: "not in the document yet",
      });
    if (rssStartMb > RSS_LIMIT_MB) problems.push(`RSS ${rssStartMb} MB before any load, more than ${RSS_LIMIT_MB} MB`);
    if (rssAfterMb > RSS_LIMIT_MB) problems.push(`RSS ${rssAfterMb} MB after the load, more than ${RSS_LIMIT_MB} MB`);
    if (rssAfterMb > rssBeforeMb * 1.2)
      problems.push(
        `RSS grew ${(((rssAfterMb - rssBeforeMb) / rssBeforeMb) * 100).toFixed(1)} % (${rssBeforeMb} → ${rssAfterMb} MB), more than 20 %`,
      );

    // baseline: the same read work on bare node:http + pg, same connections, same time, one after the other
    const bare = await startProcess(
      [path.join(root, "scripts/measure/load-baseline.mjs")],
      { DATABASE_URL: url, SESSION_SECRET },
      "/session",
    );
    procs.push(bare.proc);
    const cmpSeconds = Math.min(20, seconds);
    const compare: { route: string; apiPath: string; barePath: string; when: boolean }[] = [
      { route: "read profile (session)", apiPath: "/api/auth/session", barePath: "/session", when: true },
      {
        route: "list employees",
        apiPath: `${pathOf("listEmployees")}?page=1&limit=20`,
        barePath: "/employees?page=1",
        when: has("listEmployees"),
      },
    ];
    const baseline: LoadReport["baseline"] = [];
    const hrUsers = users.filter((x) => ["owner", "admin", "hr"].includes(x.role));
    for (const cmp of compare.filter((x) => x.when)) {
      const one = async (base: string, p: string) => {
        let j = 0;
        const res = await cannon({
          url: base,
          connections: 8,
          duration: cmpSeconds,
          requests: [
            { method: "GET", setupRequest: (req: any) => ({ ...req, path: p, headers: { cookie: hrUsers[j++ % hrUsers.length].cookie } }) },
          ],
        });
        if (res.non2xx || res.errors)
          problems.push(`baseline comparison ${cmp.route} on ${base}: ${res.non2xx} non-2xx, ${res.errors} errors`);
        return Math.round(res.requests.average);
      };
      baseline.push({ route: cmp.route, api: await one(api.base, cmp.apiPath), bare: await one(bare.base, cmp.barePath) });
    }
    return {
      seconds,
      employees,
      tenants,
      users: users.length,
      rows,
      rssStartMb,
      warmSeconds: warm,
      rssBeforeMb,
      rssPeakMb,
      rssAfterMb,
      hwmMb,
      baseline,
      problems,
    };
  } finally {
    for (const p of procs) if (p.exitCode === null) p.kill("SIGKILL");
    await scratch.drop();
  }
}

export function formatLoad(r: LoadReport): string {
  const head = ["route", "operations", "conn", "requests", "req/s", "p50 ms", "p99 ms", "non-2xx", "errors"];
  const body = r.rows.map((x) =>
    x.note
      ? [x.route, x.operations, "-", "-", "-", "-", "-", "-", x.note]
      : [x.route, x.operations, x.connections, x.requests, x.rps, x.p50, x.p99, x.non2xx, x.errors].map(String),
  );
  const total = r.rows.reduce((n, x) => n + x.requests, 0);
  body.push([
    "TOTAL",
    "",
    String(r.rows.reduce((n, x) => n + x.connections, 0)),
    String(total),
    String(Math.round(total / r.seconds)),
    "",
    String(Math.max(...r.rows.map((x) => x.p99))),
    String(r.rows.reduce((n, x) => n + x.non2xx, 0)),
    String(r.rows.reduce((n, x) => n + x.errors, 0)),
  ]);
  const lines = [
    `Load: ${r.seconds} s, ${r.tenants} tenants, ${r.users} users, ${r.employees} employees ` +
      `(2 shared CPU cores: server, PostgreSQL and load generator on one machine)`,
    table(head, body),
  ];
  lines.push(
    `RSS before any load ${r.rssStartMb} MB; after the ${r.warmSeconds} s warm-up ${r.rssBeforeMb} MB → after ` +
      `the run ${r.rssAfterMb} MB (${(((r.rssAfterMb - r.rssBeforeMb) / r.rssBeforeMb) * 100).toFixed(1)} %, ` +
      `limit +20 %; peak during the run ${r.rssPeakMb} MB, VmHWM ${r.hwmMb} MB; bound ${RSS_LIMIT_MB} MB idle and after)`,
  );
  if (r.baseline.length)
    lines.push(
      table(
        ["same work, 8 connections", "API req/s", "bare node:http + pg req/s", "API / bare"],
        r.baseline.map((b) => [b.route, String(b.api), String(b.bare), `${((b.api / b.bare) * 100).toFixed(0)} %`]),
      ),
    );
  return lines.join("\n");
}

export function table(head: string[], rows: string[][]): string {
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i] ?? "").length)));
  const line = (r: string[]) => `| ${r.map((c, i) => String(c ?? "").padEnd(w[i])).join(" | ")} |`;
  return [line(head), `|${w.map((x) => "-".repeat(x + 2)).join("|")}|`, ...rows.map(line)].join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const report = await runLoad();
  console.log(formatLoad(report));
  if (report.problems.length) {
    console.error(`load FAILED:\n  ${report.problems.join("\n  ")}`);
    process.exit(1);
  }
}
