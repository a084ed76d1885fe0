// Start-up time and memory of the server, per way of starting it: the build (`npm run build`) run
// by plain node as production should (`node dist/main.js`: source maps for the bundle alone), with
// every module's source maps (`--enable-source-maps`), without any (the bundle, dist/server.js,
// itself), through `npm start` (npm stays in memory as the server's parent), and the TypeScript
// sources under tsx (the CLI, which runs the server in a child process, and node with tsx as a
// loader). Prints a table: time from spawn to the "listening" log line, and after
// STARTUP_IDLE_MS at idle the server process's VmRSS and VmHWM (/proc/<pid>/status), plus the RSS
// of the whole process tree (npm, sh, the tsx CLI beside the server).
//
//   npm run build && npx tsx scripts/measure/startup.ts
//   STARTUP_RUNS (5 per way, interleaved, after one warm-up each), STARTUP_IDLE_MS (5000)
//   DATABASE_URL / TEST_DATABASE_URL: a server to create a scratch database on (else an embedded one)
// Every start is in production mode (NODE_ENV=production), applies migrations (none pending) and
// runs the job worker, as a production server does.
import { execFileSync, execSync, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { freePort } from "../../src/db/embedded.ts";
import { deployMigrations } from "../../src/db/migrations.ts";
import { scratchDatabase } from "../db/scratch-db.ts";
import { PRODUCTION_ENV, productionNodeFlags } from "./production-server.ts";

const root = path.resolve(import.meta.dirname, "../..");
const RUNS = Number(process.env.STARTUP_RUNS ?? 5);
const IDLE_MS = Number(process.env.STARTUP_IDLE_MS ?? 5000);
const tsxBin = path.join(root, "node_modules", ".bin", "tsx");

interface Way {
  name: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
}
const ALL_WAYS: Way[] = [
  {
    name: `MALLOC_ARENA_MAX=2 node ${productionNodeFlags().join(" ")} dist/main.js (recommended)`,
    command: process.execPath,
    args: [...productionNodeFlags(), "dist/main.js"],
    env: PRODUCTION_ENV,
  },
  { name: "node --enable-source-maps dist/main.js", command: process.execPath, args: ["--enable-source-maps", "dist/main.js"] },
  { name: "node dist/server.js (no source maps)", command: process.execPath, args: ["dist/server.js"] },
  { name: "npm start", command: "npm", args: ["start", "--silent"] },
  { name: "tsx src/main.ts (former npm start)", command: tsxBin, args: ["src/main.ts"] },
  { name: "node --import tsx src/main.ts", command: process.execPath, args: ["--import", "tsx", "src/main.ts"] },
];

/**
 * STARTUP_NODES=<node binary>,<node binary>: instead, the recommended way under each of those
 * runtimes, interleaved (the system's Node 20 beside the project's pinned Node 24, for example:
 * STARTUP_NODES=/usr/bin/node,node_modules/.bin/node).
 */
const NODES = process.env.STARTUP_NODES?.split(",").filter(Boolean);
const WAYS: Way[] = NODES
  ? NODES.map((bin) => ({
      name: `node ${execFileSync(bin, ["--version"], { encoding: "utf8" }).trim()} ${productionNodeFlags().join(" ")} dist/main.js`,
      command: path.resolve(root, bin),
      args: [...productionNodeFlags(), "dist/main.js"],
      env: PRODUCTION_ENV,
    }))
  : ALL_WAYS;

interface Sample {
  ms: number;
  rssKb: number;
  hwmKb: number;
  treeKb: number;
  tree: string;
}

function status(pid: number): { rss: number; hwm: number } {
  const s = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(s)?.[1] ?? 0);
  return { rss: kb("VmRSS"), hwm: kb("VmHWM") };
}

/** `pid` and every process below it. */
function tree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      /* gone meanwhile */
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    out.push(p);
    for (const c of children.get(p) ?? []) walk(c);
  };
  walk(pid);
  return out;
}

const cmdline = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
/** "server" for the process running the server (the last of the tree: npm's sh and tsx's CLI also name main.*), else its program. */
const nameOf = (pid: number, pids: number[]) => {
  const argv = cmdline(pid);
  if (pid === pids[pids.length - 1] && argv.some((a) => /main\.(js|ts)$/.test(a))) return "server";
  const program = path.basename(argv[0] ?? "?");
  return program === "node" && argv[1] && !argv[1].startsWith("-") ? path.basename(argv[1]) : program;
};

async function once(way: Way, databaseUrl: string): Promise<Sample> {
  const port = await freePort();
  const started = performance.now();
  const proc = spawn(way.command, way.args, {
    cwd: root,
    detached: true, // its own process group: the whole tree is stopped together
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "production",
      SESSION_SECRET: "startup-measurement-secret-0123456789abcdef",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      LOG_LEVEL: "info",
      ...way.env,
    },
  });
  let output = "";
  const ms = await new Promise<number>((resolve, reject) => {
    proc.stdout!.on("data", (d) => {
      output += d;
      if (/"msg":"listening"/.test(output)) resolve(performance.now() - started);
    });
    proc.stderr!.on("data", (d) => (output += d));
    proc.once("exit", (code) => reject(new Error(`${way.name} exited with ${code}: ${output}`)));
  });
  await new Promise((r) => setTimeout(r, IDLE_MS));
  const pids = tree(proc.pid!);
  const { rss, hwm } = status(pids[pids.length - 1]);
  const parts = pids.map((p) => ({ name: nameOf(p, pids), rss: status(p).rss }));
  const exited = new Promise((r) => proc.once("exit", r));
  process.kill(-proc.pid!, "SIGTERM");
  await exited;
  // the server itself may outlive its parent briefly (npm, tsx): wait for the group to be gone
  for (let i = 0; i < 100 && pids.some((p) => existsSync(`/proc/${p}`) && !readFileSync(`/proc/${p}/stat`, "utf8").includes(") Z ")); i++)
    await new Promise((r) => setTimeout(r, 50));
  return {
    ms,
    rssKb: rss,
    hwmKb: hwm,
    treeKb: parts.reduce((a, p) => a + p.rss, 0),
    tree: parts.map((p) => `${p.name} ${Math.round(p.rss / 1024)}`).join(" + "),
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;

async function main() {
  if (!existsSync(path.join(root, "dist", "main.js"))) throw new Error("no dist/main.js: run `npm run build` first");
  const scratch = await scratchDatabase("startup");
  const url = scratch.url;
  try {
    await deployMigrations(url);
    console.log(`load average before: ${execSync("uptime").toString().trim()}`);
    const first = new Map<string, number>();
    for (const way of WAYS) first.set(way.name, (await once(way, url)).ms); // warm-up: pg-boss schema, tsx cache
    const samples = new Map<string, Sample[]>(WAYS.map((w) => [w.name, []]));
    for (let i = 0; i < RUNS; i++) for (const way of WAYS) samples.get(way.name)!.push(await once(way, url));
    console.log(`load average after:  ${execSync("uptime").toString().trim()}`);
    console.log(`\nmedian of ${RUNS} starts each (after one warm-up), memory after ${IDLE_MS} ms idle; node ${process.version}\n`);
    const rows = WAYS.map((w) => {
      const s = samples.get(w.name)!;
      const last = s[s.length - 1];
      return [
        w.name,
        `${Math.round(median(s.map((x) => x.ms)))} ms`,
        `${Math.round(first.get(w.name)!)} ms`,
        mb(median(s.map((x) => x.rssKb))),
        mb(median(s.map((x) => x.hwmKb))),
        mb(median(s.map((x) => x.treeKb))),
        last.tree,
      ];
    });
    const head = ["way of starting", "to listening", "warm-up run", "server VmRSS", "server VmHWM", "tree RSS", "tree (MB)"];
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i])).join("  ");
    console.log(line(head));
    console.log(widths.map((w) => "-".repeat(w)).join("  "));
    for (const r of rows) console.log(line(r));
  } finally {
    await scratch.drop();
  }
}

await main();
