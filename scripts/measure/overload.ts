// Overload measurement (`tsx scripts/measure/overload.ts`, and a step of `make verify`): the real server
// (the compiled build as `npm start` runs it, production settings, its own process) over a throw-away database, driven with a
// realistic read mix (session, settings, notifications, members, employee list/search/profile,
// leave requests).
//   1. sustainable rate: closed loop, OVERLOAD_PROBE_CONNECTIONS (32) clients for
//      OVERLOAD_PROBE_SECONDS (10) after a warm-up - what the server completes per second;
//   2. overload: an open loop (arrivals at a fixed rate, whatever the answers) of
//      OVERLOAD_FACTOR (3) times that rate for OVERLOAD_SECONDS (25) over up to
//      OVERLOAD_CONNECTIONS (256) keep-alive connections, with a health probe every 100 ms beside
//      it: status counts, share of 503 with Retry-After, goodput, latencies, health;
//   3. recovery: 3 s later, a closed loop of 8 clients for 5 s must get nothing but 2xx.
// Fails on any 500, a 503 without Retry-After, a request unanswered in 30 s or a socket error, a
// health answer that is not 200, or any non-2xx in the recovery, or a health p99 over 1 s - or, on a
// machine so busy that health is slower than that with the server merely at capacity, over twice its
// p99 during the sustainable-rate probe: what is proved is that overload (a full admission queue and
// pool) does not hold health back, not how fast the machine is.
//
// OVERLOAD_SWEEP="DATABASE_POOL_SIZE=5,10,20" (or any setting of the server) repeats 1 and 2 for
// each value on the same database and prints one table - how the defaults were chosen.
// Uses TEST_DATABASE_URL / DATABASE_URL or a throw-away embedded PostgreSQL.
import http from "node:http";
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { operationTable } from "../../generated/registry.ts";
import { processConfig as config } from "../../src/config.ts";
import { deployMigrations } from "../../src/db/migrations.ts";
import { PASSWORD, SESSION_SECRET, seed, startProcess, table, type SeedUser } from "./load.ts";
import { scratchDatabase } from "../db/scratch-db.ts";
import { productionServerArgs } from "./production-server.ts";

const has = (id: string) => id in operationTable;
const pathOf = (id: string) => (operationTable as Record<string, { path: string }>)[id]?.path;
const SEARCH_TERMS = ["Aarav", "Iyer", "EMP-0042", "emp1234", "+9190000", "Layla Haddad", "sneha"];
const num = (name: string, dflt: number) => Number(process.env[name] ?? dflt);

interface Target {
  path: string;
  cookie: string;
}

/** The read mix: weighted routes, each picking a caller allowed to use it. */
function readMix(users: SeedUser[], employeeIds: Map<string, string[]>): () => Target {
  const staff = users.filter((u) => ["owner", "admin", "hr"].includes(u.role));
  const managers = users.filter((u) => ["owner", "admin", "hr", "manager"].includes(u.role));
  const rnd = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)];
  const routes: { weight: number; when: boolean; make: () => Target }[] = [
    { weight: 3, when: true, make: () => ({ path: "/api/auth/session", cookie: rnd(users).cookie! }) },
    { weight: 2, when: true, make: () => ({ path: "/api/configuration/company-settings", cookie: rnd(users).cookie! }) },
    {
      weight: 2,
      when: true,
      make: () => ({ path: `/api/notifications?page=${1 + Math.floor(Math.random() * 2)}&limit=10`, cookie: rnd(users).cookie! }),
    },
    { weight: 1, when: true, make: () => ({ path: "/api/configuration/members", cookie: rnd(staff).cookie! }) },
    {
      weight: 2,
      when: has("listEmployees"),
      make: () => ({ path: `${pathOf("listEmployees")}?page=${1 + Math.floor(Math.random() * 100)}&limit=20`, cookie: rnd(staff).cookie! }),
    },
    {
      weight: 2,
      when: has("listEmployees"),
      make: () => ({
        path: `${pathOf("listEmployees")}?search=${encodeURIComponent(rnd(SEARCH_TERMS))}&limit=20`,
        cookie: rnd(staff).cookie!,
      }),
    },
    {
      weight: 2,
      when: has("getEmployee"),
      make: () => {
        const u = rnd(staff);
        return {
          path: pathOf("getEmployee").replace(/\{[^}]+\}/, rnd(employeeIds.get(u.tenantId) ?? ["00000000-0000-4000-8000-000000000000"])),
          cookie: u.cookie!,
        };
      },
    },
    {
      weight: 1,
      when: has("listLeaveRequests"),
      make: () => ({ path: `${pathOf("listLeaveRequests")}?limit=20`, cookie: rnd(managers).cookie! }),
    },
  ];
  const bag = routes.filter((r) => r.when).flatMap((r) => Array(r.weight).fill(r.make) as (() => Target)[]);
  return () => rnd(bag)();
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
const round = (x: number) => Math.round(x * 10) / 10;

interface Tally {
  sent: number;
  statuses: Record<string, number>;
  retryAfter503: number;
  okLatencies: number[];
  refusedLatencies: number[];
  errors: number;
  timeouts: number;
  /** connections opened */
  sockets: number;
  firstProblems: string[];
}

function newTally(): Tally {
  return {
    sent: 0,
    statuses: {},
    retryAfter503: 0,
    okLatencies: [],
    refusedLatencies: [],
    errors: 0,
    timeouts: 0,
    sockets: 0,
    firstProblems: [],
  };
}

/** One GET; resolves when answered (or failed), recording into `tally`. */
function fire(agent: http.Agent, base: URL, target: Target, tally: Tally): Promise<void> {
  tally.sent++;
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = http.request(
      { agent, host: base.hostname, port: base.port, path: target.path, headers: { cookie: target.cookie } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c) => chunks.length < 4 && chunks.push(c));
        res.on("end", () => {
          const ms = performance.now() - t0;
          const s = res.statusCode ?? 0;
          tally.statuses[s] = (tally.statuses[s] ?? 0) + 1;
          if (s >= 200 && s < 300) tally.okLatencies.push(ms);
          else if (s === 503) {
            tally.refusedLatencies.push(ms);
            if (/^[1-9]\d*$/.test(String(res.headers["retry-after"] ?? ""))) tally.retryAfter503++;
            else if (tally.firstProblems.length < 3) tally.firstProblems.push(`503 without Retry-After on ${target.path}`);
          }
          if (s >= 500 && s !== 503 && tally.firstProblems.length < 3)
            tally.firstProblems.push(`${s} on ${target.path}: ${Buffer.concat(chunks).toString().slice(0, 200)}`);
          resolve();
        });
      },
    );
    req.once("socket", (sock) => {
      if (!(sock as unknown as { __counted?: boolean }).__counted) {
        (sock as unknown as { __counted?: boolean }).__counted = true;
        tally.sockets++;
      }
    });
    req.setTimeout(30_000, () => {
      tally.timeouts++;
      req.destroy(new Error("timeout"));
    });
    req.on("error", (err) => {
      if (err.message !== "timeout") {
        tally.errors++;
        if (tally.firstProblems.length < 3) tally.firstProblems.push(`socket error: ${err.message}`);
      }
      resolve();
    });
    req.end();
  });
}

/** Closed loop: `clients` each send the next request when the previous one is answered. */
async function closedLoop(base: URL, next: () => Target, clients: number, seconds: number): Promise<Tally & { seconds: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  const tally = newTally();
  const until = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < until) await fire(agent, base, next(), tally);
    }),
  );
  agent.destroy();
  return { ...tally, seconds: (performance.now() - started) / 1000 };
}

/**
 * Open loop: `rate` arrivals per second, evenly spread, whether or not earlier ones were answered -
 * over at most `connections` keep-alive connections (clients behind a load balancer reuse theirs;
 * an arrival finding all of them busy waits for one, and that wait counts in its latency). Opening
 * a new connection per waiting request instead overflows the listen queue of any server on a busy
 * machine, and the dropped SYNs are retried after 1, 3, 7 s - a measure of TCP, not of the server.
 */
async function openLoop(base: URL, next: () => Target, rate: number, seconds: number, connections: number): Promise<Tally> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const tally = newTally();
  const inflight = new Set<Promise<void>>();
  const started = performance.now();
  await new Promise<void>((resolve) => {
    const tick = setInterval(() => {
      const elapsed = (performance.now() - started) / 1000;
      const due = Math.floor(Math.min(elapsed, seconds) * rate) - tally.sent;
      for (let i = 0; i < due; i++) {
        const p = fire(agent, base, next(), tally).finally(() => inflight.delete(p));
        inflight.add(p);
      }
      if (elapsed >= seconds) {
        clearInterval(tick);
        resolve();
      }
    }, 5);
  });
  await Promise.all(inflight);
  agent.destroy();
  return tally;
}

/** GET /api/health every 100 ms until stopped: latencies and statuses. */
function healthProbe(base: URL) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let stop = false;
  const done = (async () => {
    while (!stop) {
      const t0 = performance.now();
      const s = await new Promise<number>((resolve) => {
        const req = http.get({ agent, host: base.hostname, port: base.port, path: "/api/health" }, (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
        });
        req.setTimeout(30_000, () => req.destroy());
        req.on("error", () => resolve(0));
      });
      latencies.push(performance.now() - t0);
      statuses[s] = (statuses[s] ?? 0) + 1;
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    stop: async () => {
      stop = true;
      await done;
      agent.destroy();
      return { latencies: latencies.sort((a, b) => a - b), statuses };
    },
  };
}

export interface OverloadRun {
  settings: Record<string, string>;
  sustainable: { rps: number; p50: number; p99: number; non2xx: number };
  overload: {
    targetRps: number;
    seconds: number;
    sent: number;
    statuses: Record<string, number>;
    share503: number;
    retryAfterShare: number;
    goodputRps: number;
    okP50: number;
    okP99: number;
    refusedP99: number;
    timeouts: number;
    errors: number;
    connections: number;
  };
  health: { checks: number; p50: number; p99: number; max: number; statuses: Record<string, number> };
  recovery: { requests: number; non2xx: number };
  loadBefore: number[];
  loadAfter: number[];
  problems: string[];
}

/** The server settings this run uses: the defaults of src/config.ts unless set in `env`. */
function effectiveSettings(env: Record<string, string>): Record<string, string> {
  const pick = (name: string, dflt: number) => env[name] ?? process.env[name] ?? String(dflt);
  return {
    DATABASE_POOL_SIZE: pick("DATABASE_POOL_SIZE", config.databasePoolSize),
    DATABASE_POOL_TIMEOUT_MS: pick("DATABASE_POOL_TIMEOUT_MS", config.databasePoolTimeoutMs),
    DATABASE_TRANSACTION_TIMEOUT_MS: pick("DATABASE_TRANSACTION_TIMEOUT_MS", config.databaseTransactionTimeoutMs),
    MAX_CONCURRENT_REQUESTS: pick("MAX_CONCURRENT_REQUESTS", config.maxConcurrentRequests),
    MAX_QUEUED_REQUESTS: pick("MAX_QUEUED_REQUESTS", config.maxQueuedRequests),
    REQUEST_QUEUE_TIMEOUT_MS: pick("REQUEST_QUEUE_TIMEOUT_MS", config.requestQueueTimeoutMs),
  };
}

interface Prepared {
  url: string;
  users: SeedUser[];
  employeeIds: Map<string, string[]>;
}

/** Starts the server with `env`, measures, stops it. */
async function measure(
  db: Prepared,
  env: Record<string, string>,
  opts: { probeSeconds: number; seconds: number; factor: number; log: (s: string) => void },
): Promise<OverloadRun> {
  const problems: string[] = [];
  const settings = effectiveSettings(env);
  const serverEnv = {
    DATABASE_URL: db.url,
    NODE_ENV: "production",
    SESSION_SECRET,
    RUN_WORKER: "false",
    MIGRATE_ON_START: "false",
    LOG_LEVEL: "warn",
    TRUST_PROXY: "true",
    PUBLIC_URL: "http://127.0.0.1",
    ...settings,
  };
  const api = await startProcess(productionServerArgs(), serverEnv, "/api/health");
  try {
    const base = new URL(api.base);
    if (!db.users[0].cookie) {
      for (const user of db.users) {
        const r = await fetch(`${api.base}/api/auth/sign-in`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-forwarded-proto": "https" },
          body: JSON.stringify({ email: user.email, password: PASSWORD }),
        });
        if (r.status !== 200) throw new Error(`sign-in of ${user.email}: ${r.status}`);
        user.cookie = r.headers.getSetCookie()[0].split(";")[0];
      }
    }
    const next = readMix(db.users, db.employeeIds);
    const clients = num("OVERLOAD_PROBE_CONNECTIONS", 32);
    opts.log(`overload: ${JSON.stringify(settings)}: warm-up 5 s, then ${clients} clients closed-loop for ${opts.probeSeconds} s`);
    await closedLoop(base, next, clients, 5);
    const atCapacity = healthProbe(base);
    const probe = await closedLoop(base, next, clients, opts.probeSeconds);
    const healthAtCapacity = await atCapacity.stop();
    const probeOk = probe.okLatencies.sort((a, b) => a - b);
    const rps = probeOk.length / probe.seconds;
    const probeNon2xx = probe.sent - probeOk.length;
    if (probeNon2xx)
      problems.push(
        `sustainable-rate probe: ${probeNon2xx} non-2xx (${JSON.stringify(probe.statuses)}) ${probe.firstProblems.join(" | ")}`,
      );

    const targetRps = Math.round(rps * opts.factor);
    opts.log(
      `overload: sustainable ${Math.round(rps)} req/s (p99 ${round(percentile(probeOk, 99))} ms); ` +
        `now ${targetRps} req/s open-loop for ${opts.seconds} s`,
    );
    const loadBefore = loadavg().map(round);
    const health = healthProbe(base);
    const over = await openLoop(base, next, targetRps, opts.seconds, num("OVERLOAD_CONNECTIONS", 256));
    const h = await health.stop();
    const loadAfter = loadavg().map(round);
    const ok = over.okLatencies.sort((a, b) => a - b);
    const refused = over.refusedLatencies.sort((a, b) => a - b);
    const n503 = over.statuses["503"] ?? 0;
    const n500 = Object.entries(over.statuses)
      .filter(([s]) => Number(s) >= 500 && s !== "503")
      .reduce((n, [, c]) => n + c, 0);
    if (n500) problems.push(`${n500} responses 5xx other than 503 under overload: ${over.firstProblems.join(" | ")}`);
    if (over.retryAfter503 !== n503) problems.push(`${n503 - over.retryAfter503} of ${n503} 503s without Retry-After`);
    if (over.timeouts || over.errors)
      problems.push(`${over.timeouts} requests unanswered in 30 s, ${over.errors} socket errors: ${over.firstProblems.join(" | ")}`);
    const other = Object.entries(over.statuses).filter(([s]) => !(Number(s) >= 200 && Number(s) < 300) && s !== "503");
    if (other.length) problems.push(`unexpected statuses under overload: ${JSON.stringify(Object.fromEntries(other))}`);
    const healthNon200 = Object.entries(h.statuses)
      .filter(([s]) => s !== "200")
      .reduce((n, [, c]) => n + c, 0);
    if (healthNon200) problems.push(`health answered ${JSON.stringify(h.statuses)} during the overload`);
    const healthLimit = Math.max(1000, 2 * percentile(healthAtCapacity.latencies, 99));
    if (percentile(h.latencies, 99) > healthLimit)
      problems.push(
        `health p99 ${round(percentile(h.latencies, 99))} ms during the overload (limit ${round(healthLimit)} ms: ` +
          `1 s, or twice its p99 of ${round(percentile(healthAtCapacity.latencies, 99))} ms at the sustainable rate)`,
      );

    await new Promise((r) => setTimeout(r, 3000));
    const rec = await closedLoop(base, next, 8, 5);
    const recNon2xx = rec.sent - rec.okLatencies.length;
    if (recNon2xx) problems.push(`recovery: ${recNon2xx} of ${rec.sent} non-2xx (${JSON.stringify(rec.statuses)})`);

    return {
      settings,
      sustainable: { rps: Math.round(rps), p50: round(percentile(probeOk, 50)), p99: round(percentile(probeOk, 99)), non2xx: probeNon2xx },
      overload: {
        targetRps,
        seconds: opts.seconds,
        sent: over.sent,
        statuses: over.statuses,
        share503: over.sent ? n503 / over.sent : 0,
        retryAfterShare: n503 ? over.retryAfter503 / n503 : 1,
        goodputRps: Math.round(ok.length / opts.seconds),
        okP50: round(percentile(ok, 50)),
        okP99: round(percentile(ok, 99)),
        refusedP99: round(percentile(refused, 99)),
        timeouts: over.timeouts,
        errors: over.errors,
        connections: over.sockets,
      },
      health: {
        checks: h.latencies.length,
        p50: round(percentile(h.latencies, 50)),
        p99: round(percentile(h.latencies, 99)),
        max: round(h.latencies.at(-1) ?? NaN),
        statuses: h.statuses,
      },
      recovery: { requests: rec.sent, non2xx: recNon2xx },
      loadBefore,
      loadAfter,
      problems,
    };
  } finally {
    if (api.proc.exitCode === null) api.proc.kill("SIGKILL");
  }
}

/** A throw-away database with LOAD-style data; `fn` runs against it, everything is removed after. */
async function withDatabase<T>(employees: number, tenants: number, log: (s: string) => void, fn: (db: Prepared) => Promise<T>): Promise<T> {
  const scratch = await scratchDatabase("overload");
  try {
    const url = scratch.url;
    await deployMigrations(url);
    const t0 = Date.now();
    const { users } = await seed(url, tenants, employees);
    const employeeIds = new Map<string, string[]>();
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    for (const tid of new Set(users.map((x) => x.tenantId)))
      employeeIds.set(
        tid,
        (await c.query(`SELECT id FROM employees WHERE tenant_id = $1 ORDER BY random() LIMIT 500`, [tid])).rows.map((r) => r.id),
      );
    await c.end();
    log(`overload: seeded ${tenants} tenants, ${users.length} users, ${employees} employees in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    return await fn({ url, users, employeeIds });
  } finally {
    await scratch.drop();
  }
}

export async function runOverload(opts: { env?: Record<string, string>; log?: (s: string) => void } = {}): Promise<OverloadRun> {
  const log = opts.log ?? ((s: string) => console.log(s));
  return withDatabase(num("OVERLOAD_EMPLOYEES", 20_000), num("OVERLOAD_TENANTS", 5), log, (db) =>
    measure(db, opts.env ?? {}, {
      probeSeconds: num("OVERLOAD_PROBE_SECONDS", 10),
      seconds: num("OVERLOAD_SECONDS", 25),
      factor: num("OVERLOAD_FACTOR", 3),
      log,
    }),
  );
}

const fmtStatuses = (s: Record<string, number>) =>
  Object.entries(s)
    .sort()
    .map(([k, v]) => `${k}×${v}`)
    .join(" ");

export function formatOverload(r: OverloadRun): string {
  const o = r.overload;
  const rows: [string, string][] = [
    [
      "settings",
      Object.entries(r.settings)
        .map(([k, v]) => `${k}=${v}`)
        .join(" "),
    ],
    [
      "sustainable rate (32 clients, closed loop)",
      `${r.sustainable.rps} req/s, p50 ${r.sustainable.p50} ms, p99 ${r.sustainable.p99} ms, non-2xx ${r.sustainable.non2xx}`,
    ],
    [
      `overload (open loop, ${o.seconds} s)`,
      `${o.targetRps} req/s offered (${(o.targetRps / r.sustainable.rps).toFixed(1)}×), ${o.sent} sent`,
    ],
    ["statuses", fmtStatuses(o.statuses)],
    [
      "500s",
      String(
        Object.entries(o.statuses)
          .filter(([s]) => Number(s) >= 500 && s !== "503")
          .reduce((n, [, c]) => n + c, 0),
      ),
    ],
    ["503 share / with Retry-After", `${(o.share503 * 100).toFixed(1)} % / ${(o.retryAfterShare * 100).toFixed(1)} %`],
    ["goodput (2xx)", `${o.goodputRps} req/s, p50 ${o.okP50} ms, p99 ${o.okP99} ms`],
    ["503 latency p99", `${o.refusedP99} ms`],
    ["unanswered (30 s) / socket errors / connections opened", `${o.timeouts} / ${o.errors} / ${o.connections}`],
    [
      "health during overload",
      `${r.health.checks} checks, p50 ${r.health.p50} ms, p99 ${r.health.p99} ms, ` +
        `max ${r.health.max} ms, ${fmtStatuses(r.health.statuses)}`,
    ],
    ["recovery (8 clients, 5 s)", `${r.recovery.requests} requests, ${r.recovery.non2xx} non-2xx`],
    ["load average (1/5/15 min)", `before ${r.loadBefore.join(" ")}, after ${r.loadAfter.join(" ")}`],
  ];
  return table(["overload", "figure"], rows);
}

async function sweep(spec: string) {
  const [name, values] = spec.split("=");
  const log = (s: string) => console.log(s);
  const runs: OverloadRun[] = [];
  await withDatabase(num("OVERLOAD_EMPLOYEES", 20_000), num("OVERLOAD_TENANTS", 5), log, async (db) => {
    for (const v of values.split(",")) {
      const r = await measure(
        db,
        { [name]: v },
        { probeSeconds: num("OVERLOAD_PROBE_SECONDS", 10), seconds: num("OVERLOAD_SECONDS", 15), factor: num("OVERLOAD_FACTOR", 3), log },
      );
      runs.push(r);
      for (const p of r.problems) log(`  problem: ${p}`);
    }
  });
  console.log(
    table(
      [name, "sustainable req/s", "p99 ms", "3× goodput req/s", "2xx p99 ms", "503 %", "5xx≠503", "health p99 ms", "load avg"],
      runs.map((r) => [
        r.settings[name],
        String(r.sustainable.rps),
        String(r.sustainable.p99),
        String(r.overload.goodputRps),
        String(r.overload.okP99),
        (r.overload.share503 * 100).toFixed(1),
        String(
          Object.entries(r.overload.statuses)
            .filter(([s]) => Number(s) >= 500 && s !== "503")
            .reduce((n, [, c]) => n + c, 0),
        ),
        String(r.health.p99),
        r.loadAfter.join(" "),
      ]),
    ),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.env.OVERLOAD_SWEEP) {
    await sweep(process.env.OVERLOAD_SWEEP);
  } else {
    const r = await runOverload();
    console.log(formatOverload(r));
    if (r.problems.length) {
      console.error(`overload FAILED:\n  ${r.problems.join("\n  ")}`);
      process.exit(1);
    }
  }
}
