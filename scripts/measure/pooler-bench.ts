// Measures the cluster (scripts/measure/cluster.ts) with its server processes connected to the primary
// through PgBouncer in transaction mode and directly, with 3 and 6 processes, in one run
// (`npx tsx scripts/measure/pooler-bench.ts`; POOLER_BENCH_SECONDS, POOLER_BENCH_SERVERS="3,6"):
// the read mix of scripts/measure/load.ts (the routes that only read) through nginx, then req/s and p99
// as the load generator saw them, and the PostgreSQL backends of the application database sampled
// every 200 ms during the load - connected, and active (running a statement).
// Measurements, not a pass/fail check: docs/operations.md "Connection pooler" has the figures.
import { readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { startCluster, stopCluster } from "./cluster.ts";
import { ROUTES, runCannon, seed, table, routeContext, signInAll } from "./load.ts";
import { operationTable } from "../../generated/registry.ts";

const root = path.resolve(import.meta.dirname, "../..");
const seconds = Number(process.env.POOLER_BENCH_SECONDS ?? 30);
const counts = (process.env.POOLER_BENCH_SERVERS ?? "3,6").split(",").map(Number);
/** The routes of the load mix that only read. */
const readRoutes = () => ROUTES.filter((r) => r.operations.every((id) => id in operationTable && /^(get|list)/.test(id)));

const HEAD = ["servers", "to PostgreSQL", "req/s", "p99 ms (worst route)", "non-2xx", "backends connected (max)", "backends active (max)"];
const rows: string[][] = [];
for (const servers of counts)
  for (const pooler of [true, false]) {
    const dir = path.join(root, ".data", "pooler-bench");
    const state = await startCluster({ dir, servers, pooler, log: () => {} });
    try {
      const { users } = await seed(state.url, 2, 5000);
      await signInAll(state.base, users);
      const ctx = await routeContext(state.url, users);
      const db = new pg.Client({ connectionString: state.url });
      await db.connect();
      const routes = readRoutes();
      let maxConnected = 0;
      let maxActive = 0;
      let samples = 0;
      let sumActive = 0;
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          const { rows: r } = await db.query(
            `SELECT count(*)::int AS connected, count(*) FILTER (WHERE state = 'active')::int AS active
               FROM pg_stat_activity WHERE datname = 'hrms' AND pid <> pg_backend_pid()`,
          );
          maxConnected = Math.max(maxConnected, r[0].connected);
          maxActive = Math.max(maxActive, r[0].active);
          sumActive += r[0].active;
          samples++;
          await new Promise((res) => setTimeout(res, 200));
        }
      })();
      const started = Date.now();
      const results = await Promise.all(routes.map((r) => runCannon(state.base, r, users, ctx, seconds)));
      const elapsed = (Date.now() - started) / 1000;
      sampling = false;
      await sampler;
      await db.end();
      const total = results.reduce((n, r) => n + r.requests.total, 0);
      const non2xx = results.reduce((n, r) => n + r.non2xx + r.errors, 0);
      rows.push([
        String(servers),
        pooler ? `PgBouncer (${state.pooler?.poolSize} server conns)` : "direct",
        String(Math.round(total / elapsed)),
        String(Math.max(...results.map((r) => r.latency.p99))),
        String(non2xx),
        String(maxConnected),
        `${maxActive} (mean ${(sumActive / Math.max(1, samples)).toFixed(1)})`,
      ]);
      console.log(rows.at(-1)!.join(" | "));
    } finally {
      await stopCluster(state);
    }
  }
console.log(`\n${table(HEAD, rows)}`);
const loadAvg = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
console.log(
  `${seconds} s per run, ${readRoutes()
    .map((r) => r.name)
    .join(", ")} through nginx; load average ${loadAvg}`,
);
