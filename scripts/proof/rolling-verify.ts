// The rolling-upgrade proof of `make verify` (VERIFY_ONLY=rolling; alone: `npx tsx scripts/proof/rolling-verify.ts`):
// the cluster topology (scripts/measure/cluster.ts: nginx, 3 server processes behind PgBouncer, a replica)
// under the load mix of scripts/measure/load.ts through nginx while every server process is replaced in
// turn, as a rolling upgrade does it (docs/operations.md, "Rolling upgrades"): SIGTERM - the
// process drains (readiness 503, responses with `Connection: close`, SHUTDOWN_DRAIN_MS) and stops -,
// a new process started on its port, then the next once the new one is ready. Half-way, an expand
// migration (a nullable column and an index, as the new release would bring) is applied to the
// primary while old and new processes serve. Then:
//   - no failed request: no 5xx, no socket error or timeout, no non-2xx the load does not expect;
//   - no lost session: every user's session answers afterwards;
//   - every process was replaced (new pids) and the new ones are ready;
//   - no job run twice: one run per schedule tick across the processes, no job handed out again.
import { readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { type ClusterState, startCluster, startServer, stopCluster, stopServer } from "../measure/cluster.ts";
import { failures, leaveSetup, ROUTES, runCannon, seed, table, routeContext, signInAll } from "../measure/load.ts";
import { operationTable } from "../../generated/registry.ts";
import { JOB_SCHEMA } from "../../src/platform/jobs/queue.ts";
import { trackOwnedProcesses } from "../support/owned-processes.ts";

const root = path.resolve(import.meta.dirname, "../..");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface RollingReport {
  seconds: number;
  rows: string[][];
  events: string[];
  checks: { check: string; result: "pass" | "FAIL"; details: string }[];
  problems: string[];
  load: string;
}

async function waitReady(base: string, timeoutMs = 120_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (
    (await fetch(`${base}/api/health/ready`).then(
      (r) => r.status,
      () => 0,
    )) !== 200
  ) {
    if (Date.now() > until) throw new Error(`${base} not ready after ${timeoutMs} ms`);
    await sleep(200);
  }
}

export async function runRollingVerify(opts: { log?: (s: string) => void } = {}): Promise<RollingReport> {
  const log = opts.log ?? ((s: string) => console.log(s));
  const seconds = Number(process.env.ROLLING_SECONDS ?? 90);
  const problems: string[] = [];
  const events: string[] = [];
  const checks: RollingReport["checks"] = [];
  const check = (name: string, ok: boolean, details: string) => {
    checks.push({ check: name, result: ok ? "pass" : "FAIL", details });
    if (!ok) problems.push(`${name}: ${details}`);
  };
  const dir = path.join(root, ".data", "rolling-verify");
  let state: ClusterState | undefined;
  try {
    // a drain long enough for nginx's connections to the stopping process to end after their request
    state = await startCluster({ dir, log, env: { SHUTDOWN_DRAIN_MS: process.env.SHUTDOWN_DRAIN_MS ?? "3000" } });
    const st = state;
    const { users } = await seed(st.url, 3, Number(process.env.ROLLING_EMPLOYEES ?? 5000));
    await signInAll(st.base, users);
    const ctx = await routeContext(st.url, users);
    const db = new pg.Client({ connectionString: st.url });
    await db.connect();
    const active = ROUTES.filter((r) => r.operations.every((id) => id in operationTable));
    if (active.some((r) => r.name === "leave request + approval")) await leaveSetup(st.base, users, ctx, st.url);
    const pidsBefore = st.servers.map((s) => s.pid);

    log(`rolling: ${active.length} routes through nginx for ${seconds} s while each of ${st.servers.length} processes is replaced`);
    const startedAt = Date.now();
    const stamp = () => `${((Date.now() - startedAt) / 1000).toFixed(1)} s`;
    const roll = (async () => {
      await sleep(Math.min(10_000, seconds * 150));
      for (let i = 0; i < st.servers.length; i++) {
        events.push(`${stamp()}: server ${i + 1} SIGTERM (draining)`);
        await stopServer(st.servers[i]);
        events.push(`${stamp()}: server ${i + 1} stopped; starting the new one`);
        await startServer(st, i);
        await waitReady(`http://127.0.0.1:${st.servers[i].port}`);
        events.push(`${stamp()}: server ${i + 1} ready again`);
        if (i === 0) {
          // the new release's expand migration, applied while old and new processes serve
          await db.query(`ALTER TABLE employees ADD COLUMN IF NOT EXISTS rolling_check_note TEXT`);
          await db.query(`CREATE INDEX IF NOT EXISTS employees_rolling_check_note_idx ON employees (tenant_id, rolling_check_note)`);
          events.push(`${stamp()}: expand migration applied (a nullable column and an index on employees)`);
        }
      }
    })();
    const results = await Promise.all(active.map((r) => runCannon(st.base, r, users, ctx, seconds)));
    await roll;

    const rows = active.map((r, i) => {
      const res = results[i];
      const codes = Object.entries(res.statusCodeStats ?? {}).map(([s, v]: [string, any]) => [Number(s), Number(v.count)] as const);
      const n = (pred: (s: number) => boolean) => codes.filter(([s]) => pred(s)).reduce((a, [, c]) => a + c, 0);
      return [
        r.name,
        String(res.requests.total),
        String(res.latency.p99),
        String(n((s) => s < 300)),
        String(n((s) => s >= 300 && s < 500)),
        String(n((s) => s >= 500)),
        String(res.errors + res.timeouts),
      ];
    });
    const sum = (col: number) => rows.reduce((a, r) => a + Number(r[col]), 0);
    const access = readFileSync(path.join(st.nginx.prefix, "access.log"), "utf8").trim().split("\n");
    const nginx5xx = access.filter((l) => Number(l.split(" ")[2]) >= 500);
    const retried = access.filter((l) => l.split(" ")[3]?.includes(",")).length;
    check(
      "no failed request",
      sum(5) === 0 && sum(6) === 0 && nginx5xx.length === 0,
      `${sum(1)} requests: ${sum(5)} × 5xx, ${sum(6)} socket errors or timeouts; nginx logged ${nginx5xx.length} × 5xx` +
        `${nginx5xx.length ? ` (${nginx5xx.slice(0, 2).join(" | ")})` : ""}; ${retried} requests nginx passed to a second server`,
    );
    check(
      "no unexpected non-2xx",
      sum(4) === 0,
      sum(4)
        ? [...failures.entries()]
            .flatMap(([k, v]) => v.map((x) => `${k}: ${x}`))
            .slice(0, 3)
            .join(" | ")
        : "none",
    );
    const sessions = await Promise.all(
      users.map((u) => fetch(`${st.base}/api/auth/session`, { headers: { cookie: u.cookie! } }).then((r) => r.status)),
    );
    check(
      "no lost session",
      sessions.every((s) => s === 200),
      `${sessions.filter((s) => s === 200).length}/${users.length} sessions answer 200`,
    );
    const replaced = st.servers.every((s, i) => s.pid !== pidsBefore[i]);
    const ready = await Promise.all(st.servers.map((s) => fetch(`http://127.0.0.1:${s.port}/api/health/ready`).then((r) => r.status)));
    check(
      "every process replaced and ready",
      replaced && ready.every((s) => s === 200),
      `pids ${pidsBefore.join(",")} → ${st.servers.map((s) => s.pid).join(",")}; readiness ${ready.join(",")}`,
    );
    // jobs: one run per schedule tick across old and new processes, none handed out again
    const { rows: ticks } = await db.query(
      `SELECT data->>'name' AS name, singleton_on, count(*)::int AS n
         FROM ${JOB_SCHEMA}.job WHERE name = '__pgboss__send-it' GROUP BY 1, 2`,
    );
    const { rows: jobStats } = await db.query(
      `SELECT count(*)::int AS jobs, count(*) FILTER (WHERE retry_count > 0)::int AS retried FROM ${JOB_SCHEMA}.job`,
    );
    const doubleTicks = ticks.filter((x) => x.n > 1).length;
    check(
      "no job run twice",
      doubleTicks === 0 && jobStats[0].retried === 0,
      `${jobStats[0].jobs} jobs, ${jobStats[0].retried} retried; ${ticks.length} schedule ticks, ${doubleTicks} run twice`,
    );
    await db.end();
    const loadAvg = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
    return { seconds, rows, events, checks, problems, load: loadAvg };
  } finally {
    if (state) await stopCluster(state).catch((err) => console.error(String(err)));
  }
}

export function formatRolling(r: RollingReport): string {
  return (
    `${table(["route", "requests", "p99 ms", "2xx", "4xx", "5xx", "errors"], r.rows)}\n\n${r.events.join("\n")}\n\n` +
    `${table(
      ["check", "result", "details"],
      r.checks.map((c) => [c.check, c.result, c.details]),
    )}\nload average ${r.load}`
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  trackOwnedProcesses();
  const r = await runRollingVerify();
  console.log(formatRolling(r));
  process.exit(r.problems.length ? 1 : 0);
}
