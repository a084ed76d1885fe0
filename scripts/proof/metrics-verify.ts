// The metrics proof of `make verify` (VERIFY_ONLY=metrics; alone: `npx tsx scripts/proof/metrics-verify.ts`):
// a real Prometheus (Debian's `prometheus` package, installed with apt-get when missing) scrapes
// the server processes of the cluster topology (scripts/measure/cluster.ts: nginx, SERVERS processes with
// METRICS_PORT, a streaming replica) every 2 s while the load mix of scripts/measure/load.ts runs through
// nginx for METRICS_SECONDS (60); then the step asks Prometheus, as an operator's dashboard would:
//   - every target up, every series of docs/operations.md "Metrics" present;
//   - the request rate and the p99 from the latency histogram (rate / histogram_quantile), beside
//     what the load generator itself measured;
//   - every request the load generator got an answer to counted once (the counters' sum against
//     autocannon's total);
// and runs `promtool check metrics` (Prometheus' own linter of names, units and help texts) on a
// scrape of each process. Fails on a missing series, a target down, a count that does not match or
// a promtool complaint.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { freePort } from "../../src/db/embedded.ts";
import { type ClusterState, startCluster, stopCluster } from "../measure/cluster.ts";
import { own, trackOwnedProcesses } from "../support/owned-processes.ts";
import { ensureDebianPackage } from "../support/ensure-debian.ts";
import { leaveSetup, ROUTES, runCannon, seed, table, routeContext, signInAll } from "../measure/load.ts";
import { operationTable } from "../../generated/registry.ts";

const root = path.resolve(import.meta.dirname, "../..");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The series an operator's dashboards and alerts rely on (docs/operations.md, "Metrics"). */
export const REQUIRED_SERIES = [
  "hrms_http_requests_total",
  "hrms_http_request_duration_seconds_bucket",
  "hrms_http_request_duration_seconds_count",
  "hrms_db_pool_connections",
  "hrms_db_pool_max_connections",
  "hrms_db_pool_waiting",
  "hrms_db_pool_connect_timeouts_total",
  "hrms_db_replica_up",
  "hrms_db_replica_lag_seconds",
  "hrms_db_replica_lag_bytes",
  "hrms_job_queue_depth",
  "hrms_job_queue_active",
  "hrms_job_queue_oldest_age_seconds",
  "hrms_mail_sent_total",
  "hrms_mail_failed_attempts_total",
  "hrms_mail_delivery_lag_seconds_count",
  "hrms_mail_outbox_pending",
  "hrms_mail_outbox_oldest_pending_age_seconds",
  "hrms_webhook_delivery_attempts_total",
  "hrms_webhook_deliveries_pending",
  "hrms_webhook_oldest_pending_age_seconds",
  "hrms_admission_rejections_total",
  "hrms_admission_requests",
  "hrms_ready",
  "nodejs_eventloop_lag_p99_seconds",
  "process_resident_memory_bytes",
  "nodejs_heap_size_used_bytes",
];

export interface MetricsReport {
  seconds: number;
  servers: number;
  rows: string[][];
  checks: { check: string; result: "pass" | "FAIL"; details: string }[];
  problems: string[];
  load: string;
}

/** The metrics port a server process printed at start (its log file). */
async function metricsPortOf(log: string): Promise<number> {
  for (let i = 0; i < 100; i++) {
    const m = /Metrics: http:\/\/127\.0\.0\.1:(\d+)\/metrics/.exec(readFileSync(log, "utf8"));
    if (m) return Number(m[1]);
    await sleep(100);
  }
  throw new Error(`no metrics port in ${log}`);
}

export async function runMetricsVerify(opts: { log?: (s: string) => void } = {}): Promise<MetricsReport> {
  const log = opts.log ?? ((s: string) => console.log(s));
  const seconds = Number(process.env.METRICS_SECONDS ?? 60);
  const problems: string[] = [];
  const checks: MetricsReport["checks"] = [];
  const check = (name: string, ok: boolean, details: string) => {
    checks.push({ check: name, result: ok ? "pass" : "FAIL", details });
    if (!ok) problems.push(`${name}: ${details}`);
  };
  const prometheusBin = ensureDebianPackage("prometheus", ["/usr/bin/prometheus"]);
  const promtool = ensureDebianPackage("prometheus", ["/usr/bin/promtool"]);
  ensureDebianPackage("nginx", ["/usr/sbin/nginx"]);
  const dir = path.join(root, ".data", "metrics-verify");
  let state: ClusterState | undefined;
  let prometheus: ChildProcess | undefined;
  try {
    state = await startCluster({ dir, log, servers: Number(process.env.SERVERS ?? 3), env: { METRICS_PORT: "0" } });
    const st = state;
    const targets = await Promise.all(st.servers.map(async (s) => `127.0.0.1:${await metricsPortOf(s.log)}`));
    log(`metrics: server processes' metrics at ${targets.join(", ")}`);

    // promtool's lint of each process's exposition
    for (const target of targets) {
      const text = await (await fetch(`http://${target}/metrics`)).text();
      const lint = spawnSync(promtool, ["check", "metrics"], { input: text, encoding: "utf8" });
      check(`promtool check metrics (${target})`, lint.status === 0, (lint.stdout + lint.stderr).trim().slice(0, 300) || "no problems");
    }

    // Prometheus, scraping every 2 s
    const promDir = path.join(dir, "prometheus");
    mkdirSync(path.join(promDir, "data"), { recursive: true });
    const promPort = await freePort();
    const conf = path.join(promDir, "prometheus.yml");
    writeFileSync(
      conf,
      [
        "# written by scripts/proof/metrics-verify.ts",
        "global: { scrape_interval: 2s, evaluation_interval: 2s }",
        "scrape_configs:",
        "  - job_name: hrms",
        `    static_configs: [{ targets: [${targets.map((t) => `"${t}"`).join(", ")}] }]`,
        "",
      ].join("\n"),
    );
    prometheus = spawn(
      prometheusBin,
      [
        `--config.file=${conf}`,
        `--storage.tsdb.path=${path.join(promDir, "data")}`,
        `--web.listen-address=127.0.0.1:${promPort}`,
        "--storage.tsdb.retention.time=1h",
      ],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    own(prometheus.pid, "prometheus");
    let promErr = "";
    prometheus.stderr?.on("data", (d) => (promErr = (promErr + d).slice(-4000)));
    const prom = `http://127.0.0.1:${promPort}`;
    for (let i = 0; ; i++) {
      if (prometheus.exitCode !== null) throw new Error(`prometheus exited: ${promErr}`);
      if (
        (await fetch(`${prom}/-/ready`).then(
          (r) => r.status,
          () => 0,
        )) === 200
      )
        break;
      if (i > 300) throw new Error(`prometheus not ready: ${promErr}`);
      await sleep(100);
    }
    log(`metrics: Prometheus ${prom} scraping every 2 s`);
    const query = async (q: string, time?: number) => {
      const u = new URL(`${prom}/api/v1/query`);
      u.searchParams.set("query", q);
      if (time) u.searchParams.set("time", String(time));
      const body = (await (await fetch(u)).json()) as {
        status: string;
        data: { result: { metric: Record<string, string>; value: [number, string] }[] };
      };
      if (body.status !== "success") throw new Error(`query ${q}: ${JSON.stringify(body)}`);
      return body.data.result;
    };

    // the load: the read and write mix of scripts/measure/load.ts through nginx
    const employees = Number(process.env.METRICS_EMPLOYEES ?? 5000);
    const { users } = await seed(st.url, 2, employees);
    await signInAll(st.base, users);
    const ctx = await routeContext(st.url, users);
    const active = ROUTES.filter((r) => r.operations.every((id) => id in operationTable));
    if (active.some((r) => r.name === "leave request + approval")) await leaveSetup(st.base, users, ctx, st.url);
    // the counters before the load (what the set-up sent)
    await sleep(3000);
    const before = Number((await query("sum(hrms_http_requests_total)"))[0]?.value[1] ?? 0);
    const startedAt = Date.now() / 1000;
    log(`metrics: ${active.length} routes through nginx for ${seconds} s`);
    const results = await Promise.all(active.map((r) => runCannon(st.base, r, users, ctx, seconds)));
    const endedAt = Date.now() / 1000;
    await sleep(5000); // two more scrapes
    const answered = results.reduce((n, r) => n + r.requests.total, 0);
    const cannonRps = Math.round(answered / (endedAt - startedAt));
    const cannonP99 = Math.max(...results.map((r) => r.latency.p99));

    // what Prometheus says
    const ups = await query('up{job="hrms"}');
    check(
      "every target up",
      ups.length === targets.length && ups.every((u) => u.value[1] === "1"),
      `${ups.filter((u) => u.value[1] === "1").length}/${targets.length} up`,
    );
    const names = new Set((await query('count by (__name__) ({job="hrms"})')).map((r) => r.metric.__name__));
    const missing = REQUIRED_SERIES.filter((n) => !names.has(n));
    check(
      "every series present",
      missing.length === 0,
      missing.length ? `missing: ${missing.join(", ")}` : `${REQUIRED_SERIES.length} series`,
    );
    const window = `${Math.max(10, Math.floor(endedAt - startedAt - 4))}s`;
    const rate = Number((await query(`sum(rate(hrms_http_requests_total[${window}]))`, endedAt))[0]?.value[1] ?? NaN);
    const p99 = Number(
      (await query(`histogram_quantile(0.99, sum by (le) (rate(hrms_http_request_duration_seconds_bucket[${window}])))`, endedAt))[0]
        ?.value[1] ?? NaN,
    );
    const after = Number((await query("sum(hrms_http_requests_total)"))[0]?.value[1] ?? 0);
    const counted = after - before;
    check(
      "request rate and p99 from Prometheus",
      Number.isFinite(rate) && rate > 0 && Number.isFinite(p99) && p99 > 0,
      `rate ${rate.toFixed(0)} req/s (autocannon ${cannonRps}), p99 ${(p99 * 1000).toFixed(0)} ms (autocannon ${cannonP99} ms)`,
    );
    // every answer counted once: the load's answers, and a few of the processes' own (nginx health retries: none)
    check(
      "every request counted once",
      counted >= answered && counted <= answered * 1.01 + 50,
      `${counted} counted by the servers, ${answered} answered to the load generator`,
    );
    const perOp = await query(`topk(8, sum by (operation) (rate(hrms_http_requests_total[${window}])))`, endedAt);
    const p99Op = await query(
      `histogram_quantile(0.99, sum by (le, operation) (rate(hrms_http_request_duration_seconds_bucket[${window}])))`,
      endedAt,
    );
    const rows = perOp.map((r) => {
      const op = r.metric.operation;
      const q = p99Op.find((x) => x.metric.operation === op);
      return [op, Number(r.value[1]).toFixed(1), q ? (Number(q.value[1]) * 1000).toFixed(0) : "-"];
    });
    const pools = await query(`max by (pool, state) (max_over_time(hrms_db_pool_connections[${window}]))`, endedAt);
    const lag = await query("max(max_over_time(hrms_db_replica_lag_seconds[5m]))");
    rows.push([
      "(pool connections, max of a process during the load)",
      pools.map((p) => `${p.metric.pool}/${p.metric.state} ${p.value[1]}`).join(", "),
      "",
    ]);
    rows.push(["(replica lag, max)", `${lag[0]?.value[1] ?? "-"} s`, ""]);
    const loadAvg = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
    return { seconds, servers: targets.length, rows, checks, problems, load: loadAvg };
  } finally {
    if (prometheus && prometheus.exitCode === null) {
      const gone = new Promise((r) => prometheus!.once("exit", r));
      prometheus.kill("SIGTERM");
      await gone;
    }
    if (state) await stopCluster(state).catch((err) => console.error(String(err)));
  }
}

export function formatMetrics(r: MetricsReport): string {
  return (
    `${table(["operation", "req/s (Prometheus)", "p99 ms (histogram)"], r.rows)}\n\n` +
    `${table(
      ["check", "result", "details"],
      r.checks.map((c) => [c.check, c.result, c.details]),
    )}\n` +
    `${r.servers} server processes, ${r.seconds} s of load; load average ${r.load}`
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  trackOwnedProcesses();
  const r = await runMetricsVerify();
  console.log(formatMetrics(r));
  process.exit(r.problems.length ? 1 : 0);
}
