// `make verify` (after `make test`): the long-running proofs - long fuzzing, the generated clients, load, overload, event loop,
// body memory, cluster, metrics, restore, rolling upgrade, webhooks, calendar, recipe - each a step
// reported in one table; VERIFY_ONLY=<prefix>,... runs some. What each proves and its settings:
// docs/testing.md, "Proof harness". Exit status 1 when a check fails; whatever ends the run, what the
// steps started is stopped (docs/testing.md, "Stopping what a proof started").
import path from "node:path";
import { DATE_SENSITIVE, formatProof, INSTANTS, runAt } from "./calendar-proof.ts";
import { formatBodyMemory, runBodyMemoryProof } from "./body-memory-proof.ts";
import { formatCluster, runClusterVerify } from "./cluster-verify.ts";
import { formatEventLoop, runEventLoop } from "../measure/event-loop.ts";
import { formatMetrics, runMetricsVerify } from "./metrics-verify.ts";
import { formatDrill, runRestoreDrill } from "./restore-drill.ts";
import { formatRolling, runRollingVerify } from "./rolling-verify.ts";
import { formatKillProof, runWebhookKillProof } from "./webhook-kill-proof.ts";
import { formatLoad, runLoad, table } from "../measure/load.ts";
import { formatOverload, runOverload } from "../measure/overload.ts";
import { runRecipeDrill } from "./recipe-drill.ts";
import { trackOwnedProcesses } from "../support/owned-processes.ts";
import { runChild } from "../support/run-child.ts";

const root = path.resolve(import.meta.dirname, "../..");
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);
interface Row {
  check: string;
  result: "pass" | "FAIL" | "not run";
  details: string;
  seconds: number;
}
const rows: Row[] = [];
const only = process.env.VERIFY_ONLY?.split(",");
// whatever ends this run (a failed step, an error, a signal), what its steps started is stopped
trackOwnedProcesses();

let printed = false;
function printTable(): void {
  printed = true;
  console.log(
    `\n${table(
      ["check", "result", "seconds", "details"],
      rows.map((r) => [r.check, r.result, String(r.seconds), r.details]),
    )}`,
  );
}
// a run stopped by a signal or an error still says what its finished steps found
process.on("exit", () => {
  if (!printed && rows.length) printTable();
});

async function step(check: string, fn: () => Promise<Omit<Row, "check" | "seconds">>) {
  if (only && !only.some((o) => check.startsWith(o))) return;
  const started = Date.now();
  console.log(`\n=== verify: ${check}`);
  let r: Omit<Row, "check" | "seconds">;
  try {
    r = await fn();
  } catch (err) {
    r = { result: "FAIL", details: (err as Error).message.split("\n")[0].slice(0, 200) };
  }
  rows.push({ check, ...r, seconds: Math.round((Date.now() - started) / 1000) });
}

await step("fuzz (long)", async () => {
  const seed = process.env.FUZZ_SEED ?? String(Math.floor(Math.random() * 2 ** 31));
  const runs = process.env.VERIFY_FUZZ_RUNS ?? "100";
  console.log(`FUZZ_SEED=${seed} FUZZ_RUNS=${runs}`);
  const res = await runChild(bin("vitest"), ["run", "--config", "test/vitest.config.ts", "test/proof/fuzz.test.ts"], {
    cwd: root,
    env: { ...process.env, FUZZ_SEED: seed, FUZZ_RUNS: runs },
  });
  const out = `${res.stdout}\n${res.stderr}`;
  process.stdout.write(
    `${out
      .split("\n")
      .filter((l) => /\[fuzz\]|FAIL|reproduce|Counterexample|Test Files|Tests /.test(l))
      .join("\n")}\n`,
  );
  const summary = /\[fuzz\] FUZZ_SEED=\d+: ([^\n]+)/.exec(out)?.[1] ?? "";
  return res.status === 0
    ? { result: "pass", details: `seed ${seed}: ${summary.replace(/; statuses.*/, "")}` }
    : {
        result: "FAIL",
        details:
          `seed ${seed} (replay: FUZZ_SEED=${seed} FUZZ_RUNS=${runs} npx ` +
          `vitest run --config test/vitest.config.ts test/proof/fuzz.test.ts)`,
      };
});

// the five generated clients' journeys and Schemathesis's deep run against a live server (make sdks)
await step("sdks + schemathesis", async () => {
  const res = await runChild(bin("tsx"), [path.join(root, "scripts", "sdks", "run.ts")], {
    cwd: root,
    env: { ...process.env, SCHEMATHESIS: "deep" },
  });
  const out = `${res.stdout}\n${res.stderr}`;
  const table = out.split("\n").filter((l) => /^(ok {2}|FAIL) /.test(l));
  process.stdout.write(`${table.join("\n")}\n`);
  return res.status === 0
    ? {
        result: "pass",
        details: `${table.length} steps: 5 clients generated, compiled and through their journeys; Schemathesis 0 failures`,
      }
    : { result: "FAIL", details: table.filter((l) => l.startsWith("FAIL")).join("; ") || "see the output above" };
});

const apiShare = (b: { api: number; bare: number }) => `${((b.api / b.bare) * 100).toFixed(0)} %`;
await step("load (autocannon)", async () => {
  const report = await runLoad();
  console.log(formatLoad(report));
  const total = report.rows.reduce((n, r) => n + r.requests, 0);
  const details =
    `${total} requests in ${report.seconds} s, max p99 ${Math.max(...report.rows.map((r) => r.p99))} ms, ` +
    `RSS ${report.rssStartMb} idle, ${report.rssBeforeMb}→${report.rssAfterMb} MB ` +
    `(VmHWM ${report.hwmMb})${report.baseline.length ? `, API/bare ${report.baseline.map(apiShare).join(", ")}` : ""}`;
  if (report.problems.length) console.error(`load problems:\n  ${report.problems.join("\n  ")}`);
  return report.problems.length
    ? { result: "FAIL", details: `${report.problems[0]}${report.problems.length > 1 ? ` (+${report.problems.length - 1})` : ""}` }
    : { result: "pass", details };
});

await step("overload (3× sustainable rate)", async () => {
  const r = await runOverload();
  console.log(formatOverload(r));
  const o = r.overload;
  const n500 = Object.entries(o.statuses)
    .filter(([s]) => Number(s) >= 500 && s !== "503")
    .reduce((n, [, c]) => n + c, 0);
  const details =
    `${r.sustainable.rps} req/s sustainable, ${o.targetRps} offered: ${n500} × 500, ${(o.share503 * 100).toFixed(0)} % ` +
    `503 (${(o.retryAfterShare * 100).toFixed(0)} % with Retry-After), goodput ${o.goodputRps} req/s, ` +
    `health p99 ${r.health.p99} ms, pool ${r.settings.DATABASE_POOL_SIZE}, load ${r.loadAfter[0]}`;
  if (r.problems.length) console.error(`overload problems:\n  ${r.problems.join("\n  ")}`);
  return r.problems.length
    ? { result: "FAIL", details: `${r.problems[0]}${r.problems.length > 1 ? ` (+${r.problems.length - 1})` : ""}` }
    : { result: "pass", details };
});

await step("event loop (largest inputs)", async () => {
  const r = await runEventLoop();
  console.log(formatEventLoop(r));
  const worst = r.rows.reduce((a, b) => (b.maxLoopMs > a.maxLoopMs ? b : a), r.rows[0]);
  const details =
    `${r.rows.length} cases, ${r.rows.reduce((n, x) => n + x.requests, 0)} requests; ` +
    `longest block ${worst?.maxLoopMs} ms (${worst?.operation}, ${Math.round((worst?.cpuShare ?? 1) * 100)} % of it on the CPU), ` +
    `limit ${r.limitMs} ms; load ${r.loadAfter}`;
  if (r.problems.length) console.error(`event-loop problems:\n  ${r.problems.join("\n  ")}`);
  return r.problems.length
    ? { result: "FAIL", details: `${r.problems[0]}${r.problems.length > 1 ? ` (+${r.problems.length - 1})` : ""}` }
    : { result: "pass", details };
});

await step("body memory (32 MiB bodies against npm start)", async () => {
  const r = await runBodyMemoryProof();
  console.log(formatBodyMemory(r));
  return r.problems.length
    ? { result: "FAIL", details: r.problems[0] }
    : { result: "pass", details: `the review's body 413 before parsing; the costliest bodies allowed answered, the process alive` };
});

await step("cluster (nginx, 3 processes, replica)", async () => {
  const r = await runClusterVerify();
  console.log(formatCluster(r));
  const total = r.rows.at(-1);
  const details =
    `${total?.[1]} requests in ${r.seconds} s, ${total?.[7]} × 5xx (in flight on the killed process), ` +
    `${r.checks.filter((c) => c.result === "pass").length}/${r.checks.length} checks; ` +
    `3 vs 1 processes ${r.throughput.map((t) => `${t[1]} req/s`).join(" vs ")}`;
  if (r.problems.length) console.error(`cluster problems:\n  ${r.problems.join("\n  ")}`);
  return r.problems.length
    ? { result: "FAIL", details: `${r.problems[0]}${r.problems.length > 1 ? ` (+${r.problems.length - 1})` : ""}` }
    : { result: "pass", details };
});

await step("metrics (Prometheus scraping the cluster)", async () => {
  const r = await runMetricsVerify();
  console.log(formatMetrics(r));
  if (r.problems.length) console.error(`metrics problems:\n  ${r.problems.join("\n  ")}`);
  const passed = r.checks.filter((c) => c.result === "pass").length;
  return r.problems.length
    ? { result: "FAIL", details: `${r.problems[0]}${r.problems.length > 1 ? ` (+${r.problems.length - 1})` : ""}`.slice(0, 200) }
    : { result: "pass", details: `${passed}/${r.checks.length} checks, ${r.servers} processes, ${r.seconds} s; load ${r.load}` };
});

await step("restore (backup and restore drill)", async () => {
  const r = await runRestoreDrill();
  console.log(formatDrill(r));
  if (r.problems.length) console.error(`restore problems:\n  ${r.problems.join("\n  ")}`);
  return r.problems.length
    ? { result: "FAIL", details: r.problems[0].slice(0, 200) }
    : {
        result: "pass",
        details: r.checks
          .map((c) => c.details.split(";")[0])
          .join("; ")
          .slice(0, 200),
      };
});

await step("rolling (a rolling upgrade under load)", async () => {
  const r = await runRollingVerify();
  console.log(formatRolling(r));
  if (r.problems.length) console.error(`rolling problems:\n  ${r.problems.join("\n  ")}`);
  return r.problems.length
    ? { result: "FAIL", details: r.problems[0].slice(0, 200) }
    : { result: "pass", details: `${r.checks[0].details.split(";")[0]}; load ${r.load}`.slice(0, 200) };
});

await step("webhooks (a process killed during deliveries)", async () => {
  const r = await runWebhookKillProof();
  console.log(formatKillProof(r));
  if (r.problems.length) console.error(`webhook problems:\n  ${r.problems.join("\n  ")}`);
  return r.problems.length
    ? { result: "FAIL", details: r.problems[0].slice(0, 200) }
    : {
        result: "pass",
        details: `${r.events} events, 0 lost, ${r.duplicates} received twice, ${r.orphaned} taken over after the kill; load ${r.load}`,
      };
});

await step("calendar (the suite at 10 instants)", async () => {
  const proof = [];
  for (const { at, what } of INSTANTS) {
    console.log(`--- CLOCK_START=${at} (${what})`);
    proof.push(await runAt(at, what, DATE_SENSITIVE));
  }
  console.log(formatProof(proof));
  const failed = proof.filter((r) => r.result === "FAIL");
  for (const r of failed) console.error(`calendar proof failed at ${r.at}:\n  ${r.failures.join("\n  ")}`);
  return failed.length
    ? { result: "FAIL", details: `failed at ${failed.map((r) => r.at).join(", ")} (logs in .data/calendar-proof/)` }
    : { result: "pass", details: `${proof.length} instants, ${DATE_SENSITIVE.join(" ")}: ${proof[0]?.tests} at each` };
});

await step("recipe (adding an operation, as documented)", async () => runRecipeDrill());

printTable();
process.exit(rows.some((r) => r.result === "FAIL") ? 1 : 0);
